import { Button, Group, Paper, Select, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { ROLES, type Role } from '../../api/domain';
import { describe } from '../../lib/errors';
import { titleCase } from '../../lib/format';
import { notifyDone } from '../../lib/notify';
import { useChangeRole } from './api';

/**
 * A SUPER_ADMIN changes another account's role; it asks first, as the account's sessions end. A
 * refusal is said once, in the panel: a staff role for an unverified customer is not offered to send.
 */
export function RolePanel({ user }: { user: { public_id: string; email: string; role: Role; email_verified: boolean } }) {
  const [role, setRole] = useState<Role | null>(null);
  const roleChange = useChangeRole(user.public_id);
  const unverifiedCustomer = user.role === 'CUSTOMER' && !user.email_verified;
  const change = async (next: Role) => {
    try {
      await roleChange.mutateAsync(next);
      setRole(null);
      notifyDone(`Role changed to ${titleCase(next)}; the account's sessions have ended`);
    } catch {
      // Shown below the field from the mutation's error.
    }
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Role
      </Title>
      <Group align="flex-end">
        <Select
          label="Role"
          allowDeselect={false}
          data={ROLES.map((r) => ({ value: r, label: titleCase(r) }))}
          value={role ?? user.role}
          onChange={(value) => setRole(value as Role)}
          w={180}
          disabled={unverifiedCustomer}
        />
        <Button
          disabled={!role || role === user.role || unverifiedCustomer}
          loading={roleChange.isPending}
          onClick={() =>
            role &&
            modals.openConfirmModal({
              title: (
                <>
                  Make <bdi>{user.email}</bdi> {titleCase(role).toLowerCase()}?
                </>
              ),
              children: <Text size="sm">Their sessions end; the new role applies when they sign in again.</Text>,
              labels: { confirm: 'Change role', cancel: 'Back' },
              onConfirm: () => void change(role),
            })
          }
        >
          Change role
        </Button>
      </Group>
      {unverifiedCustomer ? (
        <Text c="dimmed" size="sm" mt="xs">
          A staff role waits until this account verifies its email address: anyone can register an address they do not own.
        </Text>
      ) : null}
      {roleChange.isError ? (
        <Text c="red.8" size="sm" mt="xs" role="alert">
          {describe(roleChange.error)}
        </Text>
      ) : null}
    </Paper>
  );
}
