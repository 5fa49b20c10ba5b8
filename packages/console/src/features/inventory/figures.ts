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

/** What reserving `change` units (releasing, when negative) leaves. */
export function reservationPreview(record: Figures, change: number): FigureChange[] {
  return [
    ['Reserved', count(record.quantity_reserved), count(record.quantity_reserved + change)],
    ['Available', count(record.quantity_available), count(record.quantity_available - change)],
  ];
}
