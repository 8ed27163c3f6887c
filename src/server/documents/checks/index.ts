/**
 * The forgery and consistency checks of a document (docs/documents.md, "Forgery and consistency
 * checks"), each a plain function of what was read and seen; `documentChecks` lists them all for
 * the node report. A document failing any is not `scanSuccess`.
 */
import type { AamvaResult } from '../../../core/aamva';
import type { MrzResult } from '../../../core/mrz';
import type { OriginalVerdict } from '../original';
import { datesCheck } from './dates';
import { faceCheck, type FaceOnPage } from './face';
import { licenceIssuerCheck, stateCheck } from './states';
import { check, type CheckName, type DocumentCheck } from './types';
import { specimenCheck, visualZoneCheck } from './viz';

export { check, type CheckName, type CheckResult, type DocumentCheck } from './types';

export interface CheckInput {
  mode: 'test' | 'live';
  today: number;
  read: { mrz: MrzResult; licence?: undefined } | { licence: AamvaResult; mrz?: undefined };
  /** OCR text of the printed fields (the page's, or a two-sided card's front), null if none seen. */
  viz: string | null;
  /** Large print read off each side, searched for SPECIMEN and VOID only. */
  bigText: readonly string[];
  /** Each side's stamp ink read alone (`stamp.ts`), searched for SPECIMEN and VOID only. */
  stampText: readonly string[];
  /** The portrait side's face: undefined when no such side was seen, null when none was found. */
  face: FaceOnPage | null | undefined;
  /** Each photographed side's verdict. */
  original: readonly { side: string; verdict: OriginalVerdict }[];
}

/**
 * Every check, in the report's order.
 *
 * @example
 * const checks = documentChecks({ mode: 'live', today, read: { mrz }, viz, bigText: [], stampText: [], face, original });
 * checks.some((c) => c.result === 'failed'); // the document is refused
 */
export function documentChecks(input: CheckInput): DocumentCheck[] {
  const { read, mode, today } = input;
  const out: DocumentCheck[] = [];
  const data = read.mrz ? read.mrz.data : read.licence.data;
  if (read.mrz) {
    out.push(stateCheck('issuingState', read.mrz.data.issuingCountry, mode));
    out.push(stateCheck('nationality', read.mrz.data.nationality, mode));
    out.push(datesCheck({ ...data, issueDate: '' }, today, 'zone'));
  } else {
    out.push(licenceIssuerCheck(read.licence));
    out.push(check('nationality', null, 'licences do not state it'));
    out.push(datesCheck({ ...data, issueDate: read.licence.issueDate }, today, 'licence'));
  }
  out.push(visualZoneCheck(input.viz, data));
  out.push(faceCheck(input.face));
  const name = read.mrz ? [`${data.lastName} ${data.firstName}`] : [];
  const names = [data.lastName, data.firstName];
  out.push(
    specimenCheck({
      fields: [...(input.viz ? [input.viz] : []), ...name],
      bigPrint: input.bigText,
      stampInk: input.stampText,
      names,
    }),
  );
  out.push(originalCheck(input.original));
  return out;
}

/** The `original` check over each photographed side's verdict. */
function originalCheck(original: CheckInput['original']): DocumentCheck {
  const flagged = original.filter((o) => !o.verdict.ok);
  if (flagged.length === 0) return check('original', original.length > 0 ? true : null);
  const detail = flagged.map((o) => `${o.side}: ${o.verdict.flags.join(', ')}`).join('; ');
  return check('original', false, detail);
}

/**
 * The checks of a side from which nothing was read: a photocopy or a screen is told as such even
 * when its zone or barcode did not come through (a screen's moiré can hide a barcode), rather than
 * as unreadable. Null when no side was flagged: the side is then simply unreadable. The other
 * checks need a read and are `not_performed`.
 *
 * @example
 * unreadChecks([{ side: 'back', verdict: { ok: false, flags: ['moire'] } }]);
 * // [..., { name: 'original', result: 'failed', detail: 'back: moire' }]
 */
export function unreadChecks(original: CheckInput['original']): DocumentCheck[] | null {
  const verdict = originalCheck(original);
  if (verdict.result !== 'failed') return null;
  const others: CheckName[] = [
    'issuingState',
    'nationality',
    'dates',
    'visualZone',
    'face',
    'specimen',
  ];
  return [...others.map((name) => check(name, null, 'nothing read')), verdict];
}
