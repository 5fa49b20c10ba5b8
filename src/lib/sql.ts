/** A case-insensitive substring pattern for ILIKE with the user's wildcards escaped. */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
