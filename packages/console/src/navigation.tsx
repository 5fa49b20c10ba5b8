import type { LinkProps } from '@tanstack/react-router';
import { IconCash, IconGauge, IconReceipt } from '@tabler/icons-react';
import type { ComponentType } from 'react';

export interface NavItem {
  label: string;
  to: NonNullable<LinkProps['to']>;
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
    ],
  },
  {
    label: 'Administration',
    items: [{ label: 'Money', to: '/money', icon: IconCash, superOnly: true }],
  },
];
