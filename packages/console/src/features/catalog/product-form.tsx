import { Button, Group, MultiSelect, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { PRODUCT_STATUSES, type ProductStatus } from '../../api/domain';
import { FormErrors } from '../../components/FormErrors';
import { placeErrors, type Placement } from '../../lib/errors';
import { titleCase } from '../../lib/format';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';
import { everyCategoryQuery } from './categories-api';
import { pathLabel, withPaths } from './category-tree';
import { PathText } from './path-text';
import { ImagesField } from './images-field';
import type { ProductBody, ProductDetail } from './products-api';

/** Fields of the product form with an input; an error for any other (an image's URL) shows above the button. */
const PRODUCT_ERRORS: Placement = {
  inputs: ['name', 'slug', 'brand', 'description', 'status', 'category_public_ids', /^images\.\d+\.alt_text$/],
  codes: { SLUG_TAKEN: 'slug' },
  label: (field: string) => {
    const image = /^images\.(\d+)/.exec(field);
    if (image) return `Image ${Number(image[1]) + 1}`;
    return field.startsWith('category_public_ids') ? 'Categories' : undefined;
  },
};

/** `onSubmit` throws the API's refusal; the form puts it next to the fields, or above the button. */
export function ProductForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: ProductDetail | null;
  submitLabel: string;
  onSubmit: (body: ProductBody) => Promise<void>;
}) {
  const categories = useQuery(everyCategoryQuery);
  const form = useForm({
    initialValues: {
      name: initial?.name ?? '',
      slug: initial?.slug ?? '',
      brand: initial?.brand ?? '',
      description: initial?.description ?? '',
      status: (initial?.status ?? 'DRAFT') as ProductStatus,
      category_public_ids: initial?.categories.map((c) => c.public_id) ?? [],
      images: initial?.images.map((i) => ({ url: i.url, alt_text: i.alt_text ?? '' })) ?? [],
    },
    validate: {
      name: (value) => (value.trim() === '' ? 'Name the product' : value.length > 200 ? 'At most 200 characters' : null),
      slug: (value) =>
        value === '' || /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)
          ? null
          : 'Lower-case letters, digits and single dashes, or empty to generate one',
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        try {
          await onSubmit({
            name: values.name.trim(),
            ...(values.slug ? { slug: values.slug } : {}),
            brand: values.brand.trim() || null,
            description: values.description,
            status: values.status,
            category_public_ids: values.category_public_ids,
            images: values.images.map((i) => ({ url: i.url, alt_text: i.alt_text.trim() || null })),
          });
        } catch (error) {
          refuse(placeErrors(error, PRODUCT_ERRORS));
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
          <TextInput
            label="Slug"
            description="The product's address in the store; empty to generate"
            maxLength={100}
            {...form.getInputProps('slug')}
          />
          <TextInput label="Brand" maxLength={100} {...form.getInputProps('brand')} />
          <Select
            label="Status"
            description="Only active products are in the store"
            allowDeselect={false}
            data={PRODUCT_STATUSES.map((s) => ({ value: s, label: titleCase(s) }))}
            {...form.getInputProps('status')}
          />
        </SimpleGrid>
        <Textarea label="Description" autosize minRows={3} maxLength={20000} {...form.getInputProps('description')} />
        <MultiSelect
          label="Categories"
          placeholder={categories.isPending ? 'Loading…' : 'Pick categories'}
          searchable
          // Each category by its path ("Kitchen › Mugs"): two categories may share a name under different parents.
          data={withPaths(categories.data ?? []).map(({ category, path }) => ({ value: category.public_id, label: pathLabel(path) }))}
          renderOption={({ option }) => <PathText label={option.label} />}
          {...form.getInputProps('category_public_ids')}
        />
        <ImagesField
          images={form.values.images}
          onAdd={(image) => form.insertListItem('images', image)}
          onRemove={(index) => form.removeListItem('images', index)}
          altTextProps={(index) => form.getInputProps(`images.${index}.alt_text`)}
        />
        <FormErrors form={form} />
        <Group>
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
