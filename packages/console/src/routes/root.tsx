import { ModalsProvider } from '@mantine/modals';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { LeaveQuestion } from '../lib/leave-guard';

export interface RouterContext {
  queryClient: QueryClient;
}

/** The modals live under the router and the query cache, so their content can use both (links, useQuery). */
function Root() {
  return (
    <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>
      <LeaveQuestion />
      <Outlet />
    </ModalsProvider>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Root });
