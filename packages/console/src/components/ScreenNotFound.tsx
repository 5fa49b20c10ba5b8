import { Anchor, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { PageHeader } from './PageHeader';

/**
 * The router's screen for an address that names no screen (an old bookmark, a mistyped link), inside
 * the console's frame like every other screen: a heading, what happened, and a way back.
 */
export function ScreenNotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Paper withBorder p="md" radius="md" maw={640}>
        <Text mb="sm">
          No screen of the console is at this address: the link may be mistyped or out of date. Every screen is in the menu.
        </Text>
        <Anchor renderRoot={(props) => <Link {...props} to="/" />}>Go to the dashboard</Anchor>
      </Paper>
    </>
  );
}
