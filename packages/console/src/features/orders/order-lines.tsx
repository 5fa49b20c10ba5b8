import { Anchor, Paper, Table, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { OptionsText } from '../../components/OptionsText';
import { TableFrame } from '../../components/TableFrame';
import { money } from '../../lib/format';
import type { OrderDetail } from './api';

/** The order's lines as they were at checkout, and its totals. */
export function OrderLines({ order }: { order: OrderDetail }) {
  // The coupon code is text people typed: in <bdi>, a long one wraps instead of widening the table.
  const discount = order.coupon_code ? (
    <>
      Discount (<bdi>{order.coupon_code}</bdi>)
    </>
  ) : (
    'Discount'
  );
  const totals: { key: string; label: ReactNode; amount: string }[] = [
    { key: 'subtotal', label: 'Subtotal', amount: money(order.subtotal, order.currency) },
    ...(Number(order.discount_total) > 0
      ? [{ key: 'discount', label: discount, amount: `−${money(order.discount_total, order.currency)}` }]
      : []),
    { key: 'shipping', label: 'Shipping', amount: money(order.shipping_total, order.currency) },
    { key: 'tax', label: 'Tax', amount: money(order.tax_total, order.currency) },
  ];
  return (
    <Paper withBorder p="md" radius="md" mb="md">
      <Title order={2} size="h4" mb="sm">
        Items
      </Title>
      <TableFrame label="Items">
        <Table aria-label="Items">
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
            {totals.map(({ key, label, amount }) => (
              <Table.Tr key={key}>
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
      </TableFrame>
    </Paper>
  );
}
