import type { OrderStatus } from './schemas.js';

/** The order lifecycle (contract section 8). Anything not listed is 409 INVALID_TRANSITION. */
const ALLOWED: Record<OrderStatus, readonly OrderStatus[]> = {
  PLACED: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['SHIPPED', 'CANCELLED'],
  SHIPPED: ['FULFILLED'],
  FULFILLED: [],
  CANCELLED: [],
};

export const canMove = (from: OrderStatus, to: OrderStatus): boolean => ALLOWED[from].includes(to);

export const allowedFrom = (from: OrderStatus): readonly OrderStatus[] => ALLOWED[from];
