import { Anchor, Button, Grid, Group, List, Paper, Stack, Table, Text, Textarea, TextInput, Timeline, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconCheck, IconPackage, IconTruck, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api } from '../api';
import { FormErrors } from '../components/FormErrors';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatusBadge } from '../components/StatusBadge';
import { notifyDone, placeErrors } from '../lib/errors';
import { money, titleCase, when } from '../lib/format';

type Status = 'PLACED' | 'CONFIRMED' | 'SHIPPED' | 'FULFILLED' | 'CANCELLED';
interface Change {
  status: Status;
  carrier?: string;
  tracking_number?: string;
  note?: string;
}

/** The lifecycle as the API enforces it (src/orders/transitions.ts). */
const NEXT: Record<Status, { to: Status; label: string; color?: string }[]> = {
  PLACED: [
    { to: 'CONFIRMED', label: 'Confirm' },
    { to: 'CANCELLED', label: 'Cancel order', color: 'red' },
  ],
  CONFIRMED: [
    { to: 'SHIPPED', label: 'Ship' },
    { to: 'CANCELLED', label: 'Cancel order', color: 'red' },
  ],
  SHIPPED: [{ to: 'FULFILLED', label: 'Mark fulfilled' }],
  FULFILLED: [],
  CANCELLED: [],
};
const ICONS: Record<Status, typeof IconCheck> = {
  PLACED: IconPackage,
  CONFIRMED: IconCheck,
  SHIPPED: IconTruck,
  FULFILLED: IconCheck,
  CANCELLED: IconX,
};

interface OrderFacts {
  items: { sku: string; quantity: number }[];
  coupon_code: string | null;
}

/** "2 × MUG-1, 1 × MUG-2": the order's units per SKU (lines of one variant counted together, as the API does). */
function units(items: OrderFacts['items']): string {
  const bySku = new Map<string, number>();
  for (const item of items) bySku.set(item.sku, (bySku.get(item.sku) ?? 0) + item.quantity);
  return [...bySku].map(([sku, quantity]) => `${quantity} × ${sku}`).join(', ');
}

/**
 * What a step does, line by line, as src/orders/service.ts does it: confirming keeps the
 * reservation, shipping takes the units out of on hand and reserved (and emails the customer),
 * cancelling gives the reserved units back, releases the coupon use and marks the payment refunded.
 */
export function stepEffects(to: Status, order: OrderFacts): string[] {
  const lines = units(order.items);
  switch (to) {
    case 'CONFIRMED':
      return [`Stock stays reserved for this order: ${lines}.`];
    case 'SHIPPED':
      return [`Shipping takes ${lines} out of on hand and reserved stock.`, 'The customer is emailed the carrier and tracking number.'];
    case 'CANCELLED':
      return [
        `Cancelling releases ${lines} back to available stock.`,
        ...(order.coupon_code ? [`The use of coupon ${order.coupon_code} is released: it counts as unused again.`] : []),
        'The payment is marked refunded. A cancelled order cannot be reopened.',
      ];
    default:
      return ['No stock change.'];
  }
}

interface TransitionValues {
  carrier: string;
  tracking_number: string;
  note: string;
}

/** One step's confirmation: its effect per line, the carrier when shipping, and an internal note for the history. */
function TransitionForm({
  step,
  order,
  onSubmit,
}: {
  step: (typeof NEXT)[Status][number];
  order: OrderFacts;
  onSubmit: (change: Change) => Promise<void>;
}) {
  const shipping = step.to === 'SHIPPED';
  const form = useForm<TransitionValues>({
    initialValues: { carrier: '', tracking_number: '', note: '' },
    validate: {
      carrier: (value) =>
        !shipping ? null : value.trim() === '' ? 'Name the carrier' : value.length > 100 ? 'At most 100 characters' : null,
      tracking_number: (value) => (value.length > 100 ? 'At most 100 characters' : null),
      note: (value) => (value.length > 1000 ? 'At most 1,000 characters' : null),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await onSubmit({
            status: step.to,
            ...(shipping ? { carrier: values.carrier.trim() } : {}),
            ...(shipping && values.tracking_number.trim() ? { tracking_number: values.tracking_number.trim() } : {}),
            ...(values.note.trim() ? { note: values.note.trim() } : {}),
          });
          modals.closeAll();
        } catch (error) {
          // INSUFFICIENT_STOCK names the SKUs short on hand; INVALID_TRANSITION says what the order can become now.
          form.setErrors(placeErrors(error, { inputs: ['carrier', 'tracking_number', 'note'] }));
        }
      })}
    >
      <Stack>
        <List size="sm" spacing={4}>
          {stepEffects(step.to, order).map((effect) => (
            <List.Item key={effect}>{effect}</List.Item>
          ))}
        </List>
        {shipping ? (
          <>
            <TextInput label="Carrier" required data-autofocus maxLength={100} {...form.getInputProps('carrier')} />
            <TextInput label="Tracking number" maxLength={100} {...form.getInputProps('tracking_number')} />
          </>
        ) : null}
        <Textarea
          label="Note (internal)"
          description="Kept in the order's history"
          autosize
          minRows={2}
          maxLength={1000}
          data-autofocus={!shipping || undefined}
          {...form.getInputProps('note')}
        />
        <FormErrors form={form} title={`${step.label} failed`} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => modals.closeAll()}>
            Back
          </Button>
          <Button type="submit" color={step.color} loading={form.submitting} leftSection={shipping ? <IconTruck size={16} /> : undefined}>
            {shipping ? 'Ship order' : step.label}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export const orderQuery = (id: string) => ({
  queryKey: ['order', id],
  queryFn: async () => (await api.GET('/api/v1/admin/orders/{order_public_id}', { params: { path: { order_public_id: id } } })).data,
});

export function OrderScreen() {
  const { orderId } = useParams({ from: '/staff/orders/$orderId' });
  const queryClient = useQueryClient();
  const order = useQuery(orderQuery(orderId));

  const change = useMutation({
    mutationFn: async (body: Change) =>
      (await api.PATCH('/api/v1/admin/orders/{order_public_id}', { params: { path: { order_public_id: orderId } }, body })).data,
    onSuccess: (updated) => {
      queryClient.setQueryData(orderQuery(orderId).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
      void queryClient.invalidateQueries({ queryKey: ['stats'] });
      notifyDone(`Order ${updated.order_number} is now ${titleCase(updated.status).toLowerCase()}`);
    },
  });

  // Every step asks first, with its effect per line: none can be undone (a cancelled order cannot be reopened,
  // shipped units do not come back), so they get a confirmation rather than an Undo.
  const start = (step: (typeof NEXT)[Status][number], facts: OrderFacts & { order_number: string }) =>
    modals.open({
      title: step.to === 'SHIPPED' ? `Ship ${facts.order_number}` : `${step.label} ${facts.order_number}?`,
      children: (
        <TransitionForm
          step={step}
          order={facts}
          onSubmit={async (body) => {
            await change.mutateAsync(body);
          }}
        />
      ),
    });

  return (
    <QueryState query={order}>
      {(data) => (
        <>
          <PageHeader
            title={`Order ${data.order_number}`}
            subtitle={
              <Group gap="xs" component="span">
                <StatusBadge status={data.status} /> placed {when(data.placed_at)} by{' '}
                <Anchor
                  size="sm"
                  renderRoot={(props) => <Link {...props} to="/customers/$userId" params={{ userId: data.customer.public_id }} />}
                >
                  {data.customer.email}
                </Anchor>
              </Group>
            }
            actions={
              NEXT[data.status].length > 0 ? (
                NEXT[data.status].map((step) => (
                  <Button
                    key={step.to}
                    color={step.color}
                    variant={step.color ? 'light' : 'filled'}
                    loading={change.isPending && change.variables?.status === step.to}
                    disabled={change.isPending}
                    onClick={() => start(step, data)}
                  >
                    {step.label}
                  </Button>
                ))
              ) : (
                <Text size="sm" c="dimmed">
                  No further steps
                </Text>
              )
            }
          />
          <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/orders" />}>
            ← All orders
          </Anchor>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Paper withBorder p="md" radius="md" mb="md">
                <Title order={2} size="h4" mb="sm">
                  Items
                </Title>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Product</Table.Th>
                      <Table.Th>SKU</Table.Th>
                      <Table.Th ta="right">Unit price</Table.Th>
                      <Table.Th ta="right">Quantity</Table.Th>
                      <Table.Th ta="right">Total</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.items.map((item) => (
                      <Table.Tr key={item.variant_public_id}>
                        <Table.Td>
                          <Anchor
                            renderRoot={(props) => (
                              <Link {...props} to="/products/$productId" params={{ productId: item.product_public_id }} />
                            )}
                          >
                            {item.product_name}
                          </Anchor>
                          <Text size="xs" c="dimmed">
                            {Object.entries(item.options)
                              .map(([name, value]) => `${name}: ${value}`)
                              .join(' · ')}
                          </Text>
                        </Table.Td>
                        <Table.Td>{item.sku}</Table.Td>
                        <Table.Td ta="right">{money(item.unit_price, data.currency)}</Table.Td>
                        <Table.Td ta="right">{item.quantity}</Table.Td>
                        <Table.Td ta="right">{money(item.line_total, data.currency)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                  <Table.Tfoot>
                    {[
                      ['Subtotal', money(data.subtotal, data.currency)],
                      ...(Number(data.discount_total) > 0
                        ? [
                            [
                              data.coupon_code ? `Discount (${data.coupon_code})` : 'Discount',
                              `−${money(data.discount_total, data.currency)}`,
                            ],
                          ]
                        : []),
                      ['Shipping', money(data.shipping_total, data.currency)],
                      ['Tax', money(data.tax_total, data.currency)],
                    ].map(([label, amount]) => (
                      <Table.Tr key={label}>
                        <Table.Td colSpan={4} ta="right">
                          {label}
                        </Table.Td>
                        <Table.Td ta="right">{amount}</Table.Td>
                      </Table.Tr>
                    ))}
                    <Table.Tr>
                      <Table.Th colSpan={4} ta="right">
                        Total
                      </Table.Th>
                      <Table.Th ta="right">{money(data.total, data.currency)}</Table.Th>
                    </Table.Tr>
                  </Table.Tfoot>
                </Table>
              </Paper>
              {data.notes ? (
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="xs">
                    Customer’s note
                  </Title>
                  <Text style={{ whiteSpace: 'pre-wrap' }}>{data.notes}</Text>
                </Paper>
              ) : null}
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Stack>
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="xs">
                    Ship to
                  </Title>
                  <Text>{data.shipping_address.recipient_name}</Text>
                  <Text size="sm">{data.shipping_address.address_1}</Text>
                  {data.shipping_address.address_2 ? <Text size="sm">{data.shipping_address.address_2}</Text> : null}
                  <Text size="sm">
                    {[data.shipping_address.zip_code, data.shipping_address.city, data.shipping_address.state].filter(Boolean).join(' ')}
                  </Text>
                  <Text size="sm">{data.shipping_address.country}</Text>
                  <Text size="sm" c="dimmed">
                    {data.shipping_address.phone_number}
                  </Text>
                  {data.shipment ? (
                    <Text size="sm" mt="xs">
                      Shipped with {data.shipment.carrier}
                      {data.shipment.tracking_number ? `, tracking ${data.shipment.tracking_number}` : ''}
                    </Text>
                  ) : null}
                </Paper>
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="xs">
                    Payment
                  </Title>
                  <Text size="sm">
                    {titleCase(data.payment.method)} · {titleCase(data.payment.status)}
                  </Text>
                </Paper>
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="sm">
                    History
                  </Title>
                  <Timeline active={data.status_history.length - 1} bulletSize={22} lineWidth={2}>
                    {data.status_history.map((entry) => {
                      const Icon = ICONS[entry.status];
                      return (
                        <Timeline.Item key={`${entry.status}-${entry.at}`} title={titleCase(entry.status)} bullet={<Icon size={12} />}>
                          <Text size="xs" c="dimmed">
                            {when(entry.at)}
                            {entry.by ? ` · ${titleCase(entry.by.role)}` : ''}
                          </Text>
                          {entry.note ? <Text size="sm">{entry.note}</Text> : null}
                        </Timeline.Item>
                      );
                    })}
                  </Timeline>
                </Paper>
              </Stack>
            </Grid.Col>
          </Grid>
        </>
      )}
    </QueryState>
  );
}
