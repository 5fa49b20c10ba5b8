import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';

/** A search box that updates the URL 300 ms after typing stops (Enter applies it at once). */
export function SearchInput({
  label,
  value,
  onSearch,
  placeholder,
}: {
  label: string;
  value: string | undefined;
  onSearch: (value: string | undefined) => void;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState(value ?? '');
  useEffect(() => setDraft(value ?? ''), [value]);
  const router = useRouter();
  const here = router.state.location.pathname;
  // While the next screen's code loads this one stays mounted: a search typed just before following a
  // link must not fire afterwards and pull the person back to the list.
  const apply = useDebouncedCallback((next: string) => {
    if (router.state.location.pathname !== here) return;
    onSearch(next.trim() === '' ? undefined : next.trim());
  }, 300);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      type="search"
      leftSection={<IconSearch size={16} aria-hidden />}
      value={draft}
      maxLength={200}
      onChange={(event) => {
        setDraft(event.currentTarget.value);
        apply(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          onSearch(draft.trim() === '' ? undefined : draft.trim());
        }
      }}
      // Wide enough to show the whole hint of what it searches (ch: the width of a digit, a little more than most letters).
      miw={240}
      w={placeholder ? `calc(${placeholder.length}ch + 2.75rem)` : undefined}
      maw="100%"
    />
  );
}
