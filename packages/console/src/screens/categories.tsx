import { ActionIcon, Button, Group, Paper, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconArrowDown, IconArrowUp, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { FormErrors, ModalFormFooter } from '../components/FormErrors';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { notifyDone, notifyError, placeErrors } from '../lib/errors';
import { notifyUndoable } from '../lib/undo';
import { allCategoriesQuery } from '../queries/categories';

interface Category {
  public_id: string;
  name: string;
  slug: string;
  description: string | null;
  parent_public_id: string | null;
  position: number;
}

interface Node extends Category {
  children: Node[];
  depth: number;
}

const byPosition = (a: Category, b: Category) => a.position - b.position || a.name.localeCompare(b.name);

/** The flat list the API returns as a tree, siblings in their display order. */
function treeOf(categories: Category[]): Node[] {
  const build = (parent: string | null, depth: number): Node[] =>
    categories
      .filter((c) => c.parent_public_id === parent)
      .sort(byPosition)
      .map((c) => ({ ...c, depth, children: build(c.public_id, depth + 1) }));
  return build(null, 0);
}

const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

export function CategoriesScreen() {
  const queryClient = useQueryClient();
  const categories = useQuery(allCategoriesQuery);
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['categories'] });

  const patch = (id: string, body: { parent_public_id?: string | null; position?: number }) =>
    api.PATCH('/api/v1/admin/categories/{category_public_id}', { params: { path: { category_public_id: id } }, body });

  /** Gives each sibling its position; only the ones that change are sent. */
  const place = async (positions: [Node, number][]) => {
    for (const [sibling, position] of positions) if (sibling.position !== position) await patch(sibling.public_id, { position });
  };

  /**
   * Swaps a category with its neighbour by renumbering the siblings, so equal positions never tie.
   * Undo puts back the positions they had: a move changes nothing else.
   */
  const reorder = async (node: Node, siblings: Node[], step: -1 | 1) => {
    const order = [...siblings];
    const index = order.findIndex((s) => s.public_id === node.public_id);
    const target = index + step;
    if (target < 0 || target >= order.length) return;
    [order[index], order[target]] = [order[target]!, order[index]!];
    setBusy(node.public_id);
    try {
      await place(order.map((sibling, position) => [sibling, position * 10]));
      await refresh();
      notifyUndoable(
        `${node.name} moved ${step < 0 ? 'up' : 'down'}`,
        async () => {
          // Each sibling from where the move put it back to the position it had before.
          await place(siblings.map((sibling) => [{ ...sibling, position: order.indexOf(sibling) * 10 }, sibling.position]));
          await refresh();
        },
        `${node.name} is back in its place`,
      );
    } catch (error) {
      notifyError(error, 'Not moved');
      void refresh();
    } finally {
      setBusy(null);
    }
  };

  /** Under another parent (its position is kept); undo moves it back under the one it had. */
  const move = async (node: Node, parent: Node | null) => {
    setBusy(node.public_id);
    const previous = node.parent_public_id;
    try {
      await patch(node.public_id, { parent_public_id: parent?.public_id ?? null });
      await refresh();
      notifyUndoable(
        `${node.name} moved ${parent ? `under ${parent.name}` : 'to the top level'}`,
        async () => {
          await patch(node.public_id, { parent_public_id: previous });
          await refresh();
        },
        `${node.name} is back where it was`,
      );
    } catch (error) {
      notifyError(error, 'Not moved');
    } finally {
      setBusy(null);
    }
  };

  const edit = (node: Node) =>
    modals.open({ title: `Edit ${node.name}`, children: <CategoryForm category={node} onDone={() => void refresh()} /> });

  const remove = (node: Node) =>
    modals.openConfirmModal({
      title: `Delete ${node.name}?`,
      children: (
        <Text size="sm">{node.children.length > 0 ? 'Its subcategories move up to its parent. ' : ''}Products stay in the catalog.</Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void (async () => {
          try {
            await api.DELETE('/api/v1/admin/categories/{category_public_id}', { params: { path: { category_public_id: node.public_id } } });
            await refresh();
            notifyDone(`${node.name} deleted`);
          } catch (error) {
            notifyError(error, 'Not deleted');
          }
        })(),
    });

  return (
    <>
      <PageHeader title="Categories" subtitle="The store's category tree: order siblings and move a category under another" />
      <QueryState query={categories}>
        {(list) => {
          const tree = treeOf(list);
          const rows = flatten(tree);
          const descendantsOf = (node: Node): Set<string> => new Set(flatten(node.children).map((n) => n.public_id));
          const siblingsOf = (node: Node) => rows.filter((r) => r.parent_public_id === node.parent_public_id);
          return (
            <Stack>
              <Paper withBorder p="md" radius="md">
                {rows.length === 0 ? <Text c="dimmed">No categories yet.</Text> : null}
                <ul role="tree" aria-label="Category tree" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                  {rows.map((node) => {
                    const siblings = siblingsOf(node);
                    const index = siblings.findIndex((s) => s.public_id === node.public_id);
                    const excluded = descendantsOf(node);
                    return (
                      <li key={node.public_id} role="treeitem" aria-level={node.depth + 1} aria-selected={false} aria-label={node.name}>
                        <Group
                          justify="space-between"
                          py={6}
                          pl={node.depth * 28}
                          wrap="nowrap"
                          style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                        >
                          <div>
                            <Text fw={node.depth === 0 ? 600 : 400}>{node.name}</Text>
                            <Text size="xs" c="dimmed" lineClamp={1}>
                              /{node.slug}
                              {node.description ? ` · ${node.description}` : ''}
                            </Text>
                          </div>
                          <Group gap={4} wrap="nowrap">
                            <ActionIcon
                              variant="subtle"
                              aria-label={`Move ${node.name} up`}
                              disabled={index === 0 || busy !== null}
                              onClick={() => void reorder(node, siblings, -1)}
                            >
                              <IconArrowUp size={16} />
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              aria-label={`Move ${node.name} down`}
                              disabled={index === siblings.length - 1 || busy !== null}
                              onClick={() => void reorder(node, siblings, 1)}
                            >
                              <IconArrowDown size={16} />
                            </ActionIcon>
                            <Select
                              size="xs"
                              w={200}
                              aria-label={`Parent of ${node.name}`}
                              allowDeselect={false}
                              disabled={busy !== null}
                              value={node.parent_public_id ?? 'root'}
                              data={[
                                { value: 'root', label: 'Top level' },
                                ...rows
                                  .filter((r) => r.public_id !== node.public_id && !excluded.has(r.public_id))
                                  .map((r) => ({ value: r.public_id, label: `${'— '.repeat(r.depth)}${r.name}` })),
                              ]}
                              onChange={(value) =>
                                value &&
                                value !== (node.parent_public_id ?? 'root') &&
                                void move(node, value === 'root' ? null : (rows.find((r) => r.public_id === value) ?? null))
                              }
                            />
                            <ActionIcon
                              variant="subtle"
                              aria-label={`Edit ${node.name}`}
                              disabled={busy !== null}
                              onClick={() => edit(node)}
                            >
                              <IconPencil size={16} />
                            </ActionIcon>
                            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${node.name}`} onClick={() => remove(node)}>
                              <IconTrash size={16} />
                            </ActionIcon>
                          </Group>
                        </Group>
                      </li>
                    );
                  })}
                </ul>
              </Paper>
              <Paper withBorder p="md" radius="md" maw={640}>
                <Title order={2} size="h4" mb="sm">
                  New category
                </Title>
                <NewCategoryForm parents={rows} onDone={() => void refresh()} />
              </Paper>
            </Stack>
          );
        }}
      </QueryState>
    </>
  );
}

function NewCategoryForm({ parents, onDone }: { parents: Node[]; onDone: () => void }) {
  const form = useForm({
    initialValues: { name: '', parent: 'root' },
    validate: { name: (v) => (v.trim() === '' ? 'Name the category' : v.length > 100 ? 'At most 100 characters' : null) },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await api.POST('/api/v1/admin/categories', {
            body: { name: values.name.trim(), parent_public_id: values.parent === 'root' ? null : values.parent },
          });
          form.reset();
          onDone();
          notifyDone(`${values.name.trim()} created`);
        } catch (error) {
          form.setErrors(placeErrors(error, { inputs: ['name', 'parent'], rename: (f) => (f === 'parent_public_id' ? 'parent' : f) }));
        }
      })}
    >
      <Stack>
        <Group align="flex-end">
          <TextInput label="Name" required maxLength={100} {...form.getInputProps('name')} />
          <Select
            label="Under"
            allowDeselect={false}
            data={[
              { value: 'root', label: 'Top level' },
              ...parents.map((p) => ({ value: p.public_id, label: `${'— '.repeat(p.depth)}${p.name}` })),
            ]}
            {...form.getInputProps('parent')}
          />
          <Button type="submit" loading={form.submitting}>
            Create category
          </Button>
        </Group>
        <FormErrors form={form} title="Not created" />
      </Stack>
    </form>
  );
}

/** Name, slug and description of a category; its place in the tree is changed in the tree itself. */
function CategoryForm({ category, onDone }: { category: Category; onDone: () => void }) {
  const form = useForm({
    initialValues: { name: category.name, slug: category.slug, description: category.description ?? '' },
    validate: {
      name: (v) => (v.trim() === '' ? 'Name the category' : v.length > 100 ? 'At most 100 characters' : null),
      slug: (v) => (/^[a-z0-9]+(-[a-z0-9]+)*$/.test(v) && v.length <= 120 ? null : 'Lower-case letters, digits and single dashes'),
      description: (v) => (v.length > 2000 ? 'At most 2,000 characters' : null),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await api.PATCH('/api/v1/admin/categories/{category_public_id}', {
            params: { path: { category_public_id: category.public_id } },
            body: { name: values.name.trim(), slug: values.slug, description: values.description.trim() || null },
          });
          modals.closeAll();
          onDone();
          notifyDone(`${values.name.trim()} saved`);
        } catch (error) {
          form.setErrors(placeErrors(error, { inputs: ['name', 'slug', 'description'], codes: { SLUG_TAKEN: 'slug' } }));
        }
      })}
    >
      <Stack>
        <TextInput label="Name" required maxLength={100} data-autofocus {...form.getInputProps('name')} />
        <TextInput
          label="Slug"
          required
          description="The category's address in the store; links to the old one stop working"
          maxLength={120}
          {...form.getInputProps('slug')}
        />
        <Textarea label="Description" autosize minRows={2} maxLength={2000} {...form.getInputProps('description')} />
        <ModalFormFooter form={form} submit="Save category" />
      </Stack>
    </form>
  );
}
