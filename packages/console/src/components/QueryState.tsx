import { Alert, Button, Center, Loader } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe } from '../lib/errors';

/** Loading and failure for a whole panel, with a retry; renders `children(data)` once there is data. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) {
    return (
      <Center py="xl" aria-busy="true">
        <Loader size="sm" aria-label="Loading" />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Could not load" role="alert">
        {describe(query.error)}
        <div>
          <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      </Alert>
    );
  }
  return <>{children(query.data)}</>;
}
