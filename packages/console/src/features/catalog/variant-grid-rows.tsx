import { ActionIcon, NumberInput, Table, TextInput, VisuallyHidden } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconX } from '@tabler/icons-react';
import { TableFrame } from '../../components/TableFrame';
import type { GridValues } from './variant-grid-rules';
import { comboName } from './variant-grid-rules';

/**
 * Column widths: a SKU or name of some 20 characters is read whole (180 px at least; they share the
 * rest of the width), while an amount or a count needs less (the number columns are 96 px).
 */
const WORDS_MIN_WIDTH = 180;
const NUMBER_WIDTH = 96;

/** The row's text fields in column order: the field, its name in the row's labels, the keyboard a phone shows. */
const TEXT_CELLS = [
  ['name', 'Name', null],
  ['sku', 'SKU', null],
  ['price', 'Price', 'decimal'],
  ['compare_at_price', 'Compare-at price', 'decimal'],
  ['cost_price', 'Cost', 'decimal'],
  ['stock', 'Stock', 'numeric'],
] as const;

/** The grid's rows, one per combination, each field editable and the row droppable before they are added. */
export function VariantGridRows({ form }: { form: UseFormReturnType<GridValues> }) {
  const rows = form.values.rows;
  return (
    <TableFrame label="New variants" minWidth={900}>
      <Table aria-label="New variants">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Variant</Table.Th>
            <Table.Th>SKU</Table.Th>
            <Table.Th w={NUMBER_WIDTH}>Price</Table.Th>
            <Table.Th w={NUMBER_WIDTH}>Compare-at</Table.Th>
            <Table.Th w={NUMBER_WIDTH}>Cost</Table.Th>
            <Table.Th w={NUMBER_WIDTH}>Stock</Table.Th>
            <Table.Th w={NUMBER_WIDTH}>Reorder at</Table.Th>
            <Table.Th w={44}>
              <VisuallyHidden>Leave out</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const label = (field: string) => `${field} of ${comboName(row.options)}`;
            return (
              <Table.Tr key={JSON.stringify(row.options)}>
                {TEXT_CELLS.map(([field, name, inputMode]) => (
                  <Table.Td key={field}>
                    <TextInput
                      size="xs"
                      aria-label={label(name)}
                      {...(inputMode ? { inputMode } : { miw: WORDS_MIN_WIDTH })}
                      {...form.getInputProps(`rows.${index}.${field}`)}
                    />
                  </Table.Td>
                ))}
                <Table.Td>
                  <NumberInput
                    size="xs"
                    aria-label={label('Reorder level')}
                    allowDecimal={false}
                    allowNegative={false}
                    {...form.getInputProps(`rows.${index}.reorder_level`)}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Leave out ${comboName(row.options)}`}
                    onClick={() => form.removeListItem('rows', index)}
                  >
                    <IconX size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </TableFrame>
  );
}
