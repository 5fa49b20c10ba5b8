/** The API's password rule (8 to 128 characters, not all of one kind), checked before sending. */
export function passwordError(value: string): string | null {
  if (value.length < 8 || value.length > 128) return '8 to 128 characters';
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(value)).length;
  return kinds < 2 ? 'Mix at least two kinds: letters, capitals, digits, symbols' : null;
}
