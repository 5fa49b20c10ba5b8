import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderEmail } from '../../src/email/templates.js';
import type { EmailPayloads } from '../../src/outbox/emails.js';

/**
 * What the order emails say: their lines, the amounts that take them to the total, address or refund, and the order
 * page; user text escaped in HTML.
 */

const BASE = 'https://shop.example.test';

const lines: EmailPayloads['order_placed']['items'] = [
  {
    product_name: 'Tee <b>bold</b>',
    sku: 'TEE-M',
    options: { Size: 'M', Colour: 'Blue & Green' },
    quantity: 2,
    unit_price: '19.99',
    line_total: '39.98',
  },
  { product_name: 'Mug', sku: 'MUG', options: {}, quantity: 1, unit_price: '5.01', line_total: '5.01' },
];

// 39.98 + 5.01 = 44.99, plus 10.00 shipping.
const placed: EmailPayloads['order_placed'] = {
  order_public_id: 'ord_abc',
  order_number: 'ORD-000042',
  subtotal: '44.99',
  discount_total: '0.00',
  shipping_total: '10.00',
  tax_total: '0.00',
  total: '54.99',
  coupon_code: null,
  currency: 'USD',
  items: lines,
  shipping_address: {
    recipient_name: 'Ada "<script>" Lovelace',
    phone_number: '+44 20 7946 0000',
    label: 'Home',
    country: 'GB',
    state: 'London',
    city: 'London',
    address_1: '12 St James’s Square',
    address_2: null,
    zip_code: 'SW1Y 4JH',
  },
};

// 44.99 less 10% (4.50 with SAVE10), plus 10.00 shipping and 8.25% tax on 40.49 (3.34).
const cancelled = (over: Partial<EmailPayloads['order_cancelled']> = {}): EmailPayloads['order_cancelled'] => ({
  order_public_id: 'ord_abc',
  order_number: 'ORD-000042',
  subtotal: '44.99',
  discount_total: '4.50',
  shipping_total: '10.00',
  tax_total: '3.34',
  total: '53.83',
  coupon_code: 'SAVE10',
  currency: 'USD',
  items: lines,
  refunded: true,
  cancelled_by: 'customer',
  ...over,
});

describe('order placed', () => {
  const email = renderEmail({ kind: 'order_placed', payload: placed }, BASE);

  test('lists every line, the amounts to the total and the shipping address, and links to the order page', () => {
    assert.equal(email.subject, 'Order ORD-000042 is confirmed');
    assert.equal(email.link, `${BASE}/orders/ord_abc`);
    for (const part of [
      '- 2 x Tee <b>bold</b> (Size: M, Colour: Blue & Green), $19.99 each: $39.98',
      '- 1 x Mug, $5.01 each: $5.01',
      // No discount and no tax: no lines for them.
      'Subtotal: $44.99\nShipping: $10.00\nTotal: $54.99',
      'Shipping to:\n\nAda "<script>" Lovelace\n12 St James’s Square\nLondon, London SW1Y 4JH\nGB\n+44 20 7946 0000',
      `View your order: ${BASE}/orders/ord_abc`,
    ]) {
      assert.ok(email.text.includes(part), `text lacks ${JSON.stringify(part)}:\n${email.text}`);
    }
  });

  test('the HTML part escapes product names, options and the address', () => {
    assert.ok(!email.html.includes('<b>bold</b>'), email.html);
    assert.ok(!email.html.includes('<script>'), email.html);
    assert.ok(
      email.html.includes('<li>2 x Tee &lt;b&gt;bold&lt;/b&gt; (Size: M, Colour: Blue &amp; Green), $19.99 each: $39.98</li>'),
      email.html,
    );
    assert.ok(
      email.html.includes('<p>Ada &quot;&lt;script&gt;&quot; Lovelace<br>12 St James’s Square<br>London, London SW1Y 4JH<br>GB'),
      email.html,
    );
    assert.ok(email.html.includes(`href="${BASE}/orders/ord_abc"`), email.html);
  });

  test('a message queued before emails carried lines and address still renders', () => {
    const { items: _items, shipping_address: _address, ...withAmounts } = placed;
    const { subtotal: _s, discount_total: _d, shipping_total: _sh, tax_total: _t, coupon_code: _c, ...old } = withAmounts;
    const email = renderEmail({ kind: 'order_placed', payload: old as EmailPayloads['order_placed'] }, BASE);
    assert.equal(
      email.text,
      `Thank you for your order ORD-000042.\n\nTotal: $54.99.\n\nWe will email you again when it ships.\n\nView your order: ${BASE}/orders/ord_abc\n`,
    );
  });

  test('a message queued with lines but before emails carried the amounts states the total alone, as it did', () => {
    const { subtotal: _s, discount_total: _d, shipping_total: _sh, tax_total: _t, coupon_code: _c, ...old } = placed;
    const email = renderEmail({ kind: 'order_placed', payload: old as EmailPayloads['order_placed'] }, BASE);
    assert.ok(email.text.includes('- 1 x Mug, $5.01 each: $5.01\n\nTotal: $54.99.\n\nShipping to:'), email.text);
    assert.doesNotMatch(email.text, /Subtotal|Shipping: /);
    assert.ok(email.html.includes('<p>Total: $54.99.</p>'), email.html);
  });
});

describe('order placed: the amounts reconcile the lines with the total', () => {
  // The newcomer's order: WELCOME10 (10%) on one 65.00 backpack, 10.00 shipping, no tax.
  const backpack: EmailPayloads['order_placed'] = {
    ...placed,
    items: [
      {
        product_name: 'Everyday Backpack 20L',
        sku: 'BAG-20-CH',
        options: { colour: 'Charcoal' },
        quantity: 1,
        unit_price: '65.00',
        line_total: '65.00',
      },
    ],
    subtotal: '65.00',
    discount_total: '6.50',
    shipping_total: '10.00',
    tax_total: '0.00',
    total: '68.50',
    coupon_code: 'WELCOME10',
  };

  test('a coupon and shipping: subtotal, the discount with its code, shipping and the total, in text and HTML', () => {
    const email = renderEmail({ kind: 'order_placed', payload: backpack }, BASE);
    assert.ok(
      email.text.includes(
        [
          '- 1 x Everyday Backpack 20L (colour: Charcoal), $65.00 each: $65.00',
          'Subtotal: $65.00\nDiscount (WELCOME10): -$6.50\nShipping: $10.00\nTotal: $68.50',
          'Shipping to:',
        ].join('\n\n'),
      ),
      email.text,
    );
    assert.doesNotMatch(email.text, /Tax/);
    assert.ok(
      email.html.includes('<p>Subtotal: $65.00<br>Discount (WELCOME10): -$6.50<br>Shipping: $10.00<br>Total: $68.50</p>'),
      email.html,
    );
  });

  test('tax is listed when there is some; free shipping says so', () => {
    const email = renderEmail(
      {
        kind: 'order_placed',
        payload: { ...backpack, shipping_total: '0.00', tax_total: '4.83', total: '63.33' },
      },
      BASE,
    );
    assert.ok(email.text.includes('Subtotal: $65.00\nDiscount (WELCOME10): -$6.50\nShipping: Free\nTax: $4.83\nTotal: $63.33'), email.text);
  });

  test('a discount without a coupon code is still listed; the HTML part escapes the code', () => {
    const uncoded = renderEmail({ kind: 'order_placed', payload: { ...backpack, coupon_code: null } }, BASE);
    assert.ok(uncoded.text.includes('\nDiscount: -$6.50\n'), uncoded.text);
    const odd = renderEmail({ kind: 'order_placed', payload: { ...backpack, coupon_code: 'A<B>&C' } }, BASE);
    assert.ok(odd.html.includes('Discount (A&lt;B&gt;&amp;C): -$6.50'), odd.html);
  });
});

describe('order cancelled', () => {
  test('by the customer: says so, lists the lines and the amounts to the total, the refund, and links to the order page', () => {
    const email = renderEmail({ kind: 'order_cancelled', payload: cancelled() }, BASE);
    assert.equal(email.subject, 'Order ORD-000042 is cancelled');
    assert.equal(email.link, `${BASE}/orders/ord_abc`);
    assert.equal(
      email.text,
      [
        'You cancelled your order ORD-000042.',
        '- 2 x Tee <b>bold</b> (Size: M, Colour: Blue & Green), $19.99 each: $39.98\n- 1 x Mug, $5.01 each: $5.01',
        'Subtotal: $44.99\nDiscount (SAVE10): -$4.50\nShipping: $10.00\nTax: $3.34\nTotal: $53.83',
        'Your payment of $53.83 was refunded in full.',
        `View your order: ${BASE}/orders/ord_abc`,
      ].join('\n\n') + '\n',
    );
    assert.ok(!email.html.includes('<b>bold</b>'), email.html);
    assert.ok(email.html.includes('<li>1 x Mug, $5.01 each: $5.01</li>'), email.html);
    assert.ok(email.html.includes('<p>Subtotal: $44.99<br>Discount (SAVE10): -$4.50<br>'), email.html);
  });

  test('a message queued before emails carried the amounts states the total alone, and the refund', () => {
    const { subtotal: _s, discount_total: _d, shipping_total: _sh, tax_total: _t, coupon_code: _c, ...old } = cancelled();
    const email = renderEmail({ kind: 'order_cancelled', payload: old as EmailPayloads['order_cancelled'] }, BASE);
    assert.ok(email.text.includes('$5.01\n\nTotal: $53.83.\n\nYour payment of $53.83 was refunded in full.'), email.text);
  });

  test('by staff: says the shop cancelled it; without a refund, no refund is claimed', () => {
    const email = renderEmail({ kind: 'order_cancelled', payload: cancelled({ cancelled_by: 'staff', refunded: false }) }, BASE);
    assert.match(email.text, /^We are sorry: your order ORD-000042 was cancelled by the shop/);
    assert.doesNotMatch(email.text, /refund/);
  });
});

describe('amounts in any currency', () => {
  test('every amount keeps its two decimals, whatever the currency prints by custom (yen: none, dinar: three)', () => {
    const yen = renderEmail({ kind: 'order_placed', payload: { ...placed, currency: 'JPY' } }, BASE);
    assert.ok(yen.text.includes('- 1 x Mug, ¥5.01 each: ¥5.01'), yen.text);
    assert.ok(yen.text.includes('Subtotal: ¥44.99\nShipping: ¥10.00\nTotal: ¥54.99'), yen.text);
    const dinar = renderEmail({ kind: 'order_cancelled', payload: cancelled({ currency: 'KWD' }) }, BASE);
    // Intl puts a no-break space between a code and its amount.
    assert.ok(dinar.text.includes('Your payment of KWD\u00a053.83 was refunded in full.'), dinar.text);
  });
});
