import { TextInput } from '@mantine/core';

/**
 * Two date fields for a range filter (YYYY-MM-DD, as the API takes them). Each
 * end bounds the other, so the browser's picker cannot offer a range that
 * ends before it starts; an emptied field clears that end.
 */
export function DateRange({
  labels,
  from,
  to,
  onChange,
}: {
  labels: [from: string, to: string];
  from: string | undefined;
  to: string | undefined;
  onChange: (changes: { from?: string | undefined; to?: string | undefined }) => void;
}) {
  return (
    <>
      <TextInput
        label={labels[0]}
        type="date"
        w={165}
        value={from ?? ''}
        max={to}
        onChange={(e) => onChange({ from: e.currentTarget.value || undefined })}
      />
      <TextInput
        label={labels[1]}
        type="date"
        w={165}
        value={to ?? ''}
        min={from}
        onChange={(e) => onChange({ to: e.currentTarget.value || undefined })}
      />
    </>
  );
}
