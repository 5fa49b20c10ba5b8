import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { describe } from '../../lib/errors';
import { useRotateSecret } from './api';
import { showSecretOnce } from './secret-modal';

const OVERLAPS = [
  { value: '0', label: 'Stops at once' },
  { value: '3600', label: 'Signs for 1 more hour' },
  { value: '86400', label: 'Signs for 1 more day' },
  { value: '604800', label: 'Signs for 7 more days' },
];

/** Asks how long the old secret keeps signing, rotates, and shows the new secret once. */
function RotateForm({ endpointId, onDone }: { endpointId: string; onDone: () => void }) {
  const rotate = useRotateSecret(endpointId);
  const [overlap, setOverlap] = useState('86400');
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Stack>
      <Text size="sm">
        A new secret signs every delivery from now on. While the receiver still has the old one, both sign each request, so nothing is
        refused while you change it there.
      </Text>
      <Select
        label="The old secret"
        allowDeselect={false}
        data={OVERLAPS}
        value={overlap}
        onChange={(value) => setOverlap(value ?? '86400')}
      />
      {failure ? (
        <Text c="red.8" size="sm" role="alert">
          {failure}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button
          loading={rotate.isPending}
          onClick={() =>
            void rotate.mutateAsync(Number(overlap)).then(
              (rotated) => {
                onDone();
                showSecretOnce(rotated.secret, { rotatedUntil: rotated.previous_secret_expires_at });
              },
              (error: unknown) => setFailure(describe(error)),
            )
          }
        >
          Make a new secret
        </Button>
      </Group>
    </Stack>
  );
}

export function openRotateSecret(endpointId: string) {
  const id = 'rotate-secret';
  modals.open({
    modalId: id,
    title: 'Rotate the signing secret',
    children: <RotateForm endpointId={endpointId} onDone={() => modals.close(id)} />,
  });
}
