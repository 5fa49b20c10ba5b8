import type { paths } from '@commerce/client';
import { valuesOf } from '../../api/domain';
import { oneOf } from '../../lib/search';

export type Period = NonNullable<NonNullable<paths['/api/v1/admin/stats']['get']['parameters']['query']>['period']>;

/** The periods the dashboard sums over (the API's `period`); 30 days when none is in the URL. */
export const PERIODS = valuesOf<Period>()(['today', '7d', '30d', '90d']);

export const dashboardSearch = (search: Record<string, unknown>): { period?: Period | undefined } => ({
  period: oneOf(search.period, PERIODS),
});
