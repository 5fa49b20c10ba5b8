import type { BodyOf, QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { webhookKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';
import { deliveriesRefreshMs } from './refresh';

export type EndpointsQuery = NonNullable<QueryOf<'/api/v1/admin/webhooks/endpoints'>>;
export type DeliveriesQuery = NonNullable<QueryOf<'/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/deliveries'>>;
export type EndpointBody = BodyOf<'/api/v1/admin/webhooks/endpoints', 'post'>;
export type EndpointPatch = BodyOf<'/api/v1/admin/webhooks/endpoints/{endpoint_public_id}', 'patch'>;

const endpointPath = (endpointId: string) => ({ path: { endpoint_public_id: endpointId } });

/** The event types an endpoint can subscribe to, with what each means. They change with a deploy only. */
export const eventTypesQuery = queryOptions({
  queryKey: webhookKeys.eventTypes(),
  queryFn: async () => (await api.GET('/api/v1/admin/webhooks/event-types')).data,
  staleTime: Infinity,
});

export const endpointsQuery = (query: EndpointsQuery) =>
  queryOptions({
    queryKey: webhookKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/webhooks/endpoints', { params: { query } }),
    placeholderData: keepPreviousData,
  });

/** One endpoint; read again every few seconds while events wait for it (paused, or a backlog being sent), so the count moves. */
export const endpointQuery = (endpointId: string) =>
  queryOptions({
    queryKey: webhookKeys.detail(endpointId),
    queryFn: async () =>
      (await api.GET('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}', { params: endpointPath(endpointId) })).data,
    refetchInterval: (query) =>
      query.state.data && (query.state.data.status === 'PAUSED' || query.state.data.events_waiting > 0) ? 5_000 : false,
  });

export type Endpoint = NonNullable<Awaited<ReturnType<NonNullable<ReturnType<typeof endpointQuery>['queryFn']>>>>;

/** The delivery log of one endpoint, newest first, read again as deliveriesRefreshMs says. */
export const deliveriesQuery = (endpointId: string, query: DeliveriesQuery) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(endpointId, query),
    queryFn: () =>
      api.GET('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/deliveries', { params: { ...endpointPath(endpointId), query } }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => deliveriesRefreshMs(query.state.data?.data ?? []),
  });

/** One delivery with the body that was sent. */
export const deliveryQuery = (endpointId: string, deliveryId: string) =>
  queryOptions({
    queryKey: [...webhookKeys.deliveries(endpointId, {}), 'detail', deliveryId],
    queryFn: async () =>
      (
        await api.GET('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/deliveries/{delivery_public_id}', {
          params: { path: { endpoint_public_id: endpointId, delivery_public_id: deliveryId } },
        })
      ).data,
  });

/** Creates an endpoint; the answer carries its signing secret, the only time it is shown. */
export function useCreateEndpoint() {
  return useWrite({
    mutationFn: async (body: EndpointBody) => (await api.POST('/api/v1/admin/webhooks/endpoints', { body })).data,
    invalidates: [webhookKeys.all],
  });
}

/** Edits an endpoint, or pauses (status PAUSED) or resumes (ACTIVE) it; its screen shows the saved endpoint at once. */
export function useUpdateEndpoint(endpointId: string) {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: async (body: EndpointPatch) =>
      (await api.PATCH('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}', { params: endpointPath(endpointId), body })).data,
    invalidates: [webhookKeys.all],
    onSuccess: (updated) => queryClient.setQueryData(webhookKeys.detail(endpointId), updated),
  });
}

/** Deletes an endpoint; what it had not received yet is cancelled. */
export function useDeleteEndpoint(endpointId: string) {
  return useWrite({
    mutationFn: () => api.DELETE('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}', { params: endpointPath(endpointId) }),
    invalidates: [webhookKeys.all],
  });
}

/** A new signing secret, shown once; the old one keeps signing for `overlap_seconds`. */
export function useRotateSecret(endpointId: string) {
  return useWrite({
    mutationFn: async (overlap_seconds: number) =>
      (
        await api.POST('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/rotate-secret', {
          params: endpointPath(endpointId),
          body: { overlap_seconds },
        })
      ).data,
    invalidates: [webhookKeys.detail(endpointId)],
  });
}

/** Queues a `webhook.test` event for this endpoint alone. */
export function useSendTestEvent(endpointId: string) {
  return useWrite({
    mutationFn: () => api.POST('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/test', { params: endpointPath(endpointId) }),
    invalidates: [webhookKeys.all],
  });
}

/** Sends one delivery again (same `webhook-id`, a new round of retries). */
export function useRedeliver(endpointId: string) {
  return useWrite({
    mutationFn: (deliveryId: string) =>
      api.POST('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/deliveries/{delivery_public_id}/redeliver', {
        params: { path: { endpoint_public_id: endpointId, delivery_public_id: deliveryId } },
      }),
    invalidates: [webhookKeys.all],
  });
}

/** Sends again every delivery that FAILED, for events since `since`; answers how many. */
export function useRedeliverFailed(endpointId: string) {
  return useWrite({
    mutationFn: async (since: string) =>
      (
        await api.POST('/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/redeliver', {
          params: endpointPath(endpointId),
          body: { since },
        })
      ).data,
    invalidates: [webhookKeys.all],
  });
}
