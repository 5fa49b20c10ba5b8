import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query';

export interface WriteOptions<TData, TVariables, TOnMutateResult> extends UseMutationOptions<TData, Error, TVariables, TOnMutateResult> {
  /**
   * What the write changes: key prefixes from query-keys.ts (a resource's `all`, or one record's key),
   * or a function of the write's variables when that depends on them (shipping moves stock, confirming
   * does not). Each is invalidated when the write is settled, failed ones too (a failure may leave part
   * done, and the screens should show what is).
   */
  invalidates: readonly QueryKey[] | ((variables: TVariables) => readonly QueryKey[]);
}

/**
 * A write to the API that says what it changes: every screen reading one of `invalidates` fetches it
 * again when next shown (at once if on screen). `mutateAsync` resolves once the screens on view have
 * their new data, so a confirmation never announces a change the screen does not show yet.
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
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
