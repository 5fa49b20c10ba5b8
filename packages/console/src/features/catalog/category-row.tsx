import { ActionIcon, Group, Select, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil, IconTrash } from '@tabler/icons-react';
import { flatten, pathLabel, type Node } from './category-tree';
import { PathText } from './path-text';

export interface CategoryActions {
  /** A category is being moved: the tree's controls wait. */
  busy: boolean;
  reorder: (node: Node, siblings: Node[], step: -1 | 1) => void;
  move: (node: Node, parent: Node | null) => void;
  edit: (node: Node) => void;
  remove: (node: Node) => void;
}

/** One category of the tree: its name and slug, and the controls to order, move, edit and delete it. */
export function CategoryRow({
  node,
  rows,
  paths,
  actions,
}: {
  node: Node;
  rows: Node[];
  /** Each category's path from the top, for the parent picker ("Kitchen › Mugs"). */
  paths: Map<string, string[]>;
  actions: CategoryActions;
}) {
  const siblings = rows.filter((r) => r.parent_public_id === node.parent_public_id);
  const index = siblings.findIndex((s) => s.public_id === node.public_id);
  // A category cannot move under itself or one of its descendants.
  const descendants = new Set(flatten(node.children).map((n) => n.public_id));
  const { busy } = actions;
  return (
    <li role="treeitem" aria-level={node.depth + 1} aria-selected={false} aria-label={node.name}>
      {/* Where the name and the controls do not fit side by side (a phone), the controls wrap under the name. */}
      <Group justify="space-between" py={6} pl={node.depth * 28} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
        <div style={{ minWidth: 0, flex: '1 1 12rem' }}>
          <Text fw={node.depth === 0 ? 600 : 400}>
            <bdi>{node.name}</bdi>
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1}>
            <bdi>/{node.slug}</bdi>
            {node.description ? (
              <>
                {' · '}
                <bdi>{node.description}</bdi>
              </>
            ) : null}
          </Text>
        </div>
        <Group gap={4}>
          <ActionIcon
            variant="subtle"
            aria-label={`Move ${node.name} up`}
            disabled={index === 0 || busy}
            onClick={() => actions.reorder(node, siblings, -1)}
          >
            <IconArrowUp size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            aria-label={`Move ${node.name} down`}
            disabled={index === siblings.length - 1 || busy}
            onClick={() => actions.reorder(node, siblings, 1)}
          >
            <IconArrowDown size={16} />
          </ActionIcon>
          <Select
            size="xs"
            w={{ base: 150, sm: 200 }}
            aria-label={`Parent of ${node.name}`}
            allowDeselect={false}
            disabled={busy}
            value={node.parent_public_id ?? 'root'}
            renderOption={({ option }) => <PathText label={option.label} />}
            data={[
              { value: 'root', label: 'Top level' },
              ...rows
                .filter((r) => r.public_id !== node.public_id && !descendants.has(r.public_id))
                .map((r) => ({ value: r.public_id, label: pathLabel(paths.get(r.public_id) ?? [r.name]) })),
            ]}
            onChange={(value) =>
              value &&
              value !== (node.parent_public_id ?? 'root') &&
              actions.move(node, value === 'root' ? null : (rows.find((r) => r.public_id === value) ?? null))
            }
          />
          <ActionIcon variant="subtle" aria-label={`Edit ${node.name}`} disabled={busy} onClick={() => actions.edit(node)}>
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${node.name}`} onClick={() => actions.remove(node)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      </Group>
    </li>
  );
}
