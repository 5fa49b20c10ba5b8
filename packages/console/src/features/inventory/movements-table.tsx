import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { QueryState } from '../../components/QueryState';
import { titleCase, when } from '../../lib/format';
import { movementsQuery } from './api';
import { movementChange } from './figures';

/** Every change of a record's stock, newest first, a page at a time (the page is in the URL). */
export function MovementsTable({ variantId, page }: { variantId: string; page: number }) {
  const navigate = useNavigate({ from: '/inventory/$variantId' });
  const movements = useQuery(movementsQuery(variantId, { page, limit: 20 }));
  type MovementRow = NonNullable<typeof movements.data>['data'][number];
  const columns: Column<MovementRow>[] = [
    { key: 'when', header: 'When', render: (m) => when(m.created_at) },
    { key: 'kind', header: 'What', render: (m) => titleCase(m.kind) },
    { key: 'change', header: 'Change', render: (m) => movementChange(m) },
    {
      key: 'why',
      header: 'Reason',
      render: (m) =>
        m.order_public_id ? (
          <Anchor renderRoot={(props) => <Link {...props} to="/orders/$orderId" params={{ orderId: m.order_public_id! }} />}>Order</Anchor>
        ) : m.reason ? (
          <bdi>{m.reason}</bdi>
        ) : (
          '—'
        ),
    },
    { key: 'by', header: 'By', render: (m) => (m.actor ? <bdi>{m.actor.email}</bdi> : 'System') },
  ];
  return (
    <QueryState query={movements}>
      {(result) => (
        <DataTable
          label="Stock movements"
          columns={columns}
          rows={result.data}
          rowKey={(m) => `${m.created_at}-${m.kind}-${m.quantity_on_hand_after}-${m.quantity_reserved_after}`}
          meta={result.meta}
          loading={movements.isFetching}
          onPage={(p) => void navigate({ search: { page: p } })}
          empty={<Text>No movements yet.</Text>}
        />
      )}
    </QueryState>
  );
}
