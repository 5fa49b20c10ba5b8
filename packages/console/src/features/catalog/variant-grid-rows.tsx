import { ActionIcon, NumberInput, Table, TextInput, VisuallyHidden } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconX } from '@tabler/icons-react';
import { TableFrame } from '../../components/TableFrame';
import type { GridValues } from './variant-grid-rules';
import { comboName } from './variant-grid-rules';

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
            <Table.Th>Price</Table.Th>
            <Table.Th>Compare-at</Table.Th>
            <Table.Th>Cost</Table.Th>
            <Table.Th>Stock</Table.Th>
            <Table.Th>Reorder at</Table.Th>
            <Table.Th>
              <VisuallyHidden>Leave out</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const label = (field: string) => `${field} of ${comboName(row.options)}`;
            return (
              <Table.Tr key={JSON.stringify(row.options)}>
                <Table.Td>
                  <TextInput size="xs" aria-label={label('Name')} {...form.getInputProps(`rows.${index}.name`)} />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" aria-label={label('SKU')} {...form.getInputProps(`rows.${index}.sku`)} />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" aria-label={label('Price')} inputMode="decimal" {...form.getInputProps(`rows.${index}.price`)} />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    size="xs"
                    aria-label={label('Compare-at price')}
                    inputMode="decimal"
                    {...form.getInputProps(`rows.${index}.compare_at_price`)}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" aria-label={label('Cost')} inputMode="decimal" {...form.getInputProps(`rows.${index}.cost_price`)} />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" aria-label={label('Stock')} inputMode="numeric" {...form.getInputProps(`rows.${index}.stock`)} />
                </Table.Td>
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
