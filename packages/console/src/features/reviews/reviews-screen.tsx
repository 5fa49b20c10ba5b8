import { Button, Checkbox, Group, Pagination, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { BulkBar } from '../../components/BulkBar';
import { showBulkOutcome } from '../../components/bulk-outcome';
import { FilterBar } from '../../components/FilterBar';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { count } from '../../lib/format';
import { useLeaveGuard } from '../../lib/leave-guard';
import { notifyError } from '../../lib/notify';
import { compact } from '../../lib/search';
import { useSelection } from '../../lib/selection';
import { reviewedProductQuery, reviewsQuery, useBulkModerate, useModerateReview } from './api';
import { ReviewCard } from './review-card';
import { RATINGS, REVIEW_SORTS, type ReviewsSearch } from './search';

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
  const reviews = useQuery(reviewsQuery(query));

  // One cached read per product on the page, for its name.
  const productIds = [...new Set((reviews.data?.data ?? []).map((r) => r.product_public_id))];
  const products = useQueries({ queries: productIds.map((id) => reviewedProductQuery(id)) });
  const productName = (id: string) => products[productIds.indexOf(id)]?.data?.name;
  // Notes typed per review before deciding; sent with the decision (internal, never shown to customers).
  const [notes, setNotes] = useState<Record<string, string>>({});
  const moderate = useModerateReview(query, view, ({ id }) => setNotes(({ [id]: _sent, ...rest }) => rest));
  // A note is kept across views and pages of this screen until its decision sends it; leaving the screen drops it.
  useLeaveGuard(!moderate.isPending && Object.values(notes).some((note) => note.trim() !== ''));
  const [selected, setSelected] = useSelection(query);
  const bulk = useBulkModerate();
  const titles = new Map((reviews.data?.data ?? []).map((r) => [r.public_id, r.title]));
  const decideAll = (status: 'APPROVED' | 'REJECTED') =>
    void bulk.mutateAsync({ review_public_ids: [...selected], status }).then(
      (result) => {
        setSelected(new Set());
        showBulkOutcome(result, { done: status === 'APPROVED' ? 'approved' : 'rejected', name: (id) => titles.get(id) ?? id });
      },
      (error: unknown) => notifyError(error, 'Not moderated'),
    );

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
          data={[...RATINGS].reverse().map((r) => ({ value: r, label: `${r} star${r === '1' ? '' : 's'}` }))}
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
      <BulkBar selected={selected.size} noun={['review', 'reviews']} onClear={() => setSelected(new Set())}>
        <Button size="xs" loading={bulk.isPending && bulk.variables?.status === 'APPROVED'} onClick={() => decideAll('APPROVED')}>
          Approve selected
        </Button>
        <Button
          size="xs"
          color="red"
          variant="light"
          loading={bulk.isPending && bulk.variables?.status === 'REJECTED'}
          onClick={() => decideAll('REJECTED')}
        >
          Reject selected
        </Button>
      </BulkBar>
      <QueryState query={reviews}>
        {(result) => (
          <Stack aria-busy={reviews.isFetching || undefined}>
            {result.data.length === 0 ? (
              <Paper withBorder p="xl" radius="md" ta="center">
                <Text>{view === 'PENDING' ? 'Nothing waiting: every review has been moderated.' : 'No reviews here.'}</Text>
              </Paper>
            ) : null}
            {result.data.length > 1 ? (
              // As a table's header box does: every review on this page picked, or none.
              <Checkbox
                label="Select every review on this page"
                checked={result.data.every((review) => selected.has(review.public_id))}
                indeterminate={
                  result.data.some((review) => selected.has(review.public_id)) &&
                  !result.data.every((review) => selected.has(review.public_id))
                }
                onChange={(event) => {
                  const next = new Set(selected);
                  for (const review of result.data) {
                    if (event.currentTarget.checked) next.add(review.public_id);
                    else next.delete(review.public_id);
                  }
                  setSelected(next);
                }}
              />
            ) : null}
            {result.data.map((review) => (
              <ReviewCard
                key={review.public_id}
                review={review}
                productName={productName(review.product_public_id)}
                note={notes[review.public_id] ?? ''}
                onNote={(note) => setNotes((all) => ({ ...all, [review.public_id]: note }))}
                onDecide={(status) => moderate.mutate({ id: review.public_id, status, note: notes[review.public_id] })}
                selected={selected.has(review.public_id)}
                onSelect={(on) => {
                  const next = new Set(selected);
                  if (on) next.add(review.public_id);
                  else next.delete(review.public_id);
                  setSelected(next);
                }}
              />
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
