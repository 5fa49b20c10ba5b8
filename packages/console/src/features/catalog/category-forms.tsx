import { Button, Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { FormErrors, ModalFormFooter } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { notifyDone } from '../../lib/notify';
import { useCreateCategory, useUpdateCategory } from './categories-api';
import { pathLabel, type Category, type Node } from './category-tree';
import { PathText } from './path-text';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';

export function NewCategoryForm({ parents, paths }: { parents: Node[]; paths: Map<string, string[]> }) {
  const create = useCreateCategory();
  const form = useForm({
    initialValues: { name: '', parent: 'root' },
    validate: { name: (v) => (v.trim() === '' ? 'Name the category' : v.length > 100 ? 'At most 100 characters' : null) },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        try {
          await create.mutateAsync({ name: values.name.trim(), parent_public_id: values.parent === 'root' ? null : values.parent });
          form.reset();
          notifyDone(
            <>
              <bdi>{values.name.trim()}</bdi> created
            </>,
          );
        } catch (error) {
          refuse(placeErrors(error, { inputs: ['name', 'parent'], rename: (f) => (f === 'parent_public_id' ? 'parent' : f) }));
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <Group align="flex-end">
          <TextInput label="Name" required maxLength={100} {...form.getInputProps('name')} />
          <Select
            label="Under"
            renderOption={({ option }) => <PathText label={option.label} />}
            allowDeselect={false}
            data={[
              { value: 'root', label: 'Top level' },
              ...parents.map((p) => ({ value: p.public_id, label: pathLabel(paths.get(p.public_id) ?? [p.name]) })),
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
export function CategoryForm({ category }: { category: Category }) {
  const update = useUpdateCategory(category.public_id);
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
      onSubmit={submitWith(form, async (values, refuse) => {
        try {
          await update.mutateAsync({ name: values.name.trim(), slug: values.slug, description: values.description.trim() || null });
          modals.closeAll();
          notifyDone(
            <>
              <bdi>{values.name.trim()}</bdi> saved
            </>,
          );
        } catch (error) {
          refuse(placeErrors(error, { inputs: ['name', 'slug', 'description'], codes: { SLUG_TAKEN: 'slug' } }));
        }
      })}
    >
      <LeaveGuard form={form} />
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
