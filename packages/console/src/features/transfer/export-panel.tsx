import { Button, Group, Paper, Progress, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useRef, useState, type ReactNode } from 'react';
import { ACCOUNT_STATUSES, ORDER_STATUSES, PRODUCT_STATUSES, ROLES } from '../../api/domain';
import { DateRange } from '../../components/DateRange';
import { count, titleCase } from '../../lib/format';
import { notifyDone, notifyError } from '../../lib/notify';
import { compact, dayAfter, dayStart } from '../../lib/search';
import { downloadExport, type ExportKind, type ExportProgress, type ExportQueries } from './api';

/** A filter of an export: one of `values`, or any when cleared. */
function AnyOf<T extends string>({
  label,
  values,
  value,
  onChange,
}: {
  label: string;
  values: readonly T[];
  value: T | null;
  onChange: (value: T | null) => void;
}) {
  return (
    <Select
      label={label}
      placeholder="Any"
      clearable
      w={160}
      data={values.map((v) => ({ value: v, label: titleCase(v) }))}
      value={value}
      // The choices are `values`: whatever is picked is one of them.
      onChange={(picked) => onChange(picked as T | null)}
    />
  );
}

/**
 * Streams an export to a file, showing the rows received against the total the API announced first,
 * with a way to stop it. One export at a time per card.
 */
function useExport<K extends ExportKind>(kind: K) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  const start = async (query: ExportQueries[K]) => {
    controller.current = new AbortController();
    setProgress({ rows: 0, total: null });
    try {
      const result = await downloadExport(kind, query, setProgress, controller.current.signal);
      notifyDone(`${kind}.csv: ${count(result.rows)} ${result.rows === 1 ? 'row' : 'rows'}`);
    } catch (error) {
      if ((error as Error)?.name !== 'AbortError') notifyError(error, 'Export stopped');
    } finally {
      controller.current = null;
      setProgress(null);
    }
  };
  return { progress, start, stop: () => controller.current?.abort() };
}

function ExportCard({
  title,
  what,
  filters,
  exporter,
  onStart,
}: {
  title: string;
  what: string;
  filters: ReactNode;
  exporter: { progress: ExportProgress | null; stop: () => void };
  onStart: () => void;
}) {
  const { progress } = exporter;
  const share = progress?.total ? Math.min(100, (progress.rows / progress.total) * 100) : progress ? 100 : 0;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={`Export ${title.toLowerCase()}`}>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {what}
      </Text>
      <Stack gap="sm">
        <Group align="flex-end" gap="sm" wrap="wrap">
          {filters}
        </Group>
        {progress ? (
          <Stack gap={4} role="status">
            <Text size="sm">
              {progress.total === null ? `${count(progress.rows)} rows so far` : `${count(progress.rows)} of ${count(progress.total)} rows`}
            </Text>
            <Progress value={share} animated={progress.total === null} aria-label={`Export of ${title.toLowerCase()}`} />
          </Stack>
        ) : null}
        <Group>
          {progress ? (
            <Button variant="default" onClick={exporter.stop}>
              Stop
            </Button>
          ) : (
            <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={onStart}>
              Export {title.toLowerCase()}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** CSV exports of products (the import's format), orders and accounts, of any size, streamed. */
export function ExportPanel() {
  const products = useExport('products');
  const orders = useExport('orders');
  const accounts = useExport('accounts');
  const [productStatus, setProductStatus] = useState<(typeof PRODUCT_STATUSES)[number] | null>(null);
  const [orderStatus, setOrderStatus] = useState<(typeof ORDER_STATUSES)[number] | null>(null);
  const [placed, setPlaced] = useState<{ from?: string | undefined; to?: string | undefined }>({});
  const [role, setRole] = useState<(typeof ROLES)[number] | null>(null);
  const [accountStatus, setAccountStatus] = useState<(typeof ACCOUNT_STATUSES)[number] | null>(null);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="export-title">
      <Title order={2} size="h4" mb="md" id="export-title">
        Export
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <ExportCard
          title="Products"
          what="A row per variant with its product and stock, in the format the import reads back."
          exporter={products}
          onStart={() => void products.start(compact({ status: productStatus ?? undefined }))}
          filters={<AnyOf label="Status" values={PRODUCT_STATUSES} value={productStatus} onChange={setProductStatus} />}
        />
        <ExportCard
          title="Orders"
          what="Every order with its customer, totals and status, oldest first."
          exporter={orders}
          onStart={() =>
            void orders.start(
              compact({
                status: orderStatus ?? undefined,
                placed_from: placed.from ? dayStart(placed.from) : undefined,
                placed_to: placed.to ? dayAfter(placed.to) : undefined,
              }),
            )
          }
          filters={
            <>
              <AnyOf label="Status" values={ORDER_STATUSES} value={orderStatus} onChange={setOrderStatus} />
              <DateRange
                labels={['Placed from (UTC)', 'Placed to (UTC)']}
                from={placed.from}
                to={placed.to}
                onChange={(changes) => setPlaced((previous) => ({ ...previous, ...changes }))}
              />
            </>
          }
        />
        <ExportCard
          title="Accounts"
          what="Customers and staff with their order count and spend, oldest first."
          exporter={accounts}
          onStart={() =>
            void accounts.start(
              compact({
                role: role ?? undefined,
                status: accountStatus ?? undefined,
              }),
            )
          }
          filters={
            <>
              <AnyOf label="Role" values={ROLES} value={role} onChange={setRole} />
              <AnyOf label="Account status" values={ACCOUNT_STATUSES} value={accountStatus} onChange={setAccountStatus} />
            </>
          }
        />
      </SimpleGrid>
    </Paper>
  );
}
