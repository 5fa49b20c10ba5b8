import {
  Anchor,
  Button,
  Flex,
  Group,
  Image,
  Pagination,
  Paper,
  Rating,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api';
import { FilterBar } from '../components/FilterBar';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatusBadge } from '../components/StatusBadge';
import { notifyDone, notifyError } from '../lib/errors';
import { count, when } from '../lib/format';
import { compact } from '../lib/search';
import { REVIEW_SORTS, type ReviewsSearch } from '../routes/reviews';

const PAGE_SIZE = 10;
const VIEWS = [
  { value: 'PENDING', label: 'Waiting' },
  { value: 'APPROVED', label: 'Approved' },
  { value: 'REJECTED', label: 'Rejected' },
  { value: 'ALL', label: 'All' },
];
const SORT_LABELS: Record<(typeof REVIEW_SORTS)[number], string> = {
  created_at: 'Oldest first',
  '-created_at': 'Newest first',
  rating: 'Lowest rating first',
  '-rating': 'Highest rating first',
};

export function ReviewsScreen() {
  const search = useSearch({ from: '/staff/reviews' });
  const navigate = useNavigate({ from: '/reviews' });
  const queryClient = useQueryClient();
  const view = search.status ?? 'PENDING';
  const update = (changes: Partial<ReviewsSearch>) =>
    void navigate({ search: (previous) => compact({ ...previous, page: undefined, ...changes }) });
  const query = compact({
    page: search.page ?? 1,
    limit: PAGE_SIZE,
    status: view === 'ALL' ? undefined : view,
    rating: search.rating ? Number(search.rating) : undefined,
    sort: search.sort ?? (view === 'PENDING' ? 'created_at' : '-created_at'),
  });
  const reviews = useQuery({
    queryKey: ['reviews', query],
    queryFn: async () => api.GET('/api/v1/admin/reviews', { params: { query } }),
    placeholderData: keepPreviousData,
  });

  // The API gives a review's product by ID only: its name comes from the product (one cached read per product on the page).
  const productIds = [...new Set((reviews.data?.data ?? []).map((r) => r.product_public_id))];
  const products = useQueries({
    queries: productIds.map((id) => ({
      queryKey: ['product', id],
      queryFn: async () =>
        (await api.GET('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: id } } })).data,
      staleTime: 60_000,
    })),
  });
  const productName = (id: string) => products[productIds.indexOf(id)]?.data?.name;
  // Notes typed per review before deciding; sent with the decision (internal, never shown to customers).
  const [notes, setNotes] = useState<Record<string, string>>({});

  const moderate = useMutation({
    mutationFn: async ({ id, status }: { id: string; status: 'APPROVED' | 'REJECTED' }) =>
      api.PATCH('/api/v1/admin/reviews/{review_public_id}', {
        params: { path: { review_public_id: id } },
        body: { status, ...(notes[id]?.trim() ? { moderation_note: notes[id].trim() } : {}) },
      }),
    // Optimistic: the decided review leaves the queue at once; on failure it comes back. No Undo: the API
    // cannot put a review back to PENDING; a decision is changed from the Approved or Rejected view instead.
    onMutate: async ({ id, status }) => {
      await queryClient.cancelQueries({ queryKey: ['reviews', query] });
      const previous = queryClient.getQueryData(['reviews', query]);
      queryClient.setQueryData(['reviews', query], (old: typeof reviews.data) =>
        // A decided review leaves a status view (the queue, Approved, Rejected); under All it changes its badge.
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
    onError: (error, _vars, context) => {
      queryClient.setQueryData(['reviews', query], context?.previous);
      notifyError(error, 'Not moderated');
    },
    onSuccess: (_result, { id, status }) => {
      setNotes(({ [id]: _sent, ...rest }) => rest);
      notifyDone(status === 'APPROVED' ? 'Review approved: it is public now' : 'Review rejected');
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['reviews'] });
      void queryClient.invalidateQueries({ queryKey: ['stats'] });
    },
  });

  return (
    <>
      <PageHeader title="Reviews" subtitle="Approve what customers wrote before it appears in the store" />
      <FilterBar onClear={search.rating || search.status ? () => void navigate({ search: {} }) : undefined}>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="review-view-label">
            Show
          </Text>
          <SegmentedControl
            aria-labelledby="review-view-label"
            value={view}
            data={VIEWS}
            onChange={(value) => update({ status: value === 'PENDING' ? undefined : (value as ReviewsSearch['status']) })}
          />
        </Stack>
        <Select
          label="Rating"
          placeholder="Any rating"
          clearable
          w={150}
          data={['5', '4', '3', '2', '1'].map((r) => ({ value: r, label: `${r} star${r === '1' ? '' : 's'}` }))}
          value={search.rating ?? null}
          onChange={(rating) => update({ rating: (rating ?? undefined) as ReviewsSearch['rating'] })}
        />
        <Select
          label="Sort"
          allowDeselect={false}
          w={190}
          data={REVIEW_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }))}
          value={query.sort}
          onChange={(sort) => update({ sort: (sort ?? undefined) as ReviewsSearch['sort'] })}
        />
      </FilterBar>
      <QueryState query={reviews}>
        {(result) => (
          <Stack aria-busy={reviews.isFetching || undefined}>
            {result.data.length === 0 ? (
              <Paper withBorder p="xl" radius="md" ta="center">
                <Text>{view === 'PENDING' ? 'Nothing waiting: every review has been moderated.' : 'No reviews here.'}</Text>
              </Paper>
            ) : null}
            {result.data.map((review) => (
              <Paper
                key={review.public_id}
                withBorder
                p="md"
                radius="md"
                component="article"
                aria-labelledby={`review-${review.public_id}`}
              >
                <Flex
                  direction={{ base: 'column', sm: 'row' }}
                  justify="space-between"
                  align={{ base: 'stretch', sm: 'flex-start' }}
                  gap="md"
                >
                  <Stack gap={4} maw={760} style={{ flex: 1, minWidth: 0 }}>
                    <Group gap="xs">
                      <Rating value={review.rating} readOnly size="sm" aria-label={`${review.rating} out of 5 stars`} />
                      <Title order={2} size="h5" id={`review-${review.public_id}`}>
                        {review.title}
                      </Title>
                    </Group>
                    <Text size="sm" c="dimmed">
                      {review.author.first_name} {review.author.last_initial}. · {when(review.created_at)} ·{' '}
                      <Anchor
                        size="sm"
                        renderRoot={(props) => (
                          <Link {...props} to="/products/$productId" params={{ productId: review.product_public_id }} />
                        )}
                      >
                        {productName(review.product_public_id) ?? review.product_public_id}
                      </Anchor>
                      {review.verified_purchase ? ' · verified purchase' : ''}
                    </Text>
                    <Text style={{ whiteSpace: 'pre-wrap' }}>{review.comment}</Text>
                    {review.images.length > 0 ? (
                      <Group gap="xs" mt="xs">
                        {review.images.map((image, i) => (
                          <Anchor key={image.image_url} href={image.image_url} target="_blank" rel="noreferrer">
                            <Image
                              src={image.image_url}
                              alt={image.alt_text ?? `Photo ${i + 1} of the review`}
                              w={88}
                              h={88}
                              fit="cover"
                              radius="sm"
                            />
                          </Anchor>
                        ))}
                      </Group>
                    ) : null}
                  </Stack>
                  <Stack gap="xs" align="flex-end" w={{ base: '100%', sm: 240 }} style={{ flexShrink: 0 }}>
                    <StatusBadge status={review.status} />
                    {review.moderation_note ? (
                      <Text size="xs" maw={240} c="dimmed">
                        Note: {review.moderation_note}
                      </Text>
                    ) : null}
                    <TextInput
                      size="xs"
                      w="100%"
                      label="Moderation note (internal)"
                      placeholder={review.moderation_note ? 'Replaces the note above' : 'Why, for the other moderators'}
                      maxLength={1000}
                      value={notes[review.public_id] ?? ''}
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        setNotes((all) => ({ ...all, [review.public_id]: value }));
                      }}
                    />
                    <Group gap="xs">
                      {review.status !== 'APPROVED' ? (
                        <Button
                          size="xs"
                          aria-label={`Approve "${review.title}"`}
                          onClick={() => moderate.mutate({ id: review.public_id, status: 'APPROVED' })}
                        >
                          Approve
                        </Button>
                      ) : null}
                      {review.status !== 'REJECTED' ? (
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          aria-label={`Reject "${review.title}"`}
                          onClick={() => moderate.mutate({ id: review.public_id, status: 'REJECTED' })}
                        >
                          Reject
                        </Button>
                      ) : null}
                    </Group>
                  </Stack>
                </Flex>
              </Paper>
            ))}
            {result.meta.totalPages > 1 ? (
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {count(result.meta.total)} reviews
                </Text>
                <Pagination
                  total={result.meta.totalPages}
                  value={result.meta.page}
                  onChange={(p) => void navigate({ search: (previous) => ({ ...previous, page: p }) })}
                  size="sm"
                />
              </Group>
            ) : null}
          </Stack>
        )}
      </QueryState>
    </>
  );
}
