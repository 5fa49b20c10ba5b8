import { Anchor, Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { confirmThen } from '../../lib/confirm';
import { count } from '../../lib/format';
import { notifyDone, notifyError } from '../../lib/notify';
import { notifyUndoable } from '../../lib/undo';
import { couponQuery, useCreateCoupon, useDeleteCoupon, useUpdateCoupon } from './api';
import { CouponForm } from './coupon-form';
import { CouponUsages } from './coupon-usages';

/**
 * "Used 0 times", "Used 3 of 10 times": one string, since a Mantine Group drops falsy children and
 * so a bare {0} among them.
 */
function usedTimes(used: number, limit: number | null): string {
  const last = limit ?? used;
  return `Used ${count(used)}${limit === null ? '' : ` of ${count(limit)}`} ${last === 1 ? 'time' : 'times'}`;
}

export function NewCouponScreen() {
  const navigate = useNavigate();
  const create = useCreateCoupon();
  return (
    <>
      <PageHeader title="New coupon" />
      <Paper withBorder p="md" radius="md" maw={820}>
        <CouponForm
          initial={null}
          submitLabel="Create coupon"
          onSubmit={async (body) => {
            const created = await create.mutateAsync(body);
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
  const coupon = useQuery(couponQuery(couponId));
  const settings = useUpdateCoupon(couponId);
  // Its own instance, so only switching shows on the Switch button.
  const switching = useUpdateCoupon(couponId);
  const deletion = useDeleteCoupon(couponId);

  /**
   * Switching a coupon off or on applies at once, with Undo: the API reverses it exactly (is_active
   * only; nothing else changes). Deleting keeps its confirmation: there is no way back from it.
   */
  const toggle = async (active: boolean) => {
    try {
      const updated = await switching.mutateAsync({ is_active: active });
      notifyUndoable(
        updated.is_active ? `${updated.code} is on: checkout accepts it again` : `${updated.code} is off: checkout refuses it`,
        () => settings.mutateAsync({ is_active: !updated.is_active }),
        `${updated.code} is ${updated.is_active ? 'off' : 'on'} again`,
      );
    } catch (error) {
      notifyError(error, 'Not changed');
    }
  };
  const remove = (code: string) =>
    confirmThen({
      title: `Delete ${code}?`,
      body: 'Customers can no longer use it; orders that used it keep their discount and the history stays.',
      confirm: 'Delete',
      action: () => deletion.mutateAsync(),
      done: 'Coupon deleted; its usage history stays',
      failed: 'Not deleted',
      after: () => navigate({ to: '/coupons' }),
    });

  return (
    <QueryState
      query={coupon}
      screen="Coupon"
      back={
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/coupons" />}>
          ← All coupons
        </Anchor>
      }
    >
      {(c) => (
        <>
          <PageHeader
            title={
              <>
                Coupon <bdi>{c.code}</bdi>
              </>
            }
            tabTitle={`Coupon ${c.code}`}
            subtitle={
              <Group gap="xs" component="span">
                <StatusBadge status={c.status} />
                <span>{usedTimes(c.times_used, c.usage_limit)}</span>
              </Group>
            }
            actions={
              <>
                <Button variant="default" loading={switching.isPending} onClick={() => void toggle(!c.is_active)}>
                  {c.is_active ? 'Switch off' : 'Switch on'}
                </Button>
                <Button color="red" variant="light" onClick={() => remove(c.code)}>
                  Delete
                </Button>
              </>
            }
          />
          <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/coupons" />}>
            ← All coupons
          </Anchor>
          {/* Stacked: the usage table needs the whole width for every column to be in view. */}
          <Stack gap="md">
            <Paper withBorder p="md" radius="md" maw={900}>
              <Title order={2} size="h4" mb="sm">
                Settings
              </Title>
              <CouponForm
                key={c.updated_at}
                initial={c}
                submitLabel="Save coupon"
                onSubmit={async (body) => {
                  const updated = await settings.mutateAsync(body);
                  notifyDone(`Coupon ${updated.code} saved`);
                }}
              />
            </Paper>
            <Paper withBorder p="md" radius="md">
              <Title order={2} size="h4" mb="sm">
                Usage
              </Title>
              <CouponUsages couponId={couponId} code={c.code} page={search.page ?? 1} />
            </Paper>
          </Stack>
        </>
      )}
    </QueryState>
  );
}
