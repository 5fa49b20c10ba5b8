import { Code } from '@mantine/core';

/**
 * An event type's summary from the API's catalog, which marks field names and values in backticks
 * (markdown, as the OpenAPI document shows them): those parts are set as code, without the backticks.
 * A summary with an unpaired backtick is shown as written, rather than guessing where code ends.
 */
export function EventSummary({ text }: { text: string }) {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return text;
  return parts.map((part, i) => (i % 2 === 1 ? <Code key={i}>{part}</Code> : part));
}
