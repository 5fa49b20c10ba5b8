import { AppShell, Burger, Group, Menu, NavLink, ScrollArea, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { endedStaffSession, isStaff, sessionEnd, sessionQuery, useSignOut, useStaff } from '../api/session';
import { SignInAgain } from './SignInAgain';
import { notifyError } from '../lib/notify';
import { NAVIGATION, type NavItem } from '../navigation';
import classes from './AppLayout.module.css';
import { GlobalSearch } from './GlobalSearch';
import { focusHeading } from './PageHeader';
import { StatusBadge } from './StatusBadge';

/**
 * The frame of every staff screen. The staff guard let the session in. If it ends while a screen is
 * open (expired, or revoked elsewhere), the person is asked to sign in again over that screen, which
 * stays as it was (what they typed on it too); after a sign-out here, the frame goes to sign-in.
 */
export function AppLayout() {
  const { data: user } = useSuspenseQuery(sessionQuery);
  // Where the person is (the resolved location), and whether a move to sign-in is already under way.
  const here = useRouterState({ select: (state) => (state.resolvedLocation ?? state.location).href });
  const leaving = useRouterState({ select: (state) => state.location.pathname.endsWith('/sign-in') });
  const ended = endedStaffSession(user);
  if (!isStaff(user) && !ended) {
    if (leaving) return null;
    return <Navigate to="/sign-in" search={sessionEnd.bySignOut ? {} : { redirect: here }} replace />;
  }
  // One shape either way (the question after the frame, or nothing there), so the screen under the question is
  // the same one, never mounted afresh; and nothing of the question is mounted while the session lives.
  return (
    <>
      <StaffFrame />
      {ended ? <SignInAgain ended={ended} /> : null}
    </>
  );
}

function StaffFrame() {
  const user = useStaff();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useRouterState({ select: (state) => state.location });
  const pathname = location.pathname;
  const navigate = useNavigate();
  const signOutWrite = useSignOut();

  const signOut = async () => {
    try {
      await signOutWrite.mutateAsync();
    } catch (error) {
      notifyError(error, 'Sign-out failed');
      return;
    }
    await navigate({ to: '/sign-in', search: {} });
  };

  const onPath = (to: string) => (to === '/' ? pathname === '/admin' || pathname === '/admin/' : pathname.startsWith(`/admin${to}`));
  const searchMatches = (search: Record<string, string>) =>
    Object.entries(search).every(([key, value]) => String((location.search as Record<string, unknown>)[key] ?? '') === value);
  // One entry is current: a preset view (Staff) when its filter is on, else the plain list.
  const items = NAVIGATION.flatMap((section) => section.items);
  const current =
    items.find((item) => item.search && onPath(item.to) && searchMatches(item.search)) ??
    items.find((item) => !item.search && onPath(item.to));
  const isActive = (item: NavItem) => item === current;

  return (
    <>
      <a
        href="#main"
        className={classes.skipLink}
        onClick={(event) => {
          // Handled here, not by the router: focus the screen's heading, where reading starts.
          event.preventDefault();
          focusHeading();
        }}
      >
        Skip to content
      </a>
      <AppShell header={{ height: 56 }} navbar={{ width: 232, breakpoint: 'md', collapsed: { mobile: !opened } }} padding="lg">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: 1 }}>
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="md"
                size="sm"
                aria-label={opened ? 'Close navigation' : 'Open navigation'}
              />
              <Text fw={700} c="dark" td="none" renderRoot={(props) => <Link {...props} to="/" />} visibleFrom="xs">
                Commerce console
              </Text>
              <GlobalSearch />
            </Group>
            <Menu position="bottom-end" width={220}>
              <Menu.Target>
                <UnstyledButton title={`${user.first_name} ${user.last_name}`} miw={0}>
                  <Group gap={6} wrap="nowrap">
                    <VisuallyHidden>Account menu:</VisuallyHidden>
                    <IconUserCircle size={22} aria-hidden />
                    <Text size="sm" className={classes.accountName}>
                      <bdi>{user.first_name}</bdi> <bdi>{user.last_name}</bdi>
                    </Text>
                    <StatusBadge status={user.role} />
                    <IconChevronDown size={14} aria-hidden />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label className={classes.menuIdentity}>
                  <Text size="sm" fw={600} c="dark" component="span" display="block">
                    <bdi>{user.first_name}</bdi> <bdi>{user.last_name}</bdi>
                  </Text>
                  <bdi>{user.email}</bdi>
                </Menu.Label>
                <Menu.Item leftSection={<IconUserCircle size={16} />} renderRoot={(props) => <Link {...props} to="/account" />}>
                  Your account
                </Menu.Item>
                <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
                  Sign out
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar p="xs" aria-label="Main" className={classes.navbar} data-folded={!opened || undefined}>
          <ScrollArea>
            <Stack gap="md">
              {NAVIGATION.map((section) => {
                const items = section.items.filter((item) => !item.superOnly || user.isSuper);
                if (items.length === 0) return null;
                return (
                  <div key={section.label}>
                    <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
                      {section.label}
                    </Text>
                    {items.map((item) => (
                      <NavLink
                        key={item.label}
                        component={Link}
                        to={item.to}
                        // Entries are of different routes: the preset search is checked where NAVIGATION declares it.
                        search={(item.search ?? {}) as never}
                        // Which entry is current is isActive's to say: the router's own match would also mark
                        // Customers (no preset filter) current on the Staff view, as its empty search matches any.
                        activeOptions={{ exact: true }}
                        label={item.label}
                        leftSection={<item.icon size={18} stroke={1.6} />}
                        active={isActive(item)}
                        aria-current={isActive(item) ? 'page' : undefined}
                        onClick={close}
                      />
                    ))}
                  </div>
                );
              })}
            </Stack>
          </ScrollArea>
        </AppShell.Navbar>

        <AppShell.Main bg="gray.0" id="main" tabIndex={-1} className={classes.main}>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </>
  );
}
