import type { Transport } from '@sveltejs/kit';
import { NavList } from '$lib/nav';

/** Values the server sends to the browser in a form of their own (SvelteKit's `transport` hook). */
export const transport: Transport = {
  // The category navigation: JSON made once per tree (lib/nav.ts), a plain array in the browser.
  NavList: {
    encode: (value) => value instanceof NavList && value.json(),
    decode: (json: string) => NavList.decode(json),
  },
};
