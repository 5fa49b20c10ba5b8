import { Anchor, Button, Grid, Group, Paper, Stack, Table, Text, Textarea, TextInput, Timeline, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconCheck, IconPackage, IconTruck, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api } from '../api';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatusBadge } from '../components/StatusBadge';
import { fieldErrors, notifyDone, notifyError } from '../lib/errors';
import { money, titleCase, when } from '../lib/format';

type Status = 'PLACED' | 'CONFIRMED' | 'SHIPPED' | 'FULFILLED' | 'CANCELLED';
interface Change {
  status: Status;
  carrier?: string;
  tracking_number?: string;
  note?: string;
}

/** The lifecycle as the API enforces it, with what each step does to stock, shown before confirming. */
const NEXT: Record<Status, { to: Status; label: string; stock: string; color?: string }[]> = {
  PLACED: [
    { to: 'CONFIRMED', label: 'Confirm', stock: 'Stock stays reserved for this order.' },
    { to: 'CANCELLED', label: 'Cancel order', stock: 'The reserved units go back to available stock.', color: 'red' },
  ],
  CONFIRMED: [
    { to: 'SHIPPED', label: 'Ship', stock: 'The units leave the warehouse: on hand and reserved both go down.' },
    { to: 'CANCELLED', label: 'Cancel order', stock: 'The reserved units go back to available stock.', color: 'red' },
  ],
  SHIPPED: [{ to: 'FULFILLED', label: 'Mark fulfilled', stock: 'No stock change.' }],
  FULFILLED: [],
  CANCELLED: [],
};
const ICONS: Record<Status, typeof IconCheck> = { PLACED: IconPackage, CONFIRMED: IconCheck, SHIPPED: IconTruck, FULFILLED: IconCheck, CANCELLED: IconX };

export const orderQuery = (id: string) => ({
  queryKey: ['order', id],
  queryFn: async () => (await api.GET('/api/v1/admin/orders/{order_public_id}', { params: { path: { order_public_id: id } } })).data,
});

function ShipForm({ onSubmit }: { onSubmit: (values: { carrier: string; tracking_number?: string; note?: string }) => Promise<Record<string, string> | void> }) {
  const form = useForm({
    initialValues: { carrier: '', tracking_number: '', note: '' },
    validate: {
      carrier: (value) => (value.trim() === '' ? 'Name the carrier' : value.length > 100 ? 'At most 100 characters' : null),
      tracking_number: (value) => (value.length > 100 ? 'At most 100 characters' : null),
    },
  });
  return (
    <form
      onSubmit={form.onSubmit(async (values) => {
        const errors = await onSubmit({
          carrier: values.carrier.trim(),
          ...(values.tracking_number.trim() ? { tracking_number: values.tracking_number.trim() } : {}),
          ...(values.note.trim() ? { note: values.note.trim() } : {}),
        });
        if (errors) form.setErrors(errors);
      })}
      noValidate
    >
      <Stack>
        <Text size="sm">The units leave the warehouse: on hand and reserved both go down. The customer is emailed.</Text>
        <TextInput label="Carrier" required data-autofocus {...form.getInputProps('carrier')} />
        <TextInput label="Tracking number" {...form.getInputProps('tracking_number')} />
        <Textarea label="Note (internal)" autosize minRows={2} maxLength={1000} {...form.getInputProps('note')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => modals.closeAll()}>
            Back
          </Button>
          <Button type="submit" loading={form.submitting} leftSection={<IconTruck size={16} />}>
            Ship order
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

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

  const start = (step: (typeof NEXT)[Status][number], number: string) => {
    if (step.to === 'SHIPPED') {
      modals.open({
        title: `Ship ${number}`,
        children: (
          <ShipForm
            onSubmit={async (values) => {
              try {
                await change.mutateAsync({ status: 'SHIPPED', ...values });
                modals.closeAll();
              } catch (error) {
                notifyError(error, 'Not shipped');
                return fieldErrors(error);
              }
            }}
          />
        ),
      });
      return;
    }
    modals.openConfirmModal({
      title: `${step.label} ${number}?`,
      children: <Text size="sm">{step.stock}</Text>,
      labels: { confirm: step.label, cancel: 'Back' },
      confirmProps: step.color ? { color: step.color } : {},
      onConfirm: () => change.mutate({ status: step.to }, { onError: (error) => notifyError(error, `${step.label} failed`) }),
    });
  };

  return (
    <QueryState query={order}>
      {(data) => (
        <>
          <PageHeader
            title={`Order ${data.order_number}`}
            subtitle={
              <Group gap="xs" component="span">
                <StatusBadge status={data.status} /> placed {when(data.placed_at)} by {data.customer.email}
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
                    onClick={() => start(step, data.order_number)}
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
                          {item.product_name}
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
                        ? [[data.coupon_code ? `Discount (${data.coupon_code})` : 'Discount', `−${money(data.discount_total, data.currency)}`]]
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
