/**
 * What each side of each kind of document carries, so that a side is read only for what it can
 * hold (docs/documents.md, "Sides"): a passport page its TD3 zone and portrait; a visa its MRV-A
 * or MRV-B zone and portrait; an ID card or residence permit its portrait on the front (with the
 * zone there only on TD2 cards) and a TD1 zone, a TD2 zone or an AAMVA barcode on the back; a
 * driving licence its portrait on the front and its AAMVA barcode on the back.
 */
import type { DocumentKind } from '../../core/flow';
import { READ_EVERYTHING, type ReadPlan } from './reader';

export interface SidePlan extends ReadPlan {
  /** The side shows the portrait and the printed fields. */
  portrait: boolean;
}

const NOTHING: ReadPlan = { zones: [], barcode: false, fallbacks: false };

/**
 * The plan for one side of a kind of document (null: the page did not say which document; then
 * everything is looked for).
 *
 * @example
 * planFor('dl', 'front'); // { zones: [], barcode: false, fallbacks: false, portrait: true }
 * planFor('id', 'back').zones; // ['3x30', '2x36']
 */
export function planFor(kind: DocumentKind | null, side: 'front' | 'back'): SidePlan {
  switch (kind) {
    case null:
      return { ...READ_EVERYTHING, portrait: side === 'front' };
    case 'passport':
      return { zones: ['2x44'], barcode: false, portrait: true };
    case 'visa':
      return { zones: ['2x44', '2x36'], barcode: false, portrait: true };
    case 'id':
    case 'residence-permit':
      return side === 'front'
        ? { zones: ['2x36'], barcode: false, fallbacks: false, portrait: true }
        : { zones: ['3x30', '2x36'], barcode: kind === 'id', portrait: false };
    case 'dl':
      return side === 'front'
        ? { ...NOTHING, portrait: true }
        : { zones: [], barcode: true, portrait: false };
  }
}
