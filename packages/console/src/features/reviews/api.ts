import type { BodyOf, QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { productKeys, reviewKeys, statsKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';
import { notifyDone, notifyError } from '../../lib/notify';

export type ReviewsQuery = NonNullable<QueryOf<'/api/v1/admin/reviews'>>;

export const reviewsQuery = (query: ReviewsQuery) =>
  queryOptions({
    queryKey: reviewKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/reviews', { params: { query } }),
    placeholderData: keepPreviousData,
  });

type ReviewPage = Awaited<ReturnType<NonNullable<ReturnType<typeof reviewsQuery>['queryFn']>>>;

/** The API gives a review's product by ID only: its name comes from the product (the product screen's read, cached). */
export const reviewedProductQuery = (productId: string) =>
  queryOptions({
    queryKey: productKeys.detail(productId),
    queryFn: async () =>
      (await api.GET('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: productId } } })).data,
    staleTime: 60_000,
  });

export interface Decision {
  id: string;
  status: 'APPROVED' | 'REJECTED';
  /** Internal, never shown to customers. */
  note: string | undefined;
}

/**
 * Approves or rejects a review, optimistically: the decided review leaves the view at once (under
 * All it changes its badge), and comes back if the API refuses. No Undo: the API cannot put a review
 * back to PENDING; a decision is changed later from the Approved or Rejected view. A decision changes
 * the dashboard's count of reviews waiting.
 */
export function useModerateReview(query: ReviewsQuery, view: string, onDecided: (decision: Decision) => void) {
  const queryClient = useQueryClient();
  const key = reviewKeys.list(query);
  return useWrite({
    mutationFn: ({ id, status, note }: Decision) =>
      api.PATCH('/api/v1/admin/reviews/{review_public_id}', {
        params: { path: { review_public_id: id } },
        body: { status, ...(note?.trim() ? { moderation_note: note.trim() } : {}) },
      }),
    onMutate: async ({ id, status }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<ReviewPage>(key);
      queryClient.setQueryData<ReviewPage>(key, (old) =>
        old
          ? {
              ...old,
              data:
                view === 'ALL'
                  ? old.data.map((r) => (r.public_id === id ? { ...r, status } : r))
                  : old.data.filter((r) => r.public_id !== id),
            }
          : old,
      );
      return { previous };
    },
    onError: (error, _decision, context) => {
      queryClient.setQueryData(key, context?.previous);
      notifyError(error, 'Not moderated');
    },
    onSuccess: (_result, decision) => {
      onDecided(decision);
      notifyDone(decision.status === 'APPROVED' ? 'Review approved: it is public now' : 'Review rejected');
    },
    invalidates: [reviewKeys.all, statsKeys.all],
  });
}

/** Approves or rejects many reviews at once; each is done or refused on its own (the answer says which). */
export function useBulkModerate() {
  return useWrite({
    mutationFn: async (body: BodyOf<'/api/v1/admin/reviews/bulk', 'post'>) => (await api.POST('/api/v1/admin/reviews/bulk', { body })).data,
    invalidates: [reviewKeys.all, statsKeys.all, productKeys.all],
  });
}
