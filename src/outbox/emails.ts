/**
 * The emails the service sends and what each one's template reads
 * (src/email/templates.ts): one payload type per kind, so a caller cannot
 * queue an email its template cannot render.
 */
/** An order line as the order emails list it: the snapshot taken at checkout. */
export interface OrderEmailLine {
  product_name: string;
  sku: string;
  options: Record<string, string>;
  quantity: number;
  unit_price: string;
  line_total: string;
}

/** Where an order ships, as checkout snapshotted it (the order's `shipping_address`). */
export interface OrderEmailAddress {
  recipient_name: string;
  phone_number: string;
  label: string | null;
  country: string;
  state: string;
  city: string;
  address_1: string;
  address_2: string | null;
  zip_code: string | null;
}

/**
 * An order's money as the order stores and the API answers it (decimal strings, copied, never recomputed), so an
 * email can show how its lines come to its total. Messages queued before these were carried hold `total` alone.
 */
export interface OrderEmailAmounts {
  subtotal: string;
  discount_total: string;
  shipping_total: string;
  tax_total: string;
  total: string;
  /** The coupon the discount came from, as stored (upper case); null without one. */
  coupon_code: string | null;
}

export interface EmailPayloads {
  verify_email: { first_name: string; token: string };
  email_change_confirm: { token: string; new_email: string };
  email_changed_notice: { new_email: string };
  password_reset: { token: string };
  order_placed: OrderEmailAmounts & {
    order_public_id: string;
    order_number: string;
    currency: string;
    items: OrderEmailLine[];
    shipping_address: OrderEmailAddress;
  };
  order_shipped: { order_public_id: string; order_number: string; carrier: string; tracking_number: string | null };
  order_cancelled: OrderEmailAmounts & {
    order_public_id: string;
    order_number: string;
    currency: string;
    items: OrderEmailLine[];
    /** Whether the payment was refunded with the cancellation (the order's payment status is REFUNDED). */
    refunded: boolean;
    /** Who cancelled: the customer themselves, or the shop's staff. */
    cancelled_by: 'customer' | 'staff';
  };
  webhook_endpoint_paused: { endpoint_public_id: string; endpoint_origin: string; failing_since: string };
  staff_invitation: { token: string; role: 'ADMIN' | 'SUPER_ADMIN'; invited_by: string; expires_at: string };
}

export type EmailKind = keyof EmailPayloads;

/** A queued email as the worker takes it: its kind and the payload that kind carries. */
export type QueuedEmail = { [K in EmailKind]: { kind: K; payload: EmailPayloads[K] } }[EmailKind];
