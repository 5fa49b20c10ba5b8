import type { Role } from '../../api/domain';

/**
 * Why this staff member may not suspend or reactivate `user`, or null when they may. The server's
 * rule (checkReach in src/admin-users/service.ts): never oneself; nobody acts on a SUPER_ADMIN (it
 * must be demoted first); an ADMIN acts on customer accounts only.
 */
export function suspensionBlockedBecause(me: { public_id: string; role: Role }, user: { public_id: string; role: Role }): string | null {
  if (user.public_id === me.public_id) return 'This is your own account';
  if (me.role !== 'SUPER_ADMIN' && user.role !== 'CUSTOMER') return 'Admins can suspend or reactivate customer accounts only';
  if (user.role === 'SUPER_ADMIN') return 'A super admin cannot be suspended or reactivated: change the role first';
  return null;
}
