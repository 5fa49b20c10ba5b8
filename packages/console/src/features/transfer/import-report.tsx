import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useId } from 'react';
import { TableFrame } from '../../components/TableFrame';
import { count } from '../../lib/format';
import { saveFile, type ImportReport } from './api';
import { refusedRowsCsv, refusedRowsFilename } from './refused-rows';

/** Most stock changes listed; a count of the rest follows. */
const STOCK_CHANGES_SHOWN = 200;
/** Most refusals listed (a 10,000-row file of mistakes would be a page no one reads); the download has them all. */
const REFUSALS_SHOWN = 200;

const signed = (n: number) => (n > 0 ? `+${count(n)}` : n < 0 ? `−${count(-n)}` : '0');

/**
 * The rows a check refused, each with its line, SKU, column and reason, and the refused rows as a
 * file to fix and import again (made here from the file and the check's answer).
 */
export function RefusedRows({ name, csv, refused }: { name: string; csv: string; refused: ImportReport['refused'] }) {
  const download = () => saveFile(new Blob([refusedRowsCsv(csv, refused)], { type: 'text/csv' }), refusedRowsFilename(name));
  return (
    <Stack gap="xs">
      <TableFrame label="Refused rows" minWidth={640}>
        <Table aria-label="Refused rows" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Line</Table.Th>
              <Table.Th>SKU</Table.Th>
              <Table.Th>Column</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {refused.slice(0, REFUSALS_SHOWN).map((row, index) => (
              <Table.Tr key={`${row.line}-${row.field}-${index}`}>
                <Table.Td>{row.line}</Table.Td>
                <Table.Td>{row.sku ? <bdi>{row.sku}</bdi> : '—'}</Table.Td>
                <Table.Td>
                  <code>{row.field}</code>
                </Table.Td>
                <Table.Td>{row.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableFrame>
      {refused.length > REFUSALS_SHOWN ? (
        <Text size="sm" c="dimmed">
          And {count(refused.length - REFUSALS_SHOWN)} more; the download below has every one.
        </Text>
      ) : null}
      <Group gap="sm" wrap="wrap">
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={download}>
          Download the refused rows
        </Button>
        <Text size="sm" c="dimmed">
          A CSV of these rows as the file gave them, with why each was refused; fix them and import that file.
        </Text>
      </Group>
    </Stack>
  );
}

/** The quantities on hand a file changes, as the check found them: the count now, the file's and the difference. */
export function StockChanges({ changes }: { changes: ImportReport['stock_changes'] }) {
  const shown = changes.slice(0, STOCK_CHANGES_SHOWN);
  const title = useId();
  return (
    <Stack gap="xs">
      <Title order={3} size="h6" id={title}>
        Stock counts that change ({count(changes.length)})
      </Title>
      <TableFrame label="Stock counts that change" minWidth={480}>
        <Table aria-labelledby={title} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>SKU</Table.Th>
              <Table.Th ta="right">On hand now</Table.Th>
              <Table.Th ta="right">New count</Table.Th>
              <Table.Th ta="right">Difference</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((change) => (
              <Table.Tr key={change.line}>
                <Table.Td>
                  <bdi>{change.sku}</bdi>
                </Table.Td>
                <Table.Td ta="right">{change.on_hand_now === null ? 'No stock record' : count(change.on_hand_now)}</Table.Td>
                <Table.Td ta="right">{count(change.on_hand_new)}</Table.Td>
                <Table.Td ta="right">{signed(change.on_hand_new - (change.on_hand_now ?? 0))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableFrame>
      {changes.length > shown.length ? (
        <Text size="sm" c="dimmed">
          And {count(changes.length - shown.length)} more.
        </Text>
      ) : null}
    </Stack>
  );
}
