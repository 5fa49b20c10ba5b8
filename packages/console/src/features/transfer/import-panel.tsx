import { Alert, Button, FileInput, Group, Paper, Progress, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { csvRecordCounter } from '../../lib/csv-records';
import { describe } from '../../lib/errors';
import { count } from '../../lib/format';
import { notifyDone } from '../../lib/notify';
import { useImportProducts, type ImportMode, type ImportReport } from './api';
import { RefusedRows, StockChanges } from './import-report';

/** The API's limits, checked before the file is sent. */
const MAX_BYTES = 5 * 1024 * 1024;
const MAX_ROWS = 10_000;

type Apply = Exclude<ImportMode, 'validate'>;

/** A file and what the import answered for it. */
interface Checked {
  file: File;
  csv: string;
  report: ImportReport;
}

/**
 * Products, variants and stock from a CSV file (the products export's format), in two steps: the
 * whole file is checked first and each refused row shown with its reason; then it is imported whole
 * (only if no row is refused) or the rows that passed, as the person chooses. A known SKU updates its
 * variant, so importing the same file again changes nothing.
 */
export function ImportPanel() {
  const run = useImportProducts();
  const [file, setFile] = useState<File | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [apply, setApply] = useState<Apply>('all_or_nothing');
  const [done, setDone] = useState<Checked | null>(null);
  const [working, setWorking] = useState<{ mode: ImportMode; rows: number } | null>(null);

  const pick = (picked: File | null) => {
    setFile(picked);
    setChecked(null);
    setDone(null);
    setProblem(null);
  };

  const send = async (mode: ImportMode, csv: string) => {
    const rows = Math.max(0, csvRecordCounter().add(csv.endsWith('\n') ? csv : `${csv}\n`) - 1);
    setWorking({ mode, rows });
    try {
      return await run.mutateAsync({ csv, mode, reason: reason.trim() || undefined });
    } finally {
      setWorking(null);
    }
  };

  const check = async () => {
    setProblem(null);
    setDone(null);
    if (!file) return setProblem('Pick a CSV file first.');
    if (file.size > MAX_BYTES) return setProblem(`The file is ${count(Math.ceil(file.size / 1024))} KB; the import takes up to 5 MB.`);
    try {
      const csv = await file.text();
      const report = await send('validate', csv);
      setChecked({ file, csv, report });
      // The safer choice first: leaving rows out is for the person to choose.
      setApply('all_or_nothing');
    } catch (error) {
      setChecked(null);
      setProblem(describe(error));
    }
  };

  const importIt = async () => {
    if (!checked) return;
    setProblem(null);
    try {
      const report = await send(apply, checked.csv);
      if (report.applied) {
        setDone({ ...checked, report });
        setChecked(null);
        notifyDone(`${checked.file.name} imported`);
      } else {
        // The store changed since the check (a SKU taken meanwhile): the new report says which rows.
        setChecked({ ...checked, report });
        setProblem('Nothing was imported: rows are refused now that were not when the file was checked.');
      }
    } catch (error) {
      setProblem(describe(error));
    }
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="import-title">
      <Title order={2} size="h4" mb={4} id="import-title">
        Import products, variants and stock
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        One row per variant, in the products export’s columns (any of them, with <code>sku</code>); a known SKU updates its variant, a new
        one adds it. A file of <code>sku,quantity_on_hand</code> is a stock count: each changed quantity becomes an adjustment with the
        reason below. Up to {count(MAX_ROWS)} rows and 5 MB.
      </Text>
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <FileInput
            label="CSV file"
            accept=".csv,text/csv"
            clearable
            w={320}
            leftSection={<IconFileTypeCsv size={16} aria-hidden />}
            value={file}
            onChange={pick}
          />
          <TextInput
            label="Reason"
            description="Recorded with every change; empty: “CSV import”"
            placeholder="e.g. Stock count, Nov 26"
            maxLength={255}
            w={320}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          <Button
            variant="default"
            onClick={() => void check()}
            loading={working?.mode === 'validate'}
            disabled={!file || Boolean(working)}
          >
            Check the file
          </Button>
        </Group>
        {working ? (
          <Stack gap={4} role="status">
            <Text size="sm">
              {working.mode === 'validate' ? 'Checking' : 'Importing'} {count(working.rows)} {working.rows === 1 ? 'row' : 'rows'}…
            </Text>
            <Progress value={100} striped animated aria-label="Import under way" />
          </Stack>
        ) : null}
        {problem ? (
          <Alert color="red" variant="light" role="alert" title="Not imported">
            {problem}
          </Alert>
        ) : null}
        {checked ? (
          <ImportCheck checked={checked} apply={apply} onApply={setApply} busy={Boolean(working)} onImport={() => void importIt()} />
        ) : null}
        {done ? <ImportDone done={done} /> : null}
      </Stack>
    </Paper>
  );
}

/**
 * What the check found: the counts, each refused row with its reason, the stock counts the file
 * changes, and the choice of what to import. Whole-file is the choice it starts on; when it cannot
 * import, the reason is said next to the button.
 */
function ImportCheck({
  checked: { file, csv, report },
  apply,
  onApply,
  busy,
  onImport,
}: {
  checked: Checked;
  apply: Apply;
  onApply: (apply: Apply) => void;
  busy: boolean;
  onImport: () => void;
}) {
  const refused = report.refused;
  const refusedRows = new Set(refused.map((r) => r.line)).size;
  const size = apply === 'valid_rows' ? report.valid : report.rows;
  const blocked =
    apply === 'all_or_nothing' && refusedRows > 0
      ? `Fix the ${count(refusedRows)} refused ${refusedRows === 1 ? 'row' : 'rows'}, or choose to import only the rows that pass.`
      : report.valid === 0
        ? 'No row passes the check: fix the file and check it again.'
        : null;
  const why = useId();
  return (
    <Stack gap="sm" role="region" aria-label="Check of the file">
      <Text fw={600} role="status">
        <bdi>{file.name}</bdi>: {count(report.rows)} {report.rows === 1 ? 'row' : 'rows'}, {count(report.valid)} valid, {count(refusedRows)}{' '}
        refused
      </Text>
      {refused.length > 0 ? <RefusedRows name={file.name} csv={csv} refused={refused} /> : null}
      {report.stock_changes.length > 0 ? <StockChanges changes={report.stock_changes} /> : null}
      <Radio.Group label="Import" value={apply} onChange={(value) => onApply(value as Apply)}>
        <Stack gap={6} mt={6}>
          <Radio value="all_or_nothing" label="The whole file, only if no row is refused" />
          <Radio value="valid_rows" label="The rows that pass; refused rows are left out" />
        </Stack>
      </Radio.Group>
      <Group gap="sm" wrap="wrap">
        <Button onClick={onImport} disabled={blocked !== null || busy} loading={busy} aria-describedby={blocked ? why : undefined}>
          {apply === 'valid_rows'
            ? `Import the ${count(size)} valid ${size === 1 ? 'row' : 'rows'}`
            : `Import ${count(size)} ${size === 1 ? 'row' : 'rows'}`}
        </Button>
        {blocked ? (
          <Text size="sm" c="dimmed" id={why}>
            {blocked}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}

/** What an import wrote, and the rows it left out, still listed and downloadable to fix. */
function ImportDone({ done: { file, csv, report } }: { done: Checked }) {
  const { created, updated } = report;
  const line = (what: string, made: number, changed: number) => `${what}: ${count(made)} created, ${count(changed)} updated`;
  const refusedRows = new Set(report.refused.map((r) => r.line)).size;
  return (
    <Stack gap="sm">
      <Alert color="teal" variant="light" title="Imported" role="status">
        <Stack gap={2}>
          <Text size="sm">{line('Products', created.products, updated.products)}</Text>
          <Text size="sm">{line('Variants', created.variants, updated.variants)}</Text>
          <Text size="sm">{line('Stock records', created.stock_records, updated.stock_records)}</Text>
          {refusedRows > 0 ? (
            <Text size="sm">
              {count(refusedRows)} refused {refusedRows === 1 ? 'row was' : 'rows were'} left out; they are listed below.
            </Text>
          ) : null}
        </Stack>
      </Alert>
      {report.refused.length > 0 ? (
        <Stack gap="xs" role="region" aria-label="Rows left out">
          <Title order={3} size="h6">
            Rows left out of <bdi>{file.name}</bdi>
          </Title>
          <RefusedRows name={file.name} csv={csv} refused={report.refused} />
        </Stack>
      ) : null}
    </Stack>
  );
}
