import { Badge } from '@mantine/core';
import { titleCase } from '../lib/format';

const COLORS: Record<string, string> = {
  PLACED: 'blue',
  CONFIRMED: 'indigo',
  SHIPPED: 'violet',
  FULFILLED: 'teal',
  CANCELLED: 'gray',
  PENDING: 'yellow',
  APPROVED: 'teal',
  REJECTED: 'red',
  IN_STOCK: 'teal',
  LOW_STOCK: 'orange',
  OUT_OF_STOCK: 'red',
  ACTIVE: 'teal',
  DRAFT: 'gray',
  DELETED: 'red',
  ARCHIVED: 'dark',
  SUSPENDED: 'red',
  ACCEPTED: 'teal',
  EXPIRED: 'gray',
  REVOKED: 'red',
  CUSTOMER: 'gray',
  ADMIN: 'indigo',
  SUPER_ADMIN: 'grape',
  PAUSED: 'orange',
  SUCCEEDED: 'teal',
  FAILED: 'red',
};

/** A status as words (colour only repeats what the text says, for people who cannot tell colours apart). */
export function StatusBadge({ status }: { status: string }) {
  const color = COLORS[status] ?? 'gray';
  // Yellow and orange have no shade dark enough for 4.5:1 on their palest: their words are near black.
  const text = color === 'yellow' || color === 'orange' ? 'dark.6' : `${color}.9`;
  // The palest shade behind the darkest text: Mantine's light variant is under 4.5:1 for some colours.
  return (
    // The label never shrinks to an ellipsis ("PLAC…") in a narrow table column: the column wraps others instead.
    <Badge
      color={color}
      variant="light"
      radius="sm"
      bg={`${color}.0`}
      c={text}
      styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible' } }}
    >
      {titleCase(status)}
    </Badge>
  );
}
