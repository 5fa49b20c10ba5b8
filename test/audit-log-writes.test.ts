import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Response } from './helpers/client.js';
import { checkout, sellableVariant, shopper, tag } from './helpers/commerce.js';
import { signUp, verifyEmail } from './helpers/factories.js';
import { auditCounter } from './helpers/inspect.js';
import { ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/**
 * Contract section 12: every admin write is audited, with before and after,
 * in the transaction of its change. Failures at commit, secrets, append-only:
 * audit-log-integrity.
 */

const A = '/api/v1/admin';

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' }, as: ['ADMIN', 'SUPER_ADMIN'] });

const auditCount = auditCounter(t);
const rowsFor = (action: string, entity: string) =>
  t.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('entity_public_id', '=', entity).orderBy('id').execute();

/** A placed order of a fresh customer. */
async function anOrder() {
  const { variantId } = await sellableVariant(t.admin, { price: '15.00', stock: 10 });
  const s = await shopper(t, [{ variantId, quantity: 1 }]);
  return ok(await checkout(s.client, s.addressId), 201).public_id as string;
}

describe('every admin write is audited with before and after', () => {
  test('catalog, inventory, coupons, orders, users and expenses', async () => {
    const done: { action: string; entity: string; response: Response; by: typeof t.admin }[] = [];
    const write = async (by: typeof t.admin, action: string, response: Response, status: number, entity?: string) => {
      const data = ok(response, status);
      done.push({ action, entity: entity ?? data.public_id, response, by });
      return data;
    };
    const c = t.admin;
    const category = await write(t.admin, 'category.create', await c.post(`${A}/categories`, { name: `Cat ${tag()}` }), 201);
    await write(t.admin, 'category.update', await c.patch(`${A}/categories/${category.public_id}`, { name: `Cat ${tag()}` }), 200);
    const product = await write(t.admin, 'product.create', await c.post(`${A}/products`, { name: `Prod ${tag()}` }), 201);
    await write(t.admin, 'product.update', await c.patch(`${A}/products/${product.public_id}`, { status: 'ACTIVE' }), 200);
    const variant = await write(
      t.admin,
      'variant.create',
      await c.post(`${A}/products/${product.public_id}/variants`, { sku: `S-${tag()}`, name: 'V', price: '5.00' }),
      201,
    );
    await write(t.admin, 'variant.update', await c.patch(`${A}/variants/${variant.public_id}`, { price: '6.00' }), 200);
    await write(
      t.admin,
      'inventory.create',
      await c.post(`${A}/inventory`, { variant_public_id: variant.public_id, quantity_on_hand: 5 }),
      201,
      variant.public_id,
    );
    await write(
      t.admin,
      'inventory.adjust',
      await c.patch(`${A}/inventory/${variant.public_id}`, { quantity_change: 3, reason: 'recount' }),
      200,
      variant.public_id,
    );
    await write(
      t.admin,
      'inventory.reserve',
      await c.patch(`${A}/inventory/${variant.public_id}/reservation`, { change: 2 }),
      200,
      variant.public_id,
    );
    const coupon = await write(
      t.admin,
      'coupon.create',
      await c.post(`${A}/coupons`, { code: `C${tag()}`, discount_type: 'FIXED_AMOUNT', discount_value: '2.00' }),
      201,
    );
    await write(t.admin, 'coupon.update', await c.patch(`${A}/coupons/${coupon.public_id}`, { discount_value: '3.00' }), 200);
    await write(t.admin, 'coupon.delete', await c.delete(`${A}/coupons/${coupon.public_id}`), 204, coupon.public_id);
    const order = await anOrder();
    await write(t.admin, 'order.status_change', await c.patch(`${A}/orders/${order}`, { status: 'CONFIRMED' }), 200, order);
    const customer = await signUp(t);
    await write(t.admin, 'user.suspend', await c.post(`${A}/users/${customer.user.public_id}/suspend`), 200);
    await write(t.admin, 'user.activate', await c.post(`${A}/users/${customer.user.public_id}/activate`), 200);
    await verifyEmail(t, customer.email); // a staff role needs a verified address
    await write(
      t.superAdmin,
      'user.role_change',
      await t.superAdmin.patch(`${A}/users/${customer.user.public_id}/role`, { role: 'ADMIN' }),
      200,
    );
    const s = t.superAdmin;
    const expense = await write(
      t.superAdmin,
      'expense.create',
      await s.post(`${A}/expenses`, { description: 'Hosting', category: 'SOFTWARE', amount: '40.00', spent_at: '2026-01-15' }),
      201,
    );
    await write(t.superAdmin, 'expense.update', await s.patch(`${A}/expenses/${expense.public_id}`, { amount: '45.50' }), 200);
    await write(t.superAdmin, 'expense.delete', await s.delete(`${A}/expenses/${expense.public_id}`), 204, expense.public_id);
    await write(t.admin, 'variant.delete', await c.delete(`${A}/variants/${variant.public_id}`), 204, variant.public_id);
    await write(t.admin, 'product.delete', await c.delete(`${A}/products/${product.public_id}`), 204, product.public_id);
    await write(t.admin, 'category.delete', await c.delete(`${A}/categories/${category.public_id}`), 204, category.public_id);

    for (const { action, entity, response, by } of done) {
      const rows = await rowsFor(action, entity);
      assert.equal(rows.length, 1, `${action} ${entity}: ${rows.length} entries`);
      const row = rows[0]!;
      const changes = row.changes as { before?: unknown; after?: unknown } | null;
      assert.ok(changes && 'before' in changes && 'after' in changes, `${action}: changes ${JSON.stringify(changes)}`);
      assert.ok(changes.before !== null || changes.after !== null, `${action}: both sides null`);
      assert.equal(row.actor_public_id, by.user.public_id, action);
      assert.equal(row.actor_email, by.email, action);
      assert.equal(row.actor_role, by.user.role, action);
      assert.equal(row.request_id, response.headers.get('x-request-id'), `${action}: the entry names the request`);
      assert.ok(row.ip, action);
      assert.match(row.public_id, /^aud_[0-9A-Za-z]{16,}$/);
    }

    const byAction = async (action: string, entity: string) => (await rowsFor(action, entity))[0]!.changes as any;
    assert.deepEqual(
      [
        (await byAction('coupon.update', coupon.public_id)).before.discount_value,
        (await byAction('coupon.update', coupon.public_id)).after.discount_value,
      ],
      ['2.00', '3.00'],
    );
    const adjust = await byAction('inventory.adjust', variant.public_id);
    assert.deepEqual([adjust.before.quantity_on_hand, adjust.after.quantity_on_hand], [5, 8]);
    assert.deepEqual(await byAction('order.status_change', order), { before: { status: 'PLACED' }, after: { status: 'CONFIRMED' } });
    const spent = await byAction('expense.update', expense.public_id);
    assert.deepEqual([spent.before.amount, spent.after.amount], ['40.00', '45.50']);
    assert.equal((await byAction('expense.delete', expense.public_id)).after, null);
  });

  test('a refused write leaves no entry', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 2 });
    const coupon = ok(
      await t.admin.post(`${A}/coupons`, { code: `R${tag()}`, discount_type: 'FIXED_AMOUNT', discount_value: '1.00' }),
      201,
    );
    const order = await anOrder();
    const before = await auditCount();
    const refused: [Response, number][] = [
      [await t.admin.post(`${A}/coupons`, { code: coupon.code, discount_type: 'FIXED_AMOUNT', discount_value: '1.00' }), 409],
      [await t.admin.patch(`${A}/coupons/${coupon.public_id}`, { discount_value: '0' }), 400],
      [await t.admin.patch(`${A}/inventory/${variantId}`, { quantity_change: -5 }), 400],
      [await t.admin.patch(`${A}/orders/${order}`, { status: 'FULFILLED' }), 409],
      [await t.admin.post(`${A}/users/${t.admin.user.public_id}/suspend`), 400],
      [await t.admin.post(`${A}/users/${t.superAdmin.user.public_id}/suspend`), 403],
      [await t.admin.post(`${A}/expenses`, { description: 'x', category: 'RENT', amount: '1.00', spent_at: '2026-01-01' }), 403],
      [await t.superAdmin.patch(`${A}/expenses/exp_${'Z'.repeat(20)}`, { amount: '2.00' }), 404],
      [await t.superAdmin.patch(`${A}/users/${t.superAdmin.user.public_id}/role`, { role: 'ADMIN' }), 400],
      [await t.admin.patch(`${A}/variants/${variantId}`, { price: '-1' }), 400],
    ];
    for (const [response, status] of refused) assert.equal(response.status, status, response.text);
    assert.equal(await auditCount(), before);
  });

  test('the entry is written in the same transaction: when it cannot be written, the change is undone', async () => {
    await sql`CREATE TABLE test_failing_actions (action text PRIMARY KEY)`.execute(t.db);
    await sql`CREATE FUNCTION test_fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$
              BEGIN
                IF EXISTS (SELECT 1 FROM test_failing_actions WHERE action = NEW.action) THEN RAISE EXCEPTION 'audit refused by test'; END IF;
                RETURN NEW;
              END $$`.execute(t.db);
    await sql`CREATE TRIGGER test_fail_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION test_fail_audit()`.execute(t.db);
    try {
      const { variantId, productId } = await sellableVariant(t.admin, { stock: 4 });
      const coupon = ok(
        await t.admin.post(`${A}/coupons`, { code: `T${tag()}`, discount_type: 'FIXED_AMOUNT', discount_value: '1.00' }),
        201,
      );
      const order = await anOrder();
      const customer = await signUp(t);
      const description = `Never ${tag()}`;
      await sql`INSERT INTO test_failing_actions VALUES ('product.update'), ('inventory.adjust'), ('coupon.update'), ('order.status_change'),
                ('user.suspend'), ('expense.create')`.execute(t.db);

      const attempts = [
        await t.admin.patch(`${A}/products/${productId}`, { name: 'Renamed' }),
        await t.admin.patch(`${A}/inventory/${variantId}`, { quantity_on_hand: 99 }),
        await t.admin.patch(`${A}/coupons/${coupon.public_id}`, { discount_value: '9.00' }),
        await t.admin.patch(`${A}/orders/${order}`, { status: 'CANCELLED' }),
        await t.admin.post(`${A}/users/${customer.user.public_id}/suspend`),
        await t.superAdmin.post(`${A}/expenses`, { description, category: 'OTHER', amount: '5.00', spent_at: '2026-01-01' }),
      ];
      for (const response of attempts) assert.equal(response.status, 500, response.text);

      assert.notEqual(ok(await t.admin.get(`${A}/products/${productId}`)).name, 'Renamed');
      assert.equal(ok(await t.admin.get(`${A}/inventory/${variantId}`)).quantity_on_hand, 4);
      assert.equal(ok(await t.admin.get(`${A}/coupons/${coupon.public_id}`)).discount_value, '1.00');
      assert.equal(ok(await t.admin.get(`${A}/orders/${order}`)).status, 'PLACED');
      ok(await customer.client.get('/api/v1/users/me')); // not suspended, sessions not revoked
      assert.equal((await t.db.selectFrom('expenses').select('id').where('description', '=', description).execute()).length, 0);
    } finally {
      await sql`DROP TRIGGER test_fail_audit ON audit_log`.execute(t.db);
      await sql`DROP FUNCTION test_fail_audit(); DROP TABLE test_failing_actions`.execute(t.db);
    }
  });
});
