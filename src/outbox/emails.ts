/**
 * The emails the service sends and what each one's template reads
 * (src/email/templates.ts): one payload type per kind, so a caller cannot
 * queue an email its template cannot render.
 */
export interface EmailPayloads {
  verify_email: { first_name: string; token: string };
  email_change_confirm: { token: string; new_email: string };
  email_changed_notice: { new_email: string };
  password_reset: { token: string };
  order_placed: { order_public_id: string; order_number: string; total: string; currency: string };
  order_shipped: { order_public_id: string; order_number: string; carrier: string; tracking_number: string | null };
  webhook_endpoint_paused: { endpoint_public_id: string; endpoint_origin: string; failing_since: string };
  staff_invitation: { token: string; role: 'ADMIN' | 'SUPER_ADMIN'; invited_by: string; expires_at: string };
}

export type EmailKind = keyof EmailPayloads;

/** A queued email as the worker takes it: its kind and the payload that kind carries. */
export type QueuedEmail = { [K in EmailKind]: { kind: K; payload: EmailPayloads[K] } }[EmailKind];
