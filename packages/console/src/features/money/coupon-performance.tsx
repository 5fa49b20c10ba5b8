import { Anchor, Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { QueryState } from '../../components/QueryState';
import { count, money } from '../../lib/format';
import { couponReportQuery } from './api';

/** What each coupon gave and brought, a page at a time (`coupon_page` in the URL). */
export function CouponPerformance({ page, currency }: { page: number; currency: string | undefined }) {
  const navigate = useNavigate({ from: '/money' });
  const coupons = useQuery(couponReportQuery({ page, limit: 10 }));
  type CouponRow = NonNullable<typeof coupons.data>['data'][number];
  const columns: Column<CouponRow>[] = [
    {
      key: 'code',
      header: 'Code',
      render: (c) => (
        <Anchor
          ff="monospace"
          renderRoot={(props) => <Link {...props} to="/coupons/$couponId" params={{ couponId: c.coupon_public_id }} />}
        >
          {c.code}
        </Anchor>
      ),
    },
    { key: 'uses', header: 'Uses', align: 'right', render: (c) => count(c.uses) },
    { key: 'discount', header: 'Discount given', align: 'right', render: (c) => money(c.discount_given, currency) },
    { key: 'revenue', header: 'Order totals', align: 'right', render: (c) => money(c.revenue, currency) },
  ];
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4">
        Coupons
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        Order totals are what the orders that used a code came to, shipping included, cancelled ones left out.
      </Text>
      <QueryState query={coupons}>
        {(result) => (
          <DataTable
            label="Coupon performance"
            columns={columns}
            rows={result.data}
            rowKey={(c) => c.coupon_public_id}
            meta={result.meta}
            loading={coupons.isFetching}
            minWidth={0}
            onPage={(p) => void navigate({ search: (s) => ({ ...s, coupon_page: p }) })}
            empty={
              <Text c="dimmed" size="sm">
                No coupons yet.
              </Text>
            }
          />
        )}
      </QueryState>
    </Paper>
  );
}
