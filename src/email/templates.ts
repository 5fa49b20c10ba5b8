import { toCents } from '../lib/money.js';
import type { OrderEmailAddress, OrderEmailAmounts, OrderEmailLine, QueuedEmail } from '../outbox/emails.js';

/** Plain-text and HTML bodies for every email the service sends. Links point at PUBLIC_BASE_URL. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** The action link, logged when mail is written to files so a newcomer can follow it. */
  link: string | null;
}

/** A part of an email's body: a paragraph, a bulleted list, or lines kept together (an address). */
type Block = string | { list: string[] } | { lines: string[] };

const escape = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const htmlBlock = (block: Block) =>
  typeof block === 'string'
    ? `<p>${escape(block)}</p>`
    : 'list' in block
      ? `<ul>${block.list.map((entry) => `<li>${escape(entry)}</li>`).join('')}</ul>`
      : `<p>${block.lines.map(escape).join('<br>')}</p>`;

const textBlock = (block: Block) =>
  typeof block === 'string' ? block : 'list' in block ? block.list.map((entry) => `- ${entry}`).join('\n') : block.lines.join('\n');

function layout(title: string, blocks: Block[], action?: { label: string; url: string }): string {
  const body = blocks.map(htmlBlock).join('\n');
  const button = action
    ? `<p><a href="${escape(action.url)}" style="padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:4px">${escape(action.label)}</a></p>\n<p style="color:#666;font-size:12px">Or paste this link into your browser: ${escape(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:sans-serif;max-width:560px;margin:auto"><h2>${escape(title)}</h2>\n${body}\n${button}</body></html>`;
}

function build(title: string, blocks: Block[], action?: { label: string; url: string }): RenderedEmail {
  const text = [...blocks.map(textBlock), ...(action ? [`${action.label}: ${action.url}`] : [])].join('\n\n') + '\n';
  return { subject: title, text, html: layout(title, blocks, action), link: action?.url ?? null };
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount as the storefront shows it (`$48.00`, `€6.50`), so the email and the order page read alike. Display
 * only: the stored decimal string has at most two decimals and ten digits, which a double holds exactly enough
 * to print to the cent.
 */
function money(amount: string, currency: string): string {
  let format = moneyFormats.get(currency);
  // Two decimals whatever the currency's custom (¥, KWD): the order keeps two, and an email about a charge shows them all.
  if (!format)
    moneyFormats.set(
      currency,
      (format = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 })),
    );
  return format.format(Number(amount));
}

/**
 * An order's lines, one entry each: `2 x Tee (Size: M), $19.99 each: $39.98`. A message queued before
 * order emails carried their lines (and address) renders without them.
 */
const orderLines = (items: OrderEmailLine[] | undefined, currency: string): Block[] => {
  if (!items?.length) return [];
  const line = (item: OrderEmailLine) => {
    const options = Object.entries(item.options).map(([name, value]) => `${name}: ${value}`);
    const variant = options.length > 0 ? ` (${options.join(', ')})` : '';
    return `${item.quantity} x ${item.product_name}${variant}, ${money(item.unit_price, currency)} each: ${money(item.line_total, currency)}`;
  };
  return [{ list: items.map(line) }];
};

/**
 * How the lines come to the total, as the order page shows it: subtotal, the discount with its coupon code,
 * shipping, tax when there is any, and the total. The amounts are the order's own decimal strings, printed as
 * stored and never added up here, so the email cannot disagree with the order. Zero is only tested (in integer
 * cents), to leave out a discount or tax the order does not have. A message queued before order emails carried
 * these amounts holds the total alone: it states the total as it did then.
 */
const orderAmounts = (amounts: Partial<OrderEmailAmounts> & { total: string }, currency: string): Block[] => {
  const { subtotal, discount_total: discount, shipping_total: shipping, tax_total: tax, coupon_code: code } = amounts;
  if (subtotal === undefined || discount === undefined || shipping === undefined || tax === undefined) {
    return [`Total: ${money(amounts.total, currency)}.`];
  }
  const shown = (amount: string) => money(amount, currency);
  return [
    {
      lines: [
        `Subtotal: ${shown(subtotal)}`,
        ...(toCents(discount) !== 0 ? [`Discount${code ? ` (${code})` : ''}: -${shown(discount)}`] : []),
        `Shipping: ${toCents(shipping) === 0 ? 'Free' : shown(shipping)}`,
        ...(toCents(tax) !== 0 ? [`Tax: ${shown(tax)}`] : []),
        `Total: ${shown(amounts.total)}`,
      ],
    },
  ];
};

const shippingAddress = (address: OrderEmailAddress | undefined): Block[] =>
  address
    ? [
        'Shipping to:',
        {
          lines: [
            address.recipient_name,
            address.address_1,
            address.address_2,
            [address.city, [address.state, address.zip_code].filter(Boolean).join(' ')].filter(Boolean).join(', '),
            address.country,
            address.phone_number,
          ].filter((part): part is string => Boolean(part)),
        },
      ]
    : [];

/** The order page every order email links to. */
const orderPage = (publicBaseUrl: string, orderPublicId: string) => ({
  label: 'View your order',
  url: `${publicBaseUrl}/orders/${encodeURIComponent(orderPublicId)}`,
});

const link = (base: string, path: string, token: unknown) => `${base}${path}?token=${encodeURIComponent(String(token))}`;

export function renderEmail({ kind, payload }: QueuedEmail, publicBaseUrl: string): RenderedEmail {
  switch (kind) {
    case 'verify_email':
      return build(
        'Verify your email address',
        [
          `Hello ${payload.first_name ?? ''},`.trim(),
          'Confirm this address to finish setting up your account. The link is valid for 24 hours.',
        ],
        {
          label: 'Verify email',
          url: link(publicBaseUrl, '/verify-email', payload.token),
        },
      );
    case 'email_change_confirm':
      return build(
        'Confirm your new email address',
        [
          `Someone (hopefully you) asked to use ${payload.new_email} for their account.`,
          'Confirm from the same browser session within 24 hours. If it was not you, ignore this email.',
        ],
        {
          label: 'Confirm new email',
          url: link(publicBaseUrl, '/confirm-email-change', payload.token),
        },
      );
    case 'email_changed_notice':
      return build(
        'Your email address was changed',
        [
          `The email address of your account was changed to ${payload.new_email}.`,
          'If you did not make this change, reset your password and contact support right away.',
        ],
        undefined,
      );
    case 'password_reset':
      return build(
        'Reset your password',
        [
          'We received a request to reset your password. The link works once, for one hour.',
          'If you did not ask for this, ignore this email; your password stays as it is.',
        ],
        {
          label: 'Reset password',
          url: link(publicBaseUrl, '/reset-password', payload.token),
        },
      );
    case 'order_placed':
      return build(
        `Order ${payload.order_number} is confirmed`,
        [
          `Thank you for your order ${payload.order_number}.`,
          ...orderLines(payload.items, payload.currency),
          ...orderAmounts(payload, payload.currency),
          ...shippingAddress(payload.shipping_address),
          'We will email you again when it ships.',
        ],
        orderPage(publicBaseUrl, payload.order_public_id),
      );
    case 'order_shipped':
      return build(
        `Order ${payload.order_number} has shipped`,
        [
          `Your order ${payload.order_number} is on its way with ${payload.carrier}.`,
          ...(payload.tracking_number ? [`Tracking number: ${payload.tracking_number}.`] : []),
        ],
        orderPage(publicBaseUrl, payload.order_public_id),
      );
    case 'order_cancelled':
      return build(
        `Order ${payload.order_number} is cancelled`,
        [
          payload.cancelled_by === 'customer'
            ? `You cancelled your order ${payload.order_number}.`
            : `We are sorry: your order ${payload.order_number} was cancelled by the shop, and nothing from it will be sent.`,
          ...orderLines(payload.items, payload.currency),
          ...orderAmounts(payload, payload.currency),
          ...(payload.refunded ? [`Your payment of ${money(payload.total, payload.currency)} was refunded in full.`] : []),
        ],
        orderPage(publicBaseUrl, payload.order_public_id),
      );
    case 'webhook_endpoint_paused':
      return build(
        'A webhook endpoint was paused',
        [
          `The webhook endpoint ${payload.endpoint_public_id} (${payload.endpoint_origin}) has failed every delivery since ${payload.failing_since}, so it was paused.`,
          'Its events are kept, in order. Once the receiver works again, resume the endpoint: it picks up where it left off.',
        ],
        { label: 'Open the console', url: `${publicBaseUrl}/admin` },
      );
    case 'staff_invitation':
      return build(
        'You are invited to run the store',
        [
          `${payload.invited_by} invited you to the store's admin console as ${payload.role === 'SUPER_ADMIN' ? 'a super admin' : 'an admin'}.`,
          `Choose your name and password to create your staff account. The link works once, until ${payload.expires_at.slice(0, 16).replace('T', ' ')} UTC.`,
          'If you did not expect this, ignore this email.',
        ],
        {
          label: 'Accept the invitation',
          url: link(publicBaseUrl, '/admin/accept-invitation', payload.token),
        },
      );
  }
}
