import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query';
import { auditKeys, searchKeys } from './query-keys';

export interface WriteOptions<TData, TVariables, TOnMutateResult> extends UseMutationOptions<TData, Error, TVariables, TOnMutateResult> {
  /**
   * What the write changes: key prefixes from query-keys.ts (a resource's `all`, or one record's key),
   * or a function of the write's variables when that depends on them (shipping moves stock, confirming
   * does not). Each is invalidated when the write is settled, failed ones too (a failure may leave part
   * done, and the screens should show what is). What every write changes (EVERY_WRITE_CHANGES) is
   * added here, not named by each write.
   */
  invalidates: readonly QueryKey[] | ((variables: TVariables) => readonly QueryKey[]);
}

/**
 * What any write may change, so useWrite refreshes it after every one and no write can forget it:
 * - the audit log: the API records every write (src/audit/actions.ts), and failed ones too (a wrong
 *   current password, a refused sign-in);
 * - the header's search: it finds orders, products and accounts by names, SKUs and emails that many
 *   writes change (a product renamed, a customer's email, an order's status), and telling which do
 *   from here would be a list to keep in step with the API.
 * Neither is read in the background: refreshing them costs a request only when the audit log is on
 * screen, and marks the search's cached answers stale for its next search.
 */
export const EVERY_WRITE_CHANGES: readonly QueryKey[] = [auditKeys.all, searchKeys.all];

/**
 * A write to the API that says what it changes: every screen reading one of `invalidates` (and the
 * audit log and search, EVERY_WRITE_CHANGES) fetches it again when next shown (at once if on screen).
 * `mutateAsync` resolves once the screens on view have their new data, so a confirmation never
 * announces a change the screen does not show yet.
 */
export function useWrite<TData, TVariables = void, TOnMutateResult = unknown>({
  invalidates,
  onSettled,
  ...options
}: WriteOptions<TData, TVariables, TOnMutateResult>) {
  const queryClient = useQueryClient();
  return useMutation<TData, Error, TVariables, TOnMutateResult>({
    ...options,
    onSettled: async (data, error, variables, onMutateResult, context) => {
      await onSettled?.(data, error, variables, onMutateResult, context);
      const keys = typeof invalidates === 'function' ? invalidates(variables) : invalidates;
      await Promise.all([...keys, ...EVERY_WRITE_CHANGES].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
