import { Anchor, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../lib/format';
import { orderQuery } from './api';
import { OrderLines } from './order-lines';
import { OrderHistory, Payment, ShipTo } from './order-panels';
import { OrderSteps } from './order-steps';

export function OrderScreen() {
  const { orderId } = useParams({ from: '/staff/orders/$orderId' });
  const order = useQuery(orderQuery(orderId));
  return (
    <QueryState
      query={order}
      screen="Order"
      back={
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/orders" />}>
          ← All orders
        </Anchor>
      }
    >
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
                  <bdi>{data.customer.email}</bdi>
                </Anchor>
              </Group>
            }
            actions={<OrderSteps order={data} />}
          />
          <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/orders" />}>
            ← All orders
          </Anchor>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <OrderLines order={data} />
              {data.notes ? (
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="xs">
                    Customer’s note
                  </Title>
                  <Text style={{ whiteSpace: 'pre-wrap' }}>
                    <bdi>{data.notes}</bdi>
                  </Text>
                </Paper>
              ) : null}
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Stack>
                <ShipTo order={data} />
                <Payment order={data} />
                <OrderHistory order={data} />
              </Stack>
            </Grid.Col>
          </Grid>
        </>
      )}
    </QueryState>
  );
}
