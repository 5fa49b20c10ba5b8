import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { API, createCategory, uniqueSku } from '../helpers/catalog.js';
import { useApp } from '../helpers/use-app.js';

/** Category writes raced: the tree stays whole (no live category under a deleted one). */
const t = useApp({ as: ['ADMIN'] });

test('categories created under a parent while it is deleted are refused (404) or moved up with its other children, never left under it', async () => {
  for (let round = 0; round < 5; round++) {
    const parent = (await createCategory(t.admin, { name: `Doomed ${uniqueSku()}` })).public_id;
    const creates = Array.from({ length: 8 }, (_, i) =>
      t.admin.post(`${API}/admin/categories`, { name: `Late ${i} ${uniqueSku()}`, parent_public_id: parent }),
    );
    const [deleted, ...created] = await Promise.all([t.admin.delete(`${API}/admin/categories/${parent}`), ...creates]);
    assert.equal(deleted.status, 204, deleted.text);
    for (const response of created) assert.ok([201, 404].includes(response.status), `${response.status} ${response.text}`);
  }
  const orphans = await sql<{ public_id: string }>`
    SELECT c.public_id FROM categories c JOIN categories p ON p.id = c.parent_id
    WHERE c.deleted_at IS NULL AND p.deleted_at IS NOT NULL`.execute(t.db);
  assert.deepEqual(orphans.rows, []);
});
