import { redirect } from '@sveltejs/kit';
import { loading, signInPath } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    if (!(await shop.user())) redirect(303, signInPath(event, 'order'));
    const page = Math.min(Math.max(Number(event.url.searchParams.get('page')) || 1, 1), 10_000);
    const orders = await shop.api.orders.list({ page, limit: 10, sort: '-placed_at' });
    return { orders: orders.data, meta: orders.meta };
  });
