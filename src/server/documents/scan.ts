/**
 * One photographed side, from its bytes to its answer (docs/documents.md, "Outcome"): read what
 * the side carries (`plan.ts`), gather what the checks need (`evidence.ts`), and decide: read and
 * passing every forgery and consistency check (`checks/`), or why not. The node's service keeps
 * the front of a two-sided card between its two photos; the benchmark calls this the same way.
 */
import type { DocumentKind } from '../../core/flow';
import type { MrzCheck } from '../../core/mrz';
import { documentChecks, unreadChecks, type DocumentCheck } from './checks';
import { gatherEvidence, type SideEvidence } from './evidence';
import { nameByViz } from './name-by-viz';
import type { MrzOcr } from './ocr';
import { planFor } from './plan';
import type { DocumentReader, ReadOutcome } from './reader';

export type ScanResultKind =
  | 'read'
  | 'unreadable'
  | 'checks_failed'
  | 'expired'
  | 'front_saved'
  | 'no_barcode'
  | 'not_genuine';

export interface ScanRequest {
  image: Uint8Array;
  side: 'front' | 'back';
  /** The document the page asked for (null: not said). */
  kind: DocumentKind | null;
  /** The kinds the node allows. */
  allowed: readonly DocumentKind[];
  mode: 'test' | 'live';
  today: number;
  /** A two-sided card's front, seen earlier at this node. */
  front: SideEvidence | null;
}

export interface ScanResult {
  result: ScanResultKind;
  read: ReadOutcome;
  evidence: SideEvidence;
  /** `TD3`, `TD1`, `TD2`, `MRV-A`, `MRV-B` or `AAMVA`. */
  format?: string;
  fields?: Record<string, string>;
  /** The zone's check digits. */
  checks?: MrzCheck[];
  documentChecks?: DocumentCheck[];
  problems?: string[];
}

/** The kind a read's document type belongs to (a card may be an ID card or a residence permit). */
function kindsOfType(type: string): DocumentKind[] {
  if (type === 'passport' || type === 'visa' || type === 'dl') return [type];
  if (type === 'id') return ['id', 'residence-permit'];
  return [];
}

/**
 * Scans one side.
 *
 * @example
 * const r = await scanSide(reader, textOcr, { image, side: 'front', kind: 'passport', allowed: ['passport'], mode: 'live', today: Date.now(), front: null });
 * r.result; // 'read'
 */
export async function scanSide(
  reader: DocumentReader,
  textOcr: MrzOcr,
  req: ScanRequest,
): Promise<ScanResult> {
  const plan = planFor(req.kind, req.side);
  let read = await reader.read(req.image, req.today, plan);
  const twoSided = req.kind === 'id' || req.kind === 'residence-permit' || req.kind === 'dl';
  const evidence = await gatherEvidence(reader, textOcr, read, req.side, {
    portrait: plan.portrait,
    // Face and text matter only for a read (or one whose name the printed fields may settle),
    // or for a front kept for the back's read.
    worthIt:
      read.status === 'read' ||
      (plan.portrait && read.nameOptions !== null) ||
      (plan.portrait && read.mrz === null && twoSided),
    ...(read.status === 'read' ? { want: read.licence?.data ?? read.mrz!.data } : {}),
  });
  if (read.status === 'unreadable' && read.nameOptions) {
    const settled = nameByViz(
      read.nameOptions,
      plan.portrait ? evidence.vizText : (req.front?.vizText ?? null),
    );
    if (settled) {
      const status = settled.expired ? 'expired' : 'read';
      read = { ...read, status, mrz: settled, unsure: null, nameOptions: null };
    }
  }
  const base = { read, evidence };
  const mrz = read.mrz;
  const licence = read.licence;
  const format = licence ? 'AAMVA' : mrz?.format;
  const withRead = {
    ...base,
    ...(format ? { format } : {}),
    ...(mrz ? { checks: mrz.checks, problems: [...mrz.problems] } : {}),
    ...(licence ? { problems: [...licence.problems] } : {}),
  };
  const sides = [req.front, evidence].flatMap((e) =>
    e?.original ? [{ side: e.side, verdict: e.original }] : [],
  );
  if (read.status !== 'read') {
    // A photocopy or a screen is refused as one, whatever could or could not be read of it (a
    // card's front too: kept, it would only be refused with the back).
    const unread = unreadChecks(sides);
    if (unread) return { ...withRead, result: 'not_genuine', documentChecks: unread };
    const frontOfCard = req.side === 'front' && !mrz && !licence && read.page !== null;
    if (frontOfCard && (req.kind === null || twoSided))
      return { ...withRead, result: 'front_saved' };
    if (plan.barcode && plan.zones.length === 0 && !read.barcodeFound && !mrz)
      return { ...withRead, result: 'no_barcode' };
    return { ...withRead, result: read.status };
  }
  const data: Record<string, string> = { ...(licence ? licence.data : mrz!.data) };
  const kinds = kindsOfType(data['documentType'] ?? '');
  const kind =
    req.kind && kinds.includes(req.kind) ? req.kind : kinds.find((k) => req.allowed.includes(k));
  if (!kind || !req.allowed.includes(kind)) {
    return {
      ...withRead,
      result: 'unreadable',
      problems: [...(withRead.problems ?? []), `document_type_not_allowed:${data['documentType']}`],
    };
  }
  // A card read as a residence permit is reported as one.
  if (kind === 'residence-permit') data['documentType'] = 'residence-permit';
  // The printed fields and the portrait: this side's, or a two-sided card's front.
  const portraitSide = plan.portrait ? evidence : req.front;
  const checks = documentChecks({
    mode: req.mode,
    today: req.today,
    read: licence ? { licence } : { mrz: mrz! },
    viz: portraitSide ? (portraitSide.vizText ?? '') : null,
    bigText: [req.front?.bigText ?? '', evidence.bigText ?? ''].filter(Boolean),
    stampText: [req.front?.stampText ?? '', evidence.stampText ?? ''].filter(Boolean),
    face: portraitSide && reader.faces ? (portraitSide.face ?? null) : undefined,
    original: sides,
  });
  const failed = checks.some((c) => c.result === 'failed');
  return {
    ...withRead,
    result: failed ? 'not_genuine' : 'read',
    fields: data,
    documentChecks: checks,
  };
}
