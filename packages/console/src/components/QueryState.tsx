import { Alert, Box, Button, Center, Loader } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ApiError } from '@commerce/client';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { describe } from '../lib/errors';
import { PageHeader } from './PageHeader';

const RETRY_EVERY_MS = 5_000;

/** A failure that may pass by itself: a lost request or the service unavailable, not a refusal. */
const mayPass = (error: unknown) => !ApiError.is(error) || error.status >= 500;

/**
 * Loading and failure for a panel or, with `screen` (its name, e.g. "Order"), a whole screen, which
 * then keeps its heading when it fails ("Order not found"); with a retry, and a retry by itself every
 * few seconds while the failure is one that passes (the service down). Renders `children(data)` once
 * there is data.
 */
export function QueryState<T>({
  query,
  screen,
  back,
  children,
}: {
  query: UseQueryResult<T>;
  screen?: string;
  /** Where a screen that is not found leads back to, e.g. a link to the list. */
  back?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const passing = query.isError && mayPass(query.error);
  const { refetch } = query;
  useEffect(() => {
    if (!passing) return;
    const timer = window.setInterval(() => void refetch(), RETRY_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [passing, refetch]);

  if (query.isPending) {
    return (
      <Center py="xl" aria-busy="true">
        <Loader size="sm" aria-label="Loading" />
      </Center>
    );
  }
  // Refused for want of a session over data already shown: the person is asked to sign in again over
  // this screen (SignInAgain), which keeps what it showed, and what was typed on it, until they have.
  const sessionEnded = query.isError && ApiError.is(query.error) && query.error.status === 401 && query.data !== undefined;
  if (query.isError && !sessionEnded) {
    const missing = ApiError.is(query.error) && query.error.status === 404;
    return (
      <>
        {screen ? <PageHeader title={missing ? `${screen} not found` : `${screen} could not be loaded`} /> : null}
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={missing ? 'Not found' : 'Could not load'} role="alert">
          {missing ? 'It does not exist, or it was removed.' : describe(query.error)}
          {passing ? ' Trying again by itself.' : null}
          <Box mt="sm">
            {missing && back ? (
              back
            ) : (
              <Button size="xs" variant="light" color="red" onClick={() => void refetch()}>
                Try again
              </Button>
            )}
          </Box>
        </Alert>
      </>
    );
  }
  return <>{children(query.data as T)}</>;
}
