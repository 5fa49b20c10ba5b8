import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { count, money } from '../../lib/format';
import type { Stats } from './api';

/** The period's best sellers by units, each linking to its product. */
export function TopProducts({ stats }: { stats: Stats }) {
  return (
    <Paper withBorder p="md" radius="md" h="100%">
      <Title order={2} size="h4" mb="sm">
        Top products
      </Title>
      {stats.top_products.length === 0 ? (
        <Text c="dimmed" size="sm">
          No sales in this period yet.
        </Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Product</Table.Th>
              <Table.Th ta="right">Units</Table.Th>
              <Table.Th ta="right">Revenue</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stats.top_products.map((product) => (
              <Table.Tr key={product.product_public_id}>
                <Table.Td>
                  <Anchor
                    size="sm"
                    renderRoot={(props) => <Link {...props} to="/products/$productId" params={{ productId: product.product_public_id }} />}
                  >
                    <bdi>{product.name}</bdi>
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">{count(product.units)}</Table.Td>
                <Table.Td ta="right">{money(product.revenue, stats.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
