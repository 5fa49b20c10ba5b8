import { Anchor, Button, Grid, Group, Paper, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { api } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { FormErrors } from '../components/FormErrors';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatusBadge } from '../components/StatusBadge';
import { notifyDone, notifyError, placeErrors } from '../lib/errors';
import { notifyUndoable } from '../lib/undo';
import { money, when } from '../lib/format';

const MONEY = /^\d{1,10}(\.\d{1,2})?$/;
const WHOLE = /^\d{1,9}$/;

interface CouponValues {
  code: string;
  discount_type: 'PERCENTAGE' | 'FIXED_AMOUNT';
  discount_value: string;
  minimum_order_amount: string;
  maximum_discount_amount: string;
  usage_limit: string;
  usage_limit_per_user: string;
  starts_at: string;
  expires_at: string;
  is_active: boolean;
}

interface CouponFacts {
  code: string;
  discount_type: 'PERCENTAGE' | 'FIXED_AMOUNT';
  discount_value: string;
  minimum_order_amount: string | null;
  maximum_discount_amount: string | null;
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  starts_at: string | null;
  expires_at: string | null;
  is_active: boolean;
}

/** `2026-11-24T10:00:00.000Z` as a datetime-local value in the browser's time zone, and back. */
const toLocal = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocal = (value: string) => (value ? new Date(value).toISOString() : null);

const valuesOf = (c: CouponFacts | null): CouponValues => ({
  code: c?.code ?? '',
  discount_type: c?.discount_type ?? 'PERCENTAGE',
  discount_value: c?.discount_value ?? '',
  minimum_order_amount: c?.minimum_order_amount ?? '',
  maximum_discount_amount: c?.maximum_discount_amount ?? '',
  usage_limit: c?.usage_limit === null || c?.usage_limit === undefined ? '' : String(c.usage_limit),
  usage_limit_per_user: c?.usage_limit_per_user === null || c?.usage_limit_per_user === undefined ? '' : String(c.usage_limit_per_user),
  starts_at: toLocal(c?.starts_at ?? null),
  expires_at: toLocal(c?.expires_at ?? null),
  is_active: c?.is_active ?? true,
});

/** The body the API takes: empty optional fields are "no limit" (null). */
const bodyOf = (v: CouponValues) => ({
  code: v.code.trim(),
  discount_type: v.discount_type,
  discount_value: v.discount_value.trim(),
  minimum_order_amount: v.minimum_order_amount.trim() || null,
  maximum_discount_amount: v.maximum_discount_amount.trim() || null,
  usage_limit: v.usage_limit.trim() ? Number(v.usage_limit) : null,
  usage_limit_per_user: v.usage_limit_per_user.trim() ? Number(v.usage_limit_per_user) : null,
  starts_at: fromLocal(v.starts_at),
  expires_at: fromLocal(v.expires_at),
  is_active: v.is_active,
});

/** `onSubmit` throws the API's refusal: field errors go next to their inputs, the rest above the button. */
function CouponForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: CouponFacts | null;
  submitLabel: string;
  onSubmit: (body: ReturnType<typeof bodyOf>) => Promise<void>;
}) {
  const optionalMoney = (value: string) =>
    value.trim() === '' || MONEY.test(value.trim()) ? null : 'An amount like 50.00, or empty for none';
  const optionalCount = (value: string) =>
    value.trim() === '' || (WHOLE.test(value.trim()) && Number(value) >= 1) ? null : 'A whole number from 1, or empty for no limit';
  const form = useForm<CouponValues>({
    initialValues: valuesOf(initial),
    validate: {
      code: (value) => (/^[A-Za-z0-9_-]{3,50}$/.test(value.trim()) ? null : '3 to 50 letters, digits, - or _'),
      discount_value: (value, values) =>
        !MONEY.test(value.trim()) || Number(value) <= 0
          ? 'An amount above zero'
          : values.discount_type === 'PERCENTAGE' && Number(value) > 100
            ? 'A percentage is at most 100'
            : null,
      minimum_order_amount: optionalMoney,
      maximum_discount_amount: optionalMoney,
      usage_limit: optionalCount,
      usage_limit_per_user: optionalCount,
      expires_at: (value, values) => (value && values.starts_at && value <= values.starts_at ? 'Ends after it starts' : null),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await onSubmit(bodyOf(values));
        } catch (error) {
          form.setErrors(placeErrors(error, { inputs: Object.keys(values), codes: { CODE_TAKEN: 'code' } }));
        }
      })}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Code"
            required
            description="Customers type it at checkout; case does not matter"
            maxLength={50}
            {...form.getInputProps('code')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="discount-type-label">
              Discount type
            </Text>
            <SegmentedControl
              aria-labelledby="discount-type-label"
              data={[
                { value: 'PERCENTAGE', label: 'Percentage' },
                { value: 'FIXED_AMOUNT', label: 'Fixed amount' },
              ]}
              {...form.getInputProps('discount_type')}
            />
          </Stack>
          <TextInput
            label={form.values.discount_type === 'PERCENTAGE' ? 'Percent off' : 'Amount off'}
            required
            inputMode="decimal"
            {...form.getInputProps('discount_value')}
          />
          <TextInput
            label="Minimum order"
            description="Subtotal needed; empty for none"
            inputMode="decimal"
            {...form.getInputProps('minimum_order_amount')}
          />
          <TextInput
            label="Maximum discount"
            description="Cap on the discount; empty for none"
            inputMode="decimal"
            {...form.getInputProps('maximum_discount_amount')}
          />
          <TextInput label="Total uses" description="Empty for unlimited" inputMode="numeric" {...form.getInputProps('usage_limit')} />
          <TextInput
            label="Uses per customer"
            description="Empty for unlimited"
            inputMode="numeric"
            {...form.getInputProps('usage_limit_per_user')}
          />
          <TextInput label="Starts" type="datetime-local" description="Empty: at once" {...form.getInputProps('starts_at')} />
          <TextInput label="Ends" type="datetime-local" description="Empty: never" {...form.getInputProps('expires_at')} />
        </SimpleGrid>
        <Switch
          label="Active"
          description="Off: the code is refused at checkout"
          {...form.getInputProps('is_active', { type: 'checkbox' })}
        />
        <FormErrors form={form} />
        <Group>
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function NewCouponScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <>
      <PageHeader title="New coupon" />
      <Paper withBorder p="md" radius="md" maw={820}>
        <CouponForm
          initial={null}
          submitLabel="Create coupon"
          onSubmit={async (body) => {
            const created = (await api.POST('/api/v1/admin/coupons', { body })).data;
            void queryClient.invalidateQueries({ queryKey: ['coupons'] });
            notifyDone(`Coupon ${created.code} created`);
            await navigate({ to: '/coupons/$couponId', params: { couponId: created.public_id } });
          }}
        />
      </Paper>
    </>
  );
}

export function CouponScreen() {
  const { couponId } = useParams({ from: '/staff/coupons/$couponId' });
  const search = useSearch({ from: '/staff/coupons/$couponId' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const coupon = useQuery({
    queryKey: ['coupon', couponId],
    queryFn: async () =>
      (await api.GET('/api/v1/admin/coupons/{coupon_public_id}', { params: { path: { coupon_public_id: couponId } } })).data,
  });
  const usageQuery = { page: search.page ?? 1, limit: 20 };
  const usages = useQuery({
    queryKey: ['coupon-usages', couponId, usageQuery],
    queryFn: async () =>
      api.GET('/api/v1/admin/coupons/{coupon_public_id}/usages', { params: { path: { coupon_public_id: couponId }, query: usageQuery } }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: async () => api.DELETE('/api/v1/admin/coupons/{coupon_public_id}', { params: { path: { coupon_public_id: couponId } } }),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: ['coupons'] });
      notifyDone('Coupon deleted; its usage history stays');
      await navigate({ to: '/coupons' });
    },
    onError: (error) => notifyError(error, 'Not deleted'),
  });
  const patch = async (body: Partial<ReturnType<typeof bodyOf>>) => {
    const updated = (
      await api.PATCH('/api/v1/admin/coupons/{coupon_public_id}', { params: { path: { coupon_public_id: couponId } }, body })
    ).data;
    queryClient.setQueryData(['coupon', couponId], updated);
    void queryClient.invalidateQueries({ queryKey: ['coupons'] });
    return updated;
  };
  const save = async (body: ReturnType<typeof bodyOf>) => {
    const updated = await patch(body);
    notifyDone(`Coupon ${updated.code} saved`);
  };
  /**
   * Switching a coupon off or on applies at once, with Undo: the API reverses it exactly (is_active
   * only; nothing else changes). Deleting keeps its confirmation: there is no way back from it.
   */
  const toggle = useMutation({
    mutationFn: (active: boolean) => patch({ is_active: active }),
    onSuccess: (updated) =>
      notifyUndoable(
        updated.is_active ? `${updated.code} is on: checkout accepts it again` : `${updated.code} is off: checkout refuses it`,
        () => patch({ is_active: !updated.is_active }),
        `${updated.code} is ${updated.is_active ? 'off' : 'on'} again`,
      ),
    onError: (error) => notifyError(error, 'Not changed'),
  });

  type UsageRow = NonNullable<typeof usages.data>['data'][number];
  const columns: Column<UsageRow>[] = [
    {
      key: 'order',
      header: 'Order',
      nowrap: true,
      render: (u) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/orders/$orderId" params={{ orderId: u.order_public_id }} />}>
          {u.order_number}
        </Anchor>
      ),
    },
    { key: 'customer', header: 'Customer', render: (u) => u.user.email },
    { key: 'discount', header: 'Discount', align: 'right', render: (u) => money(u.discount_amount) },
    { key: 'when', header: 'When', render: (u) => when(u.created_at) },
    { key: 'released', header: 'Given back', render: (u) => (u.released ? 'Yes (order cancelled)' : 'No') },
  ];

  return (
    <QueryState query={coupon}>
      {(c) => (
        <>
          <PageHeader
            title={`Coupon ${c.code}`}
            subtitle={
              <Group gap="xs" component="span">
                <StatusBadge status={c.status} /> used {c.times_used} {c.times_used === 1 ? 'time' : 'times'}
              </Group>
            }
            actions={
              <>
                <Button variant="default" loading={toggle.isPending} onClick={() => toggle.mutate(!c.is_active)}>
                  {c.is_active ? 'Switch off' : 'Switch on'}
                </Button>
                <Button
                  color="red"
                  variant="light"
                  onClick={() =>
                    modals.openConfirmModal({
                      title: `Delete ${c.code}?`,
                      children: (
                        <Text size="sm">
                          Customers can no longer use it; orders that used it keep their discount and the history stays.
                        </Text>
                      ),
                      labels: { confirm: 'Delete', cancel: 'Keep it' },
                      confirmProps: { color: 'red' },
                      onConfirm: () => remove.mutate(),
                    })
                  }
                >
                  Delete
                </Button>
              </>
            }
          />
          <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/coupons" />}>
            ← All coupons
          </Anchor>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4" mb="sm">
                  Settings
                </Title>
                <CouponForm key={c.updated_at} initial={c} submitLabel="Save coupon" onSubmit={save} />
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4" mb="sm">
                  Usage
                </Title>
                <QueryState query={usages}>
                  {(result) => (
                    <DataTable
                      label={`Orders that used ${c.code}`}
                      columns={columns}
                      rows={result.data}
                      rowKey={(u) => u.order_public_id}
                      meta={result.meta}
                      loading={usages.isFetching}
                      onPage={(p) => void navigate({ to: '/coupons/$couponId', params: { couponId }, search: { page: p } })}
                      empty={<Text>Not used yet.</Text>}
                    />
                  )}
                </QueryState>
              </Paper>
            </Grid.Col>
          </Grid>
        </>
      )}
    </QueryState>
  );
}
