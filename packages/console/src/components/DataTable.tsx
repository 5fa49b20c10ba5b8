import { Checkbox, Group, Pagination, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { count } from '../lib/format';
import classes from './DataTable.module.css';
import { TableFrame } from './TableFrame';

export interface Column<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  /** The API's sort key for this column, when the server can sort by it. */
  sort?: string;
  align?: 'left' | 'right';
  /** Keeps the cell on one line (an order number, an amount): the other columns wrap instead. */
  nowrap?: boolean;
}

export interface Selection<Row> {
  selected: ReadonlySet<string>;
  onChange: (selected: ReadonlySet<string>) => void;
  /** The row's name for its checkbox ("Select Oak tray"). */
  name: (row: Row) => string;
}

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

interface DataTableProps<Row> {
  /** Names the table for screen readers. */
  label: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string;
  meta?: PageMeta | undefined;
  loading?: boolean;
  empty: ReactNode;
  /** The current sort as the API takes it: `field` ascending, `-field` descending. */
  sort?: string | undefined;
  onSort?: (sort: string) => void;
  onPage?: (page: number) => void;
  /** Rows can be picked for a bulk action: the keys picked, and how to name a row for its checkbox. */
  selection?: Selection<Row> | undefined;
  /** On tablets and phones the table keeps this width and scrolls sideways (default 640 px); from 1200 px it fits its card. */
  minWidth?: number;
}

/**
 * A server-side table: the rows are one page, sorting and paging go back to the API through the URL.
 * While the next page loads the previous one stays visible, dimmed, so nothing jumps.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  meta,
  loading,
  empty,
  sort,
  onSort,
  onPage,
  selection,
  minWidth = 640,
}: DataTableProps<Row>) {
  const keys = rows?.map(rowKey) ?? [];
  const picked = selection ? keys.filter((key) => selection.selected.has(key)).length : 0;
  const pick = (key: string, on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (on) next.add(key);
    else next.delete(key);
    selection.onChange(next);
  };
  const active = sort?.replace(/^-/, '');
  const descending = sort?.startsWith('-') ?? false;

  const header = (column: Column<Row>) => {
    if (!column.sort || !onSort) return column.header;
    const isActive = active === column.sort;
    const next = isActive && !descending ? `-${column.sort}` : column.sort;
    const Icon = isActive ? (descending ? IconArrowDown : IconArrowUp) : IconSelector;
    return (
      <UnstyledButton onClick={() => onSort(next)} className={classes.sortButton}>
        <Group gap={4} wrap="nowrap" justify={column.align === 'right' ? 'flex-end' : 'flex-start'}>
          <span>{column.header}</span>
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    );
  };

  return (
    <div>
      <TableFrame label={label} minWidth={minWidth}>
        <Table className={classes.table} data-loading={loading || undefined} aria-busy={loading || undefined}>
          <VisuallyHidden component="caption">{label}</VisuallyHidden>
          <Table.Thead>
            <Table.Tr>
              {selection ? (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select every row on this page"
                    disabled={keys.length === 0}
                    checked={keys.length > 0 && picked === keys.length}
                    indeterminate={picked > 0 && picked < keys.length}
                    onChange={(event) =>
                      selection.onChange(event.currentTarget.checked ? new Set([...selection.selected, ...keys]) : new Set())
                    }
                  />
                </Table.Th>
              ) : null}
              {columns.map((column) => (
                <Table.Th
                  key={column.key}
                  ta={column.align ?? 'left'}
                  aria-sort={column.sort && active === column.sort ? (descending ? 'descending' : 'ascending') : undefined}
                >
                  {header(column)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows?.map((row) => (
              <Table.Tr key={rowKey(row)} bg={selection?.selected.has(rowKey(row)) ? 'var(--mantine-primary-color-light)' : undefined}>
                {selection ? (
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${selection.name(row)}`}
                      checked={selection.selected.has(rowKey(row))}
                      onChange={(event) => pick(rowKey(row), event.currentTarget.checked)}
                    />
                  </Table.Td>
                ) : null}
                {columns.map((column) => (
                  <Table.Td key={column.key} ta={column.align ?? 'left'} style={column.nowrap ? { whiteSpace: 'nowrap' } : undefined}>
                    {column.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableFrame>
      {rows && rows.length === 0 && !loading ? <div className={classes.empty}>{empty}</div> : null}
      {!rows && loading ? (
        <Text c="dimmed" ta="center" py="lg" aria-live="polite">
          Loading…
        </Text>
      ) : null}
      {meta && meta.total > 0 ? (
        <Group justify="space-between" mt="sm" wrap="wrap">
          <Text size="sm" c="dimmed" aria-live="polite">
            {count((meta.page - 1) * meta.limit + 1)}–{count(Math.min(meta.page * meta.limit, meta.total))} of {count(meta.total)}
          </Text>
          {meta.totalPages > 1 && onPage ? (
            <Pagination
              total={meta.totalPages}
              value={meta.page}
              onChange={onPage}
              size="sm"
              siblings={1}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
            />
          ) : null}
        </Group>
      ) : null}
    </div>
  );
}
