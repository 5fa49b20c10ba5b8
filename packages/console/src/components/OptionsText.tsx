import { Text } from '@mantine/core';
import { Fragment } from 'react';

/** A variant's options under its name ("size: M · colour: Blue"), each name and value isolated as user text. */
export function OptionsText({ options }: { options: Record<string, string> }) {
  const entries = Object.entries(options);
  if (entries.length === 0) return null;
  return (
    <Text size="xs" c="dimmed">
      {entries.map(([name, value], index) => (
        <Fragment key={name}>
          {index > 0 ? ' · ' : ''}
          <bdi>{name}</bdi>: <bdi>{value}</bdi>
        </Fragment>
      ))}
    </Text>
  );
}
