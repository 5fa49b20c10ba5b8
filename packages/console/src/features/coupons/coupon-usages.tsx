import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { QueryState } from '../../components/QueryState';
import { money, when } from '../../lib/format';
import { couponUsagesQuery } from './api';

/** The orders that used a coupon, a page at a time (the page is in the URL); a cancelled order's use is given back. */
export function CouponUsages({ couponId, code, page }: { couponId: string; code: string; page: number }) {
  const navigate = useNavigate();
  const usages = useQuery(couponUsagesQuery(couponId, { page, limit: 20 }));
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
    { key: 'customer', header: 'Customer', render: (u) => <bdi>{u.user.email}</bdi> },
    { key: 'discount', header: 'Discount', align: 'right', render: (u) => money(u.discount_amount) },
    { key: 'when', header: 'When', render: (u) => when(u.created_at) },
    { key: 'released', header: 'Given back', render: (u) => (u.released ? 'Yes (order cancelled)' : 'No') },
  ];
  return (
    <QueryState query={usages}>
      {(result) => (
        <DataTable
          label={`Orders that used ${code}`}
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
  );
}
