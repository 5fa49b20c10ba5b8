import { Anchor, Button, Checkbox, Flex, Group, Image, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { Stars } from '../../components/Stars';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../lib/format';
import type { Decision, reviewsQuery } from './api';

type Review = Awaited<ReturnType<NonNullable<ReturnType<typeof reviewsQuery>['queryFn']>>>['data'][number];

/**
 * One review as customers wrote it, with its product, and the moderator's side: the status, the
 * note, and the decisions it can still take.
 */
export function ReviewCard({
  review,
  productName,
  note,
  onNote,
  onDecide,
  selected,
  onSelect,
}: {
  review: Review;
  productName: string | undefined;
  note: string;
  onNote: (note: string) => void;
  onDecide: (status: Decision['status']) => void;
  /** Picked for a bulk decision. */
  selected: boolean;
  onSelect: (selected: boolean) => void;
}) {
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-labelledby={`review-${review.public_id}`}>
      <Flex direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ base: 'stretch', sm: 'flex-start' }} gap="md">
        <Stack gap={4} maw={760} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Checkbox
              aria-label={`Select the review "${review.title}"`}
              checked={selected}
              onChange={(event) => onSelect(event.currentTarget.checked)}
              mt={2}
            />
            <Stars rating={review.rating} />
            <Title order={2} size="h5" id={`review-${review.public_id}`} style={{ minWidth: 0 }}>
              <bdi>{review.title}</bdi>
            </Title>
          </Group>
          <Text size="sm" c="dimmed">
            <bdi>{review.author.first_name}</bdi> <bdi>{review.author.last_initial}</bdi>. · {when(review.created_at)} ·{' '}
            <Anchor
              size="sm"
              renderRoot={(props) => <Link {...props} to="/products/$productId" params={{ productId: review.product_public_id }} />}
            >
              <bdi>{productName ?? review.product_public_id}</bdi>
            </Anchor>
            {review.verified_purchase ? ' · verified purchase' : ''}
          </Text>
          <Text style={{ whiteSpace: 'pre-wrap' }}>
            <bdi>{review.comment}</bdi>
          </Text>
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
              Note: <bdi>{review.moderation_note}</bdi>
            </Text>
          ) : null}
          <TextInput
            size="xs"
            w="100%"
            label="Moderation note (internal)"
            placeholder={review.moderation_note ? 'Replaces the note above' : 'Why, for the other moderators'}
            maxLength={1000}
            value={note}
            onChange={(event) => onNote(event.currentTarget.value)}
          />
          <Group gap="xs">
            {review.status !== 'APPROVED' ? (
              <Button size="xs" aria-label={`Approve "${review.title}"`} onClick={() => onDecide('APPROVED')}>
                Approve
              </Button>
            ) : null}
            {review.status !== 'REJECTED' ? (
              <Button size="xs" color="red" variant="light" aria-label={`Reject "${review.title}"`} onClick={() => onDecide('REJECTED')}>
                Reject
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Flex>
    </Paper>
  );
}
