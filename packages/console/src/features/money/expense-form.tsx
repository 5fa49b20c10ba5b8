import { Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { EXPENSE_CATEGORIES, type ExpenseCategory } from '../../api/domain';
import { ModalFormFooter } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { openFormModal } from '../../lib/form-modal';
import { LeaveGuard } from '../../lib/leave-guard';
import { money, titleCase, utcDay } from '../../lib/format';
import { notifyDone } from '../../lib/notify';
import { oneOf } from '../../lib/search';
import { useSaveExpense, type ExpenseBody } from './api';
import { submitWith } from '../../lib/form-submit';

interface ExpenseValues {
  description: string;
  category: ExpenseCategory;
  amount: string;
  spent_at: string;
}

/**
 * An expense category as people read it. SHIPPING is what couriers cost the store: "Shipping costs",
 * so it is not taken for the shipping customers pay, which the P&L counts as income.
 */
export const categoryLabel = (category: string) => (category === 'SHIPPING' ? 'Shipping costs' : titleCase(category));

/** An expense as the list gives it (its category a plain string there). */
export interface Expense {
  public_id: string;
  description: string;
  category: string;
  amount: string;
  spent_at: string;
}

/** Records an expense, or edits `expense`, in a modal. */
export function openExpenseForm(expense?: Expense): void {
  openFormModal({ title: expense ? 'Edit expense' : 'Record an expense', children: <ExpenseForm expense={expense} /> });
}

/** The API's refusal goes next to the inputs it names, the rest above the buttons. */
function ExpenseForm({ expense }: { expense: Expense | undefined }) {
  const save = useSaveExpense();
  const form = useForm<ExpenseValues>({
    initialValues: expense
      ? {
          description: expense.description,
          category: oneOf(expense.category, EXPENSE_CATEGORIES) ?? 'OTHER',
          amount: expense.amount,
          spent_at: expense.spent_at,
        }
      : { description: '', category: 'OTHER', amount: '', spent_at: utcDay() },
    validate: {
      description: (value) => (value.trim() === '' ? 'Describe the expense' : value.length > 500 ? 'At most 500 characters' : null),
      amount: (value) => (!/^\d{1,10}(\.\d{1,2})?$/.test(value.trim()) || Number(value) <= 0 ? 'An amount above zero, like 49.90' : null),
      spent_at: (value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? null : 'Pick the day it was spent'),
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        const body: ExpenseBody = { ...values, description: values.description.trim(), amount: values.amount.trim() };
        try {
          await save.mutateAsync({ id: expense?.public_id ?? null, body });
          modals.closeAll();
          notifyDone(expense ? 'Expense updated' : `Expense of ${money(body.amount)} recorded`);
        } catch (error) {
          refuse(placeErrors(error, { inputs: ['description', 'category', 'amount', 'spent_at'] }));
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <Textarea label="Description" required autosize minRows={2} maxLength={500} data-autofocus {...form.getInputProps('description')} />
        <Select
          label="Category"
          required
          allowDeselect={false}
          data={EXPENSE_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) }))}
          {...form.getInputProps('category')}
        />
        <Group grow>
          <TextInput label="Amount" required inputMode="decimal" {...form.getInputProps('amount')} />
          <TextInput label="Spent on (UTC)" type="date" required {...form.getInputProps('spent_at')} />
        </Group>
        <ModalFormFooter form={form} submit={expense ? 'Save' : 'Record expense'} />
      </Stack>
    </form>
  );
}
