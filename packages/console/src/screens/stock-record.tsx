import {
  Anchor,
  Button,
  Grid,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { api } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { FormErrors } from '../components/FormErrors';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatCard } from '../components/StatCard';
import { StatusBadge } from '../components/StatusBadge';
import { describe, notifyDone, placeErrors } from '../lib/errors';
import { count, titleCase, when } from '../lib/format';

interface Figures {
  quantity_on_hand: number;
  quantity_reserved: number;
  quantity_available: number;
  reorder_level: number | null;
}

/** Asks first, showing the figures before and after; resolves true when the person confirms. */
function confirmChange(title: string, lines: [string, number | string, number | string][]): Promise<boolean> {
  return new Promise((resolve) =>
    modals.openConfirmModal({
      title,
      children: (
        <Stack gap={4}>
          {lines.map(([label, before, after]) => (
            <Text size="sm" key={label}>
              {label}: {before} → <b>{after}</b>
            </Text>
          ))}
        </Stack>
      ),
      labels: { confirm: 'Apply', cancel: 'Back' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    }),
  );
}

function AdjustForm({ record, variantId, onDone }: { record: Figures; variantId: string; onDone: () => void }) {
  const form = useForm({
    initialValues: { mode: 'change' as 'change' | 'set', amount: '' as number | string, reason: '' },
    validate: {
      amount: (value, values) =>
        typeof value !== 'number' || !Number.isInteger(value)
          ? 'Enter a whole number'
          : values.mode === 'change' && value === 0
            ? 'A change of zero changes nothing'
            : values.mode === 'set' && value < 0
              ? 'On hand cannot be below zero'
              : null,
      reason: (value) => (value.length > 255 ? 'At most 255 characters' : null),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        const amount = Number(values.amount);
        const after = values.mode === 'set' ? amount : record.quantity_on_hand + amount;
        const go = await confirmChange('Adjust stock?', [
          ['On hand', count(record.quantity_on_hand), count(after)],
          ['Available', count(record.quantity_available), count(after - record.quantity_reserved)],
        ]);
        if (!go) return;
        try {
          await api.PATCH('/api/v1/admin/inventory/{variant_public_id}', {
            params: { path: { variant_public_id: variantId } },
            body: {
              ...(values.mode === 'set' ? { quantity_on_hand: amount } : { quantity_change: amount }),
              ...(values.reason.trim() ? { reason: values.reason.trim() } : {}),
            },
          });
          form.reset();
          onDone();
          notifyDone(`On hand is now ${count(after)}`);
        } catch (error) {
          form.setErrors(
            placeErrors(error, {
              inputs: ['amount', 'reason'],
              rename: (field) => (field === 'quantity_change' || field === 'quantity_on_hand' ? 'amount' : field),
              // On hand below what orders hold, and the like: next to the amount.
              codes: { STOCK_RULE_VIOLATION: 'amount' },
            }),
          );
        }
      })}
    >
      <Stack>
        <SegmentedControl
          aria-label="How to adjust"
          data={[
            { value: 'change', label: 'Add or remove' },
            { value: 'set', label: 'Set on hand to' },
          ]}
          {...form.getInputProps('mode')}
        />
        <NumberInput
          label={form.values.mode === 'set' ? 'New on-hand quantity' : 'Change (negative removes)'}
          allowDecimal={false}
          required
          {...form.getInputProps('amount')}
        />
        <TextInput label="Reason" placeholder="e.g. Stock count, damaged, delivery" maxLength={255} {...form.getInputProps('reason')} />
        <FormErrors form={form} title="Not adjusted" />
        <Group>
          <Button type="submit" loading={form.submitting}>
            Adjust stock
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ReservationForm({ record, variantId, onDone }: { record: Figures; variantId: string; onDone: () => void }) {
  const form = useForm({
    initialValues: { change: '' as number | string, reason: '' },
    validate: {
      change: (value) => (typeof value !== 'number' || !Number.isInteger(value) || value === 0 ? 'A whole number other than zero' : null),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        const change = Number(values.change);
        const go = await confirmChange(change > 0 ? 'Reserve units?' : 'Release units?', [
          ['Reserved', count(record.quantity_reserved), count(record.quantity_reserved + change)],
          ['Available', count(record.quantity_available), count(record.quantity_available - change)],
        ]);
        if (!go) return;
        try {
          await api.PATCH('/api/v1/admin/inventory/{variant_public_id}/reservation', {
            params: { path: { variant_public_id: variantId } },
            body: { change, ...(values.reason.trim() ? { reason: values.reason.trim() } : {}) },
          });
          form.reset();
          onDone();
          notifyDone(change > 0 ? `${count(change)} reserved` : `${count(-change)} released`);
        } catch (error) {
          // RESERVATION_HELD says how many units open orders hold, and so how many may be released.
          form.setErrors({ change: describe(error).replace(/ \(request [^)]+\)$/, '') });
        }
      })}
    >
      <Stack>
        <NumberInput label="Reserve (positive) or release (negative)" allowDecimal={false} required {...form.getInputProps('change')} />
        <TextInput label="Reason" maxLength={255} {...form.getInputProps('reason')} />
        <Group>
          <Button type="submit" variant="light" loading={form.submitting}>
            Apply to reservation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ReorderLevelForm({ record, variantId, onDone }: { record: Figures; variantId: string; onDone: () => void }) {
  const form = useForm({
    initialValues: { level: (record.reorder_level ?? '') as number | string },
    validate: {
      level: (value) =>
        value === '' || (typeof value === 'number' && Number.isInteger(value) && value >= 0)
          ? null
          : 'A whole number, 0 or more, or empty for none',
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        const level = values.level === '' ? null : Number(values.level);
        try {
          await api.PATCH('/api/v1/admin/inventory/{variant_public_id}', {
            params: { path: { variant_public_id: variantId } },
            body: { reorder_level: level },
          });
          onDone();
          notifyDone(level === null ? 'No reorder level: this record is never low stock' : `Low stock at ${count(level)} or fewer`);
        } catch (error) {
          form.setErrors({ level: describe(error).replace(/ \(request [^)]+\)$/, '') });
        }
      })}
    >
      <Group align="flex-end">
        <NumberInput
          label="Reorder level"
          description="Low stock at or below this; empty for none"
          allowDecimal={false}
          min={0}
          w={240}
          {...form.getInputProps('level')}
        />
        <Button type="submit" variant="default" loading={form.submitting}>
          Save level
        </Button>
      </Group>
    </form>
  );
}

export function StockRecordScreen() {
  const { variantId } = useParams({ from: '/staff/inventory/$variantId' });
  const search = useSearch({ from: '/staff/inventory/$variantId' });
  const navigate = useNavigate({ from: '/inventory/$variantId' });
  const queryClient = useQueryClient();
  const record = useQuery({
    queryKey: ['stock', variantId],
    queryFn: async () =>
      (await api.GET('/api/v1/admin/inventory/{variant_public_id}', { params: { path: { variant_public_id: variantId } } })).data,
  });
  const movementQuery = { page: search.page ?? 1, limit: 20 };
  const movements = useQuery({
    queryKey: ['movements', variantId, movementQuery],
    queryFn: async () =>
      api.GET('/api/v1/admin/inventory/{variant_public_id}/movements', {
        params: { path: { variant_public_id: variantId }, query: movementQuery },
      }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['stock', variantId] });
    void queryClient.invalidateQueries({ queryKey: ['movements', variantId] });
    void queryClient.invalidateQueries({ queryKey: ['inventory'] });
    void queryClient.invalidateQueries({ queryKey: ['stats'] });
  };

  type MovementRow = NonNullable<typeof movements.data>['data'][number];
  const columns: Column<MovementRow>[] = [
    { key: 'when', header: 'When', render: (m) => when(m.created_at) },
    { key: 'kind', header: 'What', render: (m) => titleCase(m.kind) },
    {
      key: 'on_hand',
      header: 'On hand',
      align: 'right',
      render: (m) => `${m.delta_on_hand > 0 ? '+' : ''}${m.delta_on_hand} → ${m.quantity_on_hand_after}`,
    },
    {
      key: 'reserved',
      header: 'Reserved',
      align: 'right',
      render: (m) => `${m.delta_reserved > 0 ? '+' : ''}${m.delta_reserved} → ${m.quantity_reserved_after}`,
    },
    {
      key: 'why',
      header: 'Reason',
      render: (m) =>
        m.order_public_id ? (
          <Anchor renderRoot={(props) => <Link {...props} to="/orders/$orderId" params={{ orderId: m.order_public_id! }} />}>Order</Anchor>
        ) : (
          (m.reason ?? '—')
        ),
    },
    { key: 'by', header: 'By', render: (m) => m.actor?.email ?? 'System' },
  ];

  return (
    <QueryState query={record}>
      {(r) => (
        <>
          <PageHeader
            title={r.product_name}
            subtitle={
              <Group gap="xs" component="span">
                <StatusBadge status={r.stock_status} /> SKU {r.sku} of{' '}
                <Anchor
                  size="sm"
                  renderRoot={(props) => <Link {...props} to="/products/$productId" params={{ productId: r.product_public_id }} />}
                >
                  the product {r.product_name}
                </Anchor>
              </Group>
            }
          />
          <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/inventory" />}>
            ← All inventory
          </Anchor>
          <SimpleGrid cols={{ base: 2, md: 4 }} mb="md">
            <StatCard label="On hand" value={count(r.quantity_on_hand)} />
            <StatCard label="Reserved" value={count(r.quantity_reserved)} hint="Held by open orders and by hand" />
            <StatCard label="Available" value={count(r.quantity_available)} hint="On hand minus reserved" />
            <StatCard
              label="Reorder at"
              value={r.reorder_level === null ? '—' : count(r.reorder_level)}
              hint="Low stock at or below this"
            />
          </SimpleGrid>
          <Grid gap="md" mb="md">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Paper withBorder p="md" radius="md" h="100%">
                <Title order={2} size="h4" mb="sm">
                  Adjust on hand
                </Title>
                <AdjustForm record={r} variantId={variantId} onDone={refresh} />
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Paper withBorder p="md" radius="md" h="100%">
                <Title order={2} size="h4" mb="sm">
                  Reservation
                </Title>
                <ReservationForm record={r} variantId={variantId} onDone={refresh} />
                <Title order={2} size="h4" mt="lg" mb="sm">
                  Low-stock alert
                </Title>
                <ReorderLevelForm key={String(r.reorder_level)} record={r} variantId={variantId} onDone={refresh} />
              </Paper>
            </Grid.Col>
          </Grid>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Movements
            </Title>
            <QueryState query={movements}>
              {(result) => (
                <DataTable
                  label="Stock movements"
                  columns={columns}
                  rows={result.data}
                  rowKey={(m) => `${m.created_at}-${m.kind}-${m.quantity_on_hand_after}-${m.quantity_reserved_after}`}
                  meta={result.meta}
                  loading={movements.isFetching}
                  onPage={(p) => void navigate({ search: { page: p } })}
                  empty={<Text>No movements yet.</Text>}
                />
              )}
            </QueryState>
          </Paper>
        </>
      )}
    </QueryState>
  );
}
