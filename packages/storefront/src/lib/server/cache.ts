/**
 * A short-lived cache of public facts every page needs (the shop's settings), so a page view does
 * not ask the API for them each time. Only data that is the same for every visitor goes here, never
 * anything of a shopper's. Entries are kept per API (`instance`), so two services in one process
 * never see each other's, and each loads once however many ask at once.
 */
const stores = new WeakMap<object, Map<string, { until: number; value: Promise<unknown> }>>();

export function cached<T>(instance: object, key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  let store = stores.get(instance);
  if (!store) stores.set(instance, (store = new Map()));
  const now = Date.now();
  const hit = store.get(key);
  if (hit && hit.until > now) return hit.value as Promise<T>;
  const value = load();
  const entry = { until: now + ttlMs, value };
  store.set(key, entry);
  // A failed load is not kept: the next page asks again.
  value.catch(() => {
    if (store.get(key) === entry) store.delete(key);
  });
  return value;
}
