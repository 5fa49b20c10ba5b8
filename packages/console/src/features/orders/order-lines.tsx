import { Anchor, Paper, Table, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { OptionsText } from '../../components/OptionsText';
import { money } from '../../lib/format';
import type { OrderDetail } from './api';

/** The order's lines as they were at checkout, and its totals. */
export function OrderLines({ order }: { order: OrderDetail }) {
  const totals = [
    ['Subtotal', money(order.subtotal, order.currency)],
    ...(Number(order.discount_total) > 0
      ? [[order.coupon_code ? `Discount (${order.coupon_code})` : 'Discount', `−${money(order.discount_total, order.currency)}`]]
      : []),
    ['Shipping', money(order.shipping_total, order.currency)],
    ['Tax', money(order.tax_total, order.currency)],
  ];
  return (
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
          {order.items.map((item) => (
            <Table.Tr key={item.variant_public_id}>
              <Table.Td>
                <Anchor
                  renderRoot={(props) => <Link {...props} to="/products/$productId" params={{ productId: item.product_public_id }} />}
                >
                  <bdi>{item.product_name}</bdi>
                </Anchor>
                <OptionsText options={item.options} />
              </Table.Td>
              <Table.Td>
                <bdi>{item.sku}</bdi>
              </Table.Td>
              <Table.Td ta="right">{money(item.unit_price, order.currency)}</Table.Td>
              <Table.Td ta="right">{item.quantity}</Table.Td>
              <Table.Td ta="right">{money(item.line_total, order.currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          {totals.map(([label, amount]) => (
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
            <Table.Th ta="right">{money(order.total, order.currency)}</Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Paper>
  );
}
