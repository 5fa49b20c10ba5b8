import { useState } from 'react';

const NONE: ReadonlySet<string> = new Set();

/**
 * Rows picked on a list for a bulk action. The picks belong to one view of the list (`view`: its
 * query); another page, filter or sort starts with none, so an action never reaches rows out of sight.
 */
export function useSelection(view: unknown): [ReadonlySet<string>, (selected: ReadonlySet<string>) => void] {
  const key = JSON.stringify(view);
  const [picked, setPicked] = useState<{ key: string; rows: ReadonlySet<string> }>({ key, rows: NONE });
  return [picked.key === key ? picked.rows : NONE, (rows) => setPicked({ key, rows })];
}
