import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { when } from '../../lib/format';

/**
 * Shows a signing secret, the one time the API gives it, with a way to copy it. It is kept nowhere
 * in the console: closing the window drops it.
 */
export function showSecretOnce(secret: string, { rotatedUntil }: { rotatedUntil?: string | null } = {}) {
  const id = 'webhook-secret';
  modals.open({
    modalId: id,
    title: 'The signing secret',
    size: 'lg',
    closeOnClickOutside: false,
    children: (
      <Stack>
        <Text size="sm">
          Copy it to the receiver now: it is shown only this once. The receiver checks each request’s <code>webhook-signature</code> with it
          (any Standard Webhooks library does).
        </Text>
        <Code block aria-label="Signing secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {secret}
        </Code>
        {rotatedUntil ? (
          <Text size="sm">The previous secret keeps signing beside this one until {when(rotatedUntil)}.</Text>
        ) : rotatedUntil === null ? (
          <Text size="sm">The previous secret no longer signs.</Text>
        ) : null}
        <Group justify="flex-end">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                {copied ? 'Copied' : 'Copy the secret'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={() => modals.close(id)}>I have stored it</Button>
        </Group>
      </Stack>
    ),
  });
}
