import { Button, Text } from '@mantine/core';
import { openFormModal } from '../../lib/form-modal';
import { titleCase } from '../../lib/format';
import { notifyDone } from '../../lib/notify';
import { useChangeOrderStatus, type OrderDetail } from './api';
import { stepTo, type Step } from './steps';
import { TransitionForm } from './transition-form';

/**
 * The moves the order can take now, as the API lists them, one button each. Every step asks first,
 * with its effect per line: none can be undone (a cancelled order cannot be reopened, shipped units
 * do not come back), so they get a confirmation rather than an Undo.
 */
export function OrderSteps({ order }: { order: OrderDetail }) {
  const change = useChangeOrderStatus(order.public_id);
  const start = (step: Step) =>
    openFormModal({
      title: step.to === 'SHIPPED' ? `Ship ${order.order_number}` : `${step.label} ${order.order_number}?`,
      children: (
        <TransitionForm
          step={step}
          order={order}
          onSubmit={async (body) => {
            const updated = await change.mutateAsync(body);
            notifyDone(`Order ${updated.order_number} is now ${titleCase(updated.status).toLowerCase()}`);
          }}
        />
      ),
    });
  if (order.allowed_transitions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No further steps
      </Text>
    );
  }
  return order.allowed_transitions.map(stepTo).map((step) => (
    <Button
      key={step.to}
      color={step.color}
      variant={step.color ? 'light' : 'filled'}
      loading={change.isPending && change.variables?.status === step.to}
      disabled={change.isPending}
      onClick={() => start(step)}
    >
      {step.label}
    </Button>
  ));
}
