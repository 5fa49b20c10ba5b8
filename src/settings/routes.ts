import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../config.js';
import { Ok, errorResponses } from '../lib/schemas.js';

/** The store's settings as staff screens need them, from the configuration (read-only: they change with a deploy). */
const StoreSettings = Type.Object(
  {
    currency: Type.String({ description: 'ISO 4217 code of the store currency' }),
    shipping_flat: Type.String({ description: 'Flat shipping charge' }),
    free_shipping_from: Type.String({ description: 'Subtotal from which shipping is free' }),
    tax_rate: Type.String({ description: 'Tax percentage applied to the discounted subtotal' }),
    default_reorder_level: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Reorder level the console offers for a new stock record (DEFAULT_REORDER_LEVEL); null offers none',
    }),
  },
  { additionalProperties: false },
);

export const settingsRoutes =
  (deps: { config: Config }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { commerce } = deps.config;
    const data = {
      currency: commerce.currency,
      shipping_flat: commerce.shippingFlat,
      free_shipping_from: commerce.freeShippingFrom,
      tax_rate: commerce.taxRate,
      default_reorder_level: commerce.defaultReorderLevel,
    };
    app.get('/admin/settings', {
      config: { access: 'admin' },
      schema: {
        tags: ['Admin: settings'],
        summary: 'Store settings staff screens use (currency, shipping, tax, the default reorder level)',
        response: { 200: Ok(StoreSettings), ...errorResponses() },
      },
      handler: async () => ({ success: true as const, data }),
    });
  };
