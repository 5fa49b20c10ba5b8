import type { LinkProps } from '@tanstack/react-router';
import {
  IconBox,
  IconCash,
  IconCategory,
  IconShirt,
  IconMessageStar,
  IconTicket,
  IconGauge,
  IconHistory,
  IconReceipt,
  IconUsers,
  IconUserShield,
  IconMailPlus,
  IconTransfer,
  IconWebhook,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

export interface NavItem {
  label: string;
  to: NonNullable<LinkProps['to']>;
  /** A preset filter, for entries that are a view of another list (Staff is accounts with role ADMIN or SUPER_ADMIN). */
  search?: Record<string, string>;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  /** Shown to SUPER_ADMIN only; the server enforces the same rule. */
  superOnly?: boolean;
}

export interface NavSection {
  label: string;
  items: NavItem[];
}

export const NAVIGATION: NavSection[] = [
  {
    label: 'Store',
    items: [
      { label: 'Dashboard', to: '/', icon: IconGauge },
      { label: 'Orders', to: '/orders', icon: IconReceipt },
      { label: 'Products', to: '/products', icon: IconShirt },
      { label: 'Categories', to: '/categories', icon: IconCategory },
      { label: 'Inventory', to: '/inventory', icon: IconBox },
      { label: 'Reviews', to: '/reviews', icon: IconMessageStar },
      { label: 'Coupons', to: '/coupons', icon: IconTicket },
      { label: 'Customers', to: '/customers', icon: IconUsers },
      { label: 'Import and export', to: '/import-export', icon: IconTransfer },
    ],
  },
  {
    label: 'Administration',
    items: [
      { label: 'Money', to: '/money', icon: IconCash, superOnly: true },
      { label: 'Staff', to: '/customers', search: { role: 'STAFF' }, icon: IconUserShield, superOnly: true },
      { label: 'Invitations', to: '/invitations', icon: IconMailPlus, superOnly: true },
      { label: 'Webhooks', to: '/webhooks', icon: IconWebhook, superOnly: true },
      { label: 'Audit log', to: '/audit', icon: IconHistory, superOnly: true },
    ],
  },
];
