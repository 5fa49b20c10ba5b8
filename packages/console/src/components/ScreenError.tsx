import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { describe } from '../lib/errors';
import { ScreenLoadError } from '../lib/lazy-screen';
import { PageHeader } from './PageHeader';

const RETRY_EVERY_MS = 3_000;

/** Whether the service answers at all (the console's own page, never from a cache). */
async function serviceAnswers(): Promise<boolean> {
  try {
    return (await fetch(import.meta.env.BASE_URL, { method: 'HEAD', cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

/**
 * The router's error screen, inside the console's frame, with a heading. A screen whose code could
 * not arrive (the server or the network down) says so and opens by itself once it can: its code is
 * asked for again every few seconds and when the browser is back online. Should the browser keep a
 * failed load (some do) while the service answers again, the page is loaded afresh, on this screen.
 */
export function ScreenError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const unreachable = error instanceof ScreenLoadError;
  const again = () => {
    reset();
    void router.invalidate();
  };

  useEffect(() => {
    if (!(error instanceof ScreenLoadError)) return;
    let stopped = false;
    const attempt = async () => {
      try {
        await error.load();
        if (!stopped) {
          reset();
          void router.invalidate();
        }
      } catch {
        if (!stopped && (await serviceAnswers())) window.location.reload();
      }
    };
    // At once first: after a deploy the old screen's file is gone while the service answers, and the
    // reload that brings the new version should not wait.
    void attempt();
    const timer = window.setInterval(() => void attempt(), RETRY_EVERY_MS);
    const online = () => void attempt();
    window.addEventListener('online', online);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [error, reset, router]);

  return (
    <>
      <PageHeader title={unreachable ? 'This screen could not be loaded' : 'Something went wrong'} />
      <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert" title={unreachable ? 'No connection' : 'Error'}>
        <Text size="sm">
          {unreachable
            ? 'The service cannot be reached. The screen opens by itself once it answers again.'
            : `${describe(error)}. Trying again may help; the rest of the console still works.`}
        </Text>
        <Group mt="sm">
          <Button size="xs" variant="light" color="red" onClick={again}>
            Try again
          </Button>
        </Group>
      </Alert>
    </>
  );
}
