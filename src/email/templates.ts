import type { QueuedEmail } from '../outbox/emails.js';

/** Plain-text and HTML bodies for every email the service sends. Links point at PUBLIC_BASE_URL. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** The action link, logged when mail is written to files so a newcomer can follow it. */
  link: string | null;
}

const escape = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escape(action.url)}" style="padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:4px">${escape(action.label)}</a></p>\n<p style="color:#666;font-size:12px">Or paste this link into your browser: ${escape(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:sans-serif;max-width:560px;margin:auto"><h2>${escape(title)}</h2>\n${body}\n${button}</body></html>`;
}

function build(title: string, paragraphs: string[], action?: { label: string; url: string }): RenderedEmail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : [])].join('\n\n') + '\n';
  return { subject: title, text, html: layout(title, paragraphs, action), link: action?.url ?? null };
}

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
          'We received a request to reset your password. The link is valid for 1 hour and works once.',
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
          `Total: ${payload.total} ${payload.currency}.`,
          'We will email you again when it ships.',
        ],
        {
          label: 'View your order',
          url: `${publicBaseUrl}/orders/${encodeURIComponent(String(payload.order_public_id))}`,
        },
      );
    case 'order_shipped':
      return build(
        `Order ${payload.order_number} has shipped`,
        [
          `Your order ${payload.order_number} is on its way with ${payload.carrier}.`,
          ...(payload.tracking_number ? [`Tracking number: ${payload.tracking_number}.`] : []),
        ],
        {
          label: 'View your order',
          url: `${publicBaseUrl}/orders/${encodeURIComponent(String(payload.order_public_id))}`,
        },
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
