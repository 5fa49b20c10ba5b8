import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { confirmThen } from '../../lib/confirm';
import { openFormModal } from '../../lib/form-modal';
import { notifyError } from '../../lib/notify';
import { notifyUndoable } from '../../lib/undo';
import { everyCategoryQuery, useArrangeCategories, useDeleteCategory } from './categories-api';
import { CategoryForm, NewCategoryForm } from './category-forms';
import { CategoryRow, type CategoryActions } from './category-row';
import { flatten, restoreOrder, swapWithNeighbour, treeOf, withPaths, type Category, type Node } from './category-tree';

export function CategoriesScreen() {
  const categories = useQuery(everyCategoryQuery);
  const arrange = useArrangeCategories();
  const deletion = useDeleteCategory();
  const [busy, setBusy] = useState<string | null>(null);

  const place = (moves: [Category, number][]) =>
    arrange.mutateAsync(moves.map(([sibling, position]) => ({ id: sibling.public_id, place: { position } })));

  /** Swaps a category with its neighbour; Undo puts back the positions they had: a move changes nothing else. */
  const reorder = async (node: Node, siblings: Node[], step: -1 | 1) => {
    const swap = swapWithNeighbour(node, siblings, step);
    if (!swap) return;
    setBusy(node.public_id);
    try {
      await place(swap.moves);
      notifyUndoable(
        <>
          <bdi>{node.name}</bdi> moved {step < 0 ? 'up' : 'down'}
        </>,
        () => place(restoreOrder(siblings, swap.order)),
        <>
          <bdi>{node.name}</bdi> is back in its place
        </>,
      );
    } catch (error) {
      notifyError(error, 'Not moved');
    } finally {
      setBusy(null);
    }
  };

  /** Under another parent (its position is kept); undo moves it back under the one it had. */
  const move = async (node: Node, parent: Node | null) => {
    setBusy(node.public_id);
    const previous = node.parent_public_id;
    const under = (parent_public_id: string | null) => arrange.mutateAsync([{ id: node.public_id, place: { parent_public_id } }]);
    try {
      await under(parent?.public_id ?? null);
      notifyUndoable(
        <>
          <bdi>{node.name}</bdi> moved{' '}
          {parent ? (
            <>
              under <bdi>{parent.name}</bdi>
            </>
          ) : (
            'to the top level'
          )}
        </>,
        () => under(previous),
        <>
          <bdi>{node.name}</bdi> is back where it was
        </>,
      );
    } catch (error) {
      notifyError(error, 'Not moved');
    } finally {
      setBusy(null);
    }
  };

  const remove = (node: Node) =>
    confirmThen({
      title: (
        <>
          Delete <bdi>{node.name}</bdi>?
        </>
      ),
      body: `${node.children.length > 0 ? 'Its subcategories move up to its parent. ' : ''}Products stay in the catalog.`,
      confirm: 'Delete',
      action: () => deletion.mutateAsync(node.public_id),
      done: (
        <>
          <bdi>{node.name}</bdi> deleted
        </>
      ),
      failed: 'Not deleted',
    });

  const actions: CategoryActions = {
    busy: busy !== null,
    reorder: (node, siblings, step) => void reorder(node, siblings, step),
    move: (node, parent) => void move(node, parent),
    edit: (node) =>
      openFormModal({
        title: (
          <>
            Edit <bdi>{node.name}</bdi>
          </>
        ),
        children: <CategoryForm category={node} />,
      }),
    remove,
  };

  return (
    <>
      <PageHeader title="Categories" subtitle="The store's category tree: order siblings and move a category under another" />
      <QueryState query={categories}>
        {(list) => {
          const rows = flatten(treeOf(list));
          const paths = new Map(withPaths(list).map(({ category, path }) => [category.public_id, path]));
          return (
            <Stack>
              <Paper withBorder p="md" radius="md">
                {rows.length === 0 ? <Text c="dimmed">No categories yet.</Text> : null}
                <ul role="tree" aria-label="Category tree" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                  {rows.map((node) => (
                    <CategoryRow key={node.public_id} node={node} rows={rows} paths={paths} actions={actions} />
                  ))}
                </ul>
              </Paper>
              <Paper withBorder p="md" radius="md" maw={640}>
                <Title order={2} size="h4" mb="sm">
                  New category
                </Title>
                <NewCategoryForm parents={rows} paths={paths} />
              </Paper>
            </Stack>
          );
        }}
      </QueryState>
    </>
  );
}
