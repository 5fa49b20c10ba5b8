import { pageNumber } from '$lib/page-number';
import { redirect } from '@sveltejs/kit';
import { loading, signInPath } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    if (!(await shop.user())) redirect(303, signInPath(event, 'order'));
    const page = pageNumber(event.url);
    const orders = await shop.api.orders.list({ page, limit: 10, sort: '-placed_at' });
    return { orders: orders.data, meta: orders.meta };
  });
