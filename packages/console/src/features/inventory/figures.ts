import { count } from '../../lib/format';

/** A stock record's figures, as the forms that change them need them. */
export interface Figures {
  quantity_on_hand: number;
  quantity_reserved: number;
  quantity_available: number;
  reorder_level: number | null;
}

/** A figure before and after a change, as the confirmation shows it: [label, before, after]. */
export type FigureChange = [label: string, before: string, after: string];

/** What an adjustment leaves: on hand set to `amount`, or moved by it; available moves with it. */
export function adjustmentPreview(record: Figures, mode: 'change' | 'set', amount: number): { onHand: number; lines: FigureChange[] } {
  const onHand = mode === 'set' ? amount : record.quantity_on_hand + amount;
  return {
    onHand,
    lines: [
      ['On hand', count(record.quantity_on_hand), count(onHand)],
      ['Available', count(record.quantity_available), count(onHand - record.quantity_reserved)],
    ],
  };
}

/**
 * Why the API would refuse an adjustment (src/inventory: on hand never goes below zero; below what is
 * reserved it may go, leaving available negative), told before it is sent; null when it would not.
 */
export function adjustmentRefusal(record: Figures, mode: 'change' | 'set', amount: number): string | null {
  const onHand = mode === 'set' ? amount : record.quantity_on_hand + amount;
  return onHand < 0 ? `On-hand quantity cannot go below zero (it would be ${count(onHand)})` : null;
}

/**
 * Why the API would refuse reserving `change` units (releasing, when negative), told before it is
 * sent: a reservation needs units available, and nothing releases more than is reserved. (A release
 * below what open orders hold is refused too, but only the API knows what they hold.)
 */
export function reservationRefusal(record: Figures, change: number): string | null {
  if (change > 0 && record.quantity_available - change < 0) {
    const available = Math.max(record.quantity_available, 0);
    return `Only ${count(available)} available: reserving ${count(change)} would leave ${count(record.quantity_available - change)}`;
  }
  if (change < 0 && record.quantity_reserved + change < 0) {
    return `Only ${count(record.quantity_reserved)} reserved: releasing ${count(-change)} would leave ${count(record.quantity_reserved + change)}`;
  }
  return null;
}

/** "Reserved 3 → 5 · Available 7 → 5": a change's figures before and after, on one line. */
export const previewLine = (lines: FigureChange[]) => lines.map(([label, before, after]) => `${label} ${before} → ${after}`).join(' · ');

/** What reserving `change` units (releasing, when negative) leaves. */
export function reservationPreview(record: Figures, change: number): FigureChange[] {
  return [
    ['Reserved', count(record.quantity_reserved), count(record.quantity_reserved + change)],
    ['Available', count(record.quantity_available), count(record.quantity_available - change)],
  ];
}

/** A movement as the API lists it: how each figure moved, and where it ended. */
export interface Movement {
  delta_on_hand: number;
  delta_reserved: number;
  quantity_on_hand_after: number;
  quantity_reserved_after: number;
}

const signed = (n: number) => (n > 0 ? `+${count(n)}` : `−${count(-n)}`);

/**
 * What a movement changed, and only that: "Reserved +3, now 3" for a reservation (on hand did not
 * move, so it is not shown as "0 → 23"); "On hand −2, now 21 · Reserved −2, now 0" for a shipment.
 */
export function movementChange(m: Movement): string {
  const parts = [
    ...(m.delta_on_hand !== 0 ? [`On hand ${signed(m.delta_on_hand)}, now ${count(m.quantity_on_hand_after)}`] : []),
    ...(m.delta_reserved !== 0 ? [`Reserved ${signed(m.delta_reserved)}, now ${count(m.quantity_reserved_after)}`] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : 'No change';
}
