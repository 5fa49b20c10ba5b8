import { List, Stack, Text } from '@mantine/core';
import type { DataOf } from '@commerce/client';
import { modals } from '@mantine/modals';
import { count } from '../lib/format';
import { notifyDone } from '../lib/notify';

/** What a bulk request answers: each item done or refused, with the refusal's code and message. */
export type BulkResult = DataOf<'/api/v1/admin/products/bulk-status', 'post'>;

/**
 * The summary of a bulk action: all done is a notice; any refusal opens a summary of what succeeded
 * and what was refused and why, item by item, named as the list names them.
 */
export function showBulkOutcome(result: BulkResult, { done, name }: { done: string; name: (publicId: string) => string }): void {
  if (result.refused === 0) {
    notifyDone(`${count(result.done)} ${done}`);
    return;
  }
  const refused = result.results.filter((item) => item.outcome === 'refused');
  modals.open({
    title: `${count(result.done)} ${done}, ${count(result.refused)} refused`,
    children: (
      <Stack gap="sm">
        <Text size="sm">{result.done > 0 ? 'The others were done. ' : ''}These were refused, and nothing changed for them:</Text>
        <List size="sm" spacing={4} aria-label="Refused">
          {refused.map((item) => (
            <List.Item key={item.public_id}>
              <Text span fw={600} size="sm">
                <bdi>{name(item.public_id)}</bdi>
              </Text>
              : {item.error?.message ?? 'Refused'}
            </List.Item>
          ))}
        </List>
      </Stack>
    ),
  });
}
