import { Alert, Anchor, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useStaff } from '../api/session';
import { PageHeader } from './PageHeader';

/**
 * A SUPER_ADMIN screen. An ADMIN who opens it (an old bookmark, a shared link) is told why it does
 * not open, on the screen they asked for, rather than sent elsewhere without a word. The server
 * refuses the screen's calls to an ADMIN all the same.
 */
export function SuperOnly({ screen, children }: { screen: string; children: ReactNode }) {
  const me = useStaff();
  if (me.isSuper) return <>{children}</>;
  return (
    <>
      <PageHeader title={screen} />
      <Alert color="yellow" icon={<IconLock size={18} aria-hidden />} title="For super admins only" role="alert" maw={640}>
        <Text size="sm">
          {screen} is open to super admins; your account is an admin. If your work needs it, a super admin can change your role on the Staff
          screen.
        </Text>
        <Anchor size="sm" mt="xs" display="inline-block" renderRoot={(props) => <Link {...props} to="/" />}>
          Back to the dashboard
        </Anchor>
      </Alert>
    </>
  );
}
