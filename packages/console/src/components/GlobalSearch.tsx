import { Anchor, Loader, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { storeSearchQuery } from '../api/search';
import { describe } from '../lib/errors';
import { count } from '../lib/format';

type Results = Awaited<ReturnType<NonNullable<ReturnType<typeof storeSearchQuery>['queryFn']>>>;

function Group({ title, total, more, children }: { title: string; total: number; more: ReactNode; children: ReactNode }) {
  if (total === 0) return null;
  return (
    <div role="group" aria-label={title}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={2}>
        {title} ({count(total)})
      </Text>
      <Stack gap={2}>{children}</Stack>
      {total > 5 ? <div>{more}</div> : null}
    </div>
  );
}

/**
 * The header's search: an order number, a SKU, an email or a product's whole name goes straight to
 * that order, product or account; any other text (part of a name or an email) lists what it finds,
 * a few of each kind, with a way to the full list.
 */
export function GlobalSearch() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [results, setResults] = useState<{ q: string; data: Results } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setResults(null);
    setFailure(null);
  };
  const go = async () => {
    const q = text.trim();
    if (!q) return;
    setBusy(true);
    setFailure(null);
    try {
      const data = await queryClient.fetchQuery(storeSearchQuery(q));
      const exact = data.exact;
      if (exact) {
        close();
        setText('');
        if (exact.kind === 'order') await navigate({ to: '/orders/$orderId', params: { orderId: exact.public_id } });
        else if (exact.kind === 'variant') await navigate({ to: '/products/$productId', params: { productId: exact.product_public_id } });
        else if (exact.kind === 'product') await navigate({ to: '/products/$productId', params: { productId: exact.public_id } });
        else await navigate({ to: '/customers/$userId', params: { userId: exact.public_id } });
        return;
      }
      setResults({ q, data });
    } catch (error) {
      setResults(null);
      setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };

  const found = results?.data;
  const nothing = found && found.orders.total + found.products.total + found.users.total === 0;
  const picked = () => {
    close();
    setText('');
  };
  return (
    <Popover
      opened={Boolean(results || failure)}
      onChange={(opened) => !opened && close()}
      position="bottom-start"
      width={420}
      shadow="md"
      trapFocus={false}
      // Its own role and name below: Mantine's would make it a dialog named by the typed text.
      withRoles={false}
    >
      <Popover.Target>
        <TextInput
          type="search"
          aria-label="Search the store"
          placeholder="Order, SKU, email or product"
          leftSection={busy ? <Loader size={14} /> : <IconSearch size={16} aria-hidden />}
          value={text}
          maxLength={200}
          w={{ base: 160, xs: 200, sm: 320 }}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (results) close();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void go();
            if (event.key === 'Escape') close();
          }}
        />
      </Popover.Target>
      <Popover.Dropdown aria-label="Search results" role="region">
        {failure ? (
          <Text size="sm" c="red.8" role="alert">
            {failure}
          </Text>
        ) : nothing ? (
          <Text size="sm" role="status">
            Nothing found for “<bdi>{results?.q}</bdi>”.
          </Text>
        ) : found && results ? (
          <Stack gap="sm">
            <Group
              title="Orders"
              total={found.orders.total}
              more={
                <Anchor size="xs" renderRoot={(props) => <Link {...props} to="/orders" search={{ q: results.q }} onClick={picked} />}>
                  All {count(found.orders.total)} orders
                </Anchor>
              }
            >
              {found.orders.data.map((order) => (
                <Anchor
                  key={order.public_id}
                  size="sm"
                  renderRoot={(props) => <Link {...props} to="/orders/$orderId" params={{ orderId: order.public_id }} onClick={picked} />}
                >
                  {order.order_number} · <bdi>{order.customer.email}</bdi>
                </Anchor>
              ))}
            </Group>
            <Group
              title="Products"
              total={found.products.total}
              more={
                <Anchor size="xs" renderRoot={(props) => <Link {...props} to="/products" search={{ q: results.q }} onClick={picked} />}>
                  All {count(found.products.total)} products
                </Anchor>
              }
            >
              {found.products.data.map((product) => (
                <Anchor
                  key={product.public_id}
                  size="sm"
                  renderRoot={(props) => (
                    <Link {...props} to="/products/$productId" params={{ productId: product.public_id }} onClick={picked} />
                  )}
                >
                  <bdi>{product.name}</bdi>
                </Anchor>
              ))}
            </Group>
            <Group
              title="Accounts"
              total={found.users.total}
              more={
                <Anchor size="xs" renderRoot={(props) => <Link {...props} to="/customers" search={{ q: results.q }} onClick={picked} />}>
                  All {count(found.users.total)} accounts
                </Anchor>
              }
            >
              {found.users.data.map((user) => (
                <Anchor
                  key={user.public_id}
                  size="sm"
                  renderRoot={(props) => <Link {...props} to="/customers/$userId" params={{ userId: user.public_id }} onClick={picked} />}
                >
                  <bdi>{user.first_name}</bdi> <bdi>{user.last_name}</bdi> · <bdi>{user.email}</bdi>
                </Anchor>
              ))}
            </Group>
          </Stack>
        ) : null}
      </Popover.Dropdown>
    </Popover>
  );
}
