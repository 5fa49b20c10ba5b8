import { Group } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';

/**
 * A rating as one image with one name ("4 of 5 stars"): a screen reader reads the rating once,
 * not five unnamed pictures; the stars themselves are decoration.
 */
export function Stars({ rating, of = 5 }: { rating: number; of?: number }) {
  return (
    <Group component="span" gap={1} wrap="nowrap" role="img" aria-label={`${rating} of ${of} stars`} c="yellow.7">
      {Array.from({ length: of }, (_, index) =>
        index < rating ? <IconStarFilled key={index} size={16} aria-hidden /> : <IconStar key={index} size={16} aria-hidden />,
      )}
    </Group>
  );
}
