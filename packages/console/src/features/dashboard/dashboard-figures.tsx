import { Anchor, SimpleGrid, Skeleton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { StatCard } from '../../components/StatCard';
import { count, money } from '../../lib/format';
import type { Stats } from './api';
import { PERIOD_LABELS } from './period-labels';
import type { Period } from './search';

/**
 * The period's figures, each linking to the list behind it. The lists start where the figures do:
 * today since 00:00 UTC (the API's day), a period at its exact start (the last 7 days are now minus
 * 7 × 24 hours, not whole days).
 */
export function DashboardFigures({ stats: data, today, period }: { stats: Stats; today: Stats | undefined; period: Period }) {
  const since = data.from;
  const todayFrom = (today?.from ?? new Date().toISOString()).slice(0, 10);
  const ordersBehind = (label: string, extra: { status?: 'PLACED' } = {}, size = 'sm') => (
    <Anchor
      size={size}
      renderRoot={(props) => (
        <Link {...props} to="/orders" search={period === 'today' ? { from: todayFrom, ...extra } : { since, ...extra }} />
      )}
    >
      {label}
    </Anchor>
  );
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} mb="md">
      <StatCard
        label="Revenue today"
        value={today ? money(today.revenue.net, data.currency) : <Skeleton h={30} w={120} />}
        // Revenue is what the products sold for: order totals also hold shipping and tax, so the two never match.
        hint={
          today
            ? `${count(today.orders.total)} ${today.orders.total === 1 ? 'order' : 'orders'} today · sales before shipping and tax`
            : undefined
        }
        link={
          <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/orders" search={{ from: todayFrom }} />}>
            Today’s orders
          </Anchor>
        }
      />
      <StatCard
        label={`Net revenue · ${PERIOD_LABELS[period]}`}
        value={money(data.revenue.net, data.currency)}
        hint={`Sales before shipping and tax: gross ${money(data.revenue.gross, data.currency)} − discounts ${money(data.revenue.discounts, data.currency)} − cancelled ${money(data.revenue.cancellations, data.currency)}`}
        link={ordersBehind('The orders behind it')}
      />
      <StatCard
        label="Orders"
        value={count(data.orders.total)}
        hint={
          data.orders.by_status.PLACED > 0
            ? ordersBehind(`${count(data.orders.by_status.PLACED)} waiting for confirmation`, { status: 'PLACED' }, 'xs')
            : 'None waiting for confirmation'
        }
        link={ordersBehind('Orders in this period')}
      />
      <StatCard
        label="Average order value"
        value={money(data.average_order_value, data.currency)}
        hint="Net revenue (before shipping and tax) per order not cancelled"
        link={ordersBehind('The orders it averages')}
      />
      <StatCard
        label="New customers"
        value={count(data.new_customers)}
        hint="Signed up in this period"
        link={
          <Anchor
            size="sm"
            renderRoot={(props) => (
              <Link
                {...props}
                to="/customers"
                search={period === 'today' ? { role: 'CUSTOMER', from: todayFrom } : { role: 'CUSTOMER', since }}
              />
            )}
          >
            Customers who joined
          </Anchor>
        }
      />
      <StatCard
        label="Low stock"
        value={count(data.inventory.low_stock)}
        hint="At or below the reorder level"
        link={
          <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/inventory" search={{ stock_status: 'LOW_STOCK' }} />}>
            Low-stock list
          </Anchor>
        }
      />
      <StatCard
        label="Out of stock"
        value={count(data.inventory.out_of_stock)}
        hint="Nothing left to sell"
        link={
          <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/inventory" search={{ stock_status: 'OUT_OF_STOCK' }} />}>
            Out-of-stock list
          </Anchor>
        }
      />
      <StatCard
        label="Pending reviews"
        value={count(data.pending_reviews)}
        hint="Waiting for moderation"
        link={
          <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/reviews" />}>
            Moderation queue
          </Anchor>
        }
      />
    </SimpleGrid>
  );
}
