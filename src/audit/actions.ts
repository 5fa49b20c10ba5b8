/**
 * Every action the audit log records, with what it means: writeAudit takes only these, the log's
 * `action` filter is this list in the OpenAPI document (so the console offers it from the
 * generated types), and an entry's `entity_type` says what its `entity_public_id` names.
 */
export const AUDIT_ACTIONS = {
  'auth.register': 'An account registered',
  'auth.login': 'A sign-in',
  'auth.login_failed': 'A failed sign-in',
  'auth.login_refused': 'A sign-in with the right password to a suspended account',
  'auth.logout': 'A sign-out',
  'auth.session_revoke': 'A session ended by its account',
  'auth.session_revoke_others': 'An account ended all its other sessions',
  'auth.email_verify': 'An email address verified',
  'auth.password_change': 'A password changed',
  'auth.password_check_failed': 'A wrong current password when changing the password or email',
  'auth.password_reset_request': 'A password reset asked for',
  'auth.password_reset': 'A password reset through its link',
  'user.profile_update': 'A profile edited',
  'user.email_change_request': 'An email change asked for',
  'user.email_change': 'An email change confirmed',
  'user.suspend': 'An account suspended',
  'user.activate': 'An account reactivated',
  'user.role_change': "An account's role changed",
  'staff.invite': 'A person invited to the staff',
  'staff.invitation_revoke': 'A staff invitation revoked',
  'staff.invitation_accept': 'A staff invitation accepted',
  'category.create': 'A category created',
  'category.update': 'A category renamed or moved',
  'category.delete': 'A category deleted',
  'category.link_product': 'A product added to a category',
  'category.unlink_product': 'A product taken out of a category',
  'product.create': 'A product created',
  'product.update': 'A product edited',
  'product.duplicate': 'A product copied',
  'product.delete': 'A product deleted',
  'variant.create': 'A variant created',
  'variant.update': 'A variant edited',
  'variant.delete': 'A variant deleted',
  'inventory.create': 'A stock record created',
  'inventory.adjust': 'Stock adjusted',
  'inventory.reserve': 'Stock held by hand',
  'inventory.release': 'A hold released by hand',
  'order.status_change': "An order's status changed",
  'coupon.create': 'A coupon created',
  'coupon.update': 'A coupon edited',
  'coupon.delete': 'A coupon deleted',
  'review.moderate': 'A review approved or rejected',
  'expense.create': 'An expense recorded',
  'expense.update': 'An expense edited',
  'expense.delete': 'An expense deleted',
  'user.admin_create': 'An administrator created or raised by the admin:create command',
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];
