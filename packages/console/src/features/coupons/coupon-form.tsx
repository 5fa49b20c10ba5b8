import { Button, Group, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DISCOUNT_TYPES, type DiscountType } from '../../api/domain';
import { FormErrors } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { couponBody, couponValues, MONEY, WHOLE, type CouponBody, type CouponFacts, type CouponValues } from './coupon-values';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';

const DISCOUNT_TYPE_LABELS: Record<DiscountType, string> = { PERCENTAGE: 'Percentage', FIXED_AMOUNT: 'Fixed amount' };

/** `onSubmit` throws the API's refusal: field errors go next to their inputs, the rest above the button. */
export function CouponForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: CouponFacts | null;
  submitLabel: string;
  onSubmit: (body: CouponBody) => Promise<void>;
}) {
  const optionalMoney = (value: string) =>
    value.trim() === '' || MONEY.test(value.trim()) ? null : 'An amount like 50.00, or empty for none';
  const optionalCount = (value: string) =>
    value.trim() === '' || (WHOLE.test(value.trim()) && Number(value) >= 1) ? null : 'A whole number from 1, or empty for no limit';
  const form = useForm<CouponValues>({
    initialValues: couponValues(initial),
    validate: {
      code: (value) => (/^[A-Za-z0-9_-]{3,50}$/.test(value.trim()) ? null : '3 to 50 letters, digits, - or _'),
      discount_value: (value, values) =>
        !MONEY.test(value.trim()) || Number(value) <= 0
          ? 'An amount above zero'
          : values.discount_type === 'PERCENTAGE' && Number(value) > 100
            ? 'A percentage is at most 100'
            : null,
      minimum_order_amount: optionalMoney,
      maximum_discount_amount: optionalMoney,
      usage_limit: optionalCount,
      usage_limit_per_user: optionalCount,
      expires_at: (value, values) => (value && values.starts_at && value <= values.starts_at ? 'Ends after it starts' : null),
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        try {
          await onSubmit(couponBody(values));
        } catch (error) {
          refuse(placeErrors(error, { inputs: Object.keys(values), codes: { CODE_TAKEN: 'code' } }));
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Code"
            required
            description="Customers type it at checkout; case does not matter"
            maxLength={50}
            {...form.getInputProps('code')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="discount-type-label">
              Discount type
            </Text>
            <SegmentedControl
              aria-labelledby="discount-type-label"
              data={DISCOUNT_TYPES.map((type) => ({ value: type, label: DISCOUNT_TYPE_LABELS[type] }))}
              {...form.getInputProps('discount_type')}
            />
          </Stack>
          <TextInput
            label={form.values.discount_type === 'PERCENTAGE' ? 'Percent off' : 'Amount off'}
            required
            inputMode="decimal"
            {...form.getInputProps('discount_value')}
          />
          <TextInput
            label="Minimum order"
            description="Subtotal needed; empty for none"
            inputMode="decimal"
            {...form.getInputProps('minimum_order_amount')}
          />
          <TextInput
            label="Maximum discount"
            description="Cap on the discount; empty for none"
            inputMode="decimal"
            {...form.getInputProps('maximum_discount_amount')}
          />
          <TextInput label="Total uses" description="Empty for unlimited" inputMode="numeric" {...form.getInputProps('usage_limit')} />
          <TextInput
            label="Uses per customer"
            description="Empty for unlimited"
            inputMode="numeric"
            {...form.getInputProps('usage_limit_per_user')}
          />
          <TextInput label="Starts (UTC)" type="datetime-local" description="Empty: at once" {...form.getInputProps('starts_at')} />
          <TextInput label="Ends (UTC)" type="datetime-local" description="Empty: never" {...form.getInputProps('expires_at')} />
        </SimpleGrid>
        <Switch
          label="Active"
          description="Off: the code is refused at checkout"
          {...form.getInputProps('is_active', { type: 'checkbox' })}
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
