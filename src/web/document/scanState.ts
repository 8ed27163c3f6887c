import type { DocumentAnswer, DocumentRetryReason } from '../api/types';
import type { CameraErrorKind } from '../camera/cameraError';
import type { DocumentType } from './guide';
import { SHARP_MIN } from './sharpness';

export type Side = 'front' | 'back';
export type ScanningMode = 'single' | 'automatic';
/** Where a photo came from: the automatic capture, the shutter button, or a chosen file. */
export type PhotoSource = 'auto' | 'manual' | 'upload';

/** The document screen's state (docs/document-screen.md). */
export interface ScanState {
  type: DocumentType;
  mode: ScanningMode;
  /** The side the next photo shows. */
  side: Side;
  camera: 'starting' | 'live' | CameraErrorKind;
  /** The call under way: a photo being read, or the node being ended. */
  busy: null | 'reading' | 'cancelling' | 'timingOut';
  /** The server moved the flow on (read, timeout, cancel): nothing more happens here. */
  ended: boolean;
  /** Photos the server has read at this node. */
  attempts: number;
  /** Why the last photo was not enough (what the hint says until the next one). */
  lastRetry: DocumentRetryReason | null;
  /** No automatic capture before this time (ms): the user gets a moment to change something. */
  pausedUntil: number;
  /** The retry's words stay in the hint until then. */
  retryShownUntil: number;
  /** The node's time ran out while a photo was being read: end it once the answer is in. */
  timeUp: boolean;
  problem: 'network' | 'refused' | null;
  /**
   * Photos refused at this document, by reason, since the screen opened, the document type changed
   * or the user tried again after an offer. Licence backs without a barcode count only in a row.
   */
  refusals: Partial<Record<DocumentRetryReason, number>>;
  /**
   * The reason that came back too often in a row (`offerAfter`): the screen says it and offers an
   * upload, another document or another try; the camera takes no photo until the user chooses.
   */
  offer: DocumentRetryReason | null;
}

export type ScanEvent =
  | { type: 'camera'; status: 'starting' | 'live' }
  | { type: 'cameraError'; kind: CameraErrorKind }
  | { type: 'choose'; documentType: DocumentType }
  | { type: 'send'; source: PhotoSource }
  | { type: 'answer'; answer: DocumentAnswer; now: number }
  | { type: 'failed'; problem: 'network' | 'refused'; now: number }
  | { type: 'cancel' }
  | { type: 'timeUp' }
  /** The server said the time is not up yet (the page's clock ran ahead): try again later. */
  | { type: 'tooEarly' }
  /** A cancel or timeout call answered with a position. */
  | { type: 'left' }
  /** The user chose to try again after the offer (the same document, or another of its type). */
  | { type: 'retryOffer' };

/** The pause after a refused photo before the camera captures again. */
export const RETRY_PAUSE_MS = 2000;
/** After the front of an ID card: time to turn it over. */
export const TURN_PAUSE_MS = 3000;
/** How long the picture must hold still before the automatic capture. */
export const STEADY_MS = 500;
/** Licence backs without a barcode before the screen says which documents work. */
export const NO_BARCODE_OFFER = 2;
/** Photos refused for the same reason at one document before the screen offers another way. */
export const REPEAT_OFFER = 3;

/**
 * How many photos refused for `reason` make the screen stop and offer another way: a licence
 * back without a barcode soon (it will not grow one; counted in a row), a front kept never (it
 * moves on to the back), any other reason after REPEAT_OFFER (a passport whose check digits fail
 * every time is not helped by "avoid glare" every few seconds).
 *
 * @example
 * offerAfter('checks_failed'); // 3
 * offerAfter('no_barcode'); // 2
 */
export function offerAfter(reason: DocumentRetryReason): number {
  if (reason === 'front_saved') return Infinity;
  return reason === 'no_barcode' ? NO_BARCODE_OFFER : REPEAT_OFFER;
}

/** Documents with a front (the portrait) and a back (the zone or barcode). */
const TWO_SIDED: ReadonlySet<DocumentType> = new Set(['id', 'residence-permit', 'dl']);

/**
 * The side a document's first photo shows: a passport's data page and a visa are `front`; an ID
 * card's or residence permit's zone and a licence's barcode are on the back, so `single` asks for
 * the back and `automatic` for the front first (kept for its portrait and printed fields, which
 * the server checks against the back), then the back.
 *
 * @example
 * firstSide('dl', 'single'); // 'back'
 * firstSide('id', 'automatic'); // 'front'
 */
export function firstSide(type: DocumentType, mode: ScanningMode): Side {
  if (!TWO_SIDED.has(type)) return 'front';
  return mode === 'single' ? 'back' : 'front';
}

/**
 * The screen's first state for the node's first allowed document type.
 *
 * @example
 * initialScan('passport', 'single').side; // 'front'
 */
export function initialScan(type: DocumentType, mode: ScanningMode): ScanState {
  return {
    type,
    mode,
    side: firstSide(type, mode),
    camera: 'starting',
    busy: null,
    ended: false,
    attempts: 0,
    lastRetry: null,
    pausedUntil: 0,
    retryShownUntil: 0,
    timeUp: false,
    problem: null,
    refusals: {},
    offer: null,
  };
}

/**
 * The next state after an event. Pure: the screen makes the calls and reports their answers.
 * Nothing is sent while a photo is being read (the server reads one at a time) or after the
 * node ended; a read or a timeout ends it; any other answer keeps the camera going after a pause.
 *
 * @example
 * let s = initialScan('passport', 'single');
 * s = scanStep(s, { type: 'camera', status: 'live' });
 * s = scanStep(s, { type: 'send', source: 'auto' }); // busy: 'reading'
 */
export function scanStep(s: ScanState, e: ScanEvent): ScanState {
  if (s.ended) return s;
  switch (e.type) {
    case 'camera':
      return { ...s, camera: e.status };
    case 'cameraError':
      return { ...s, camera: e.kind };
    case 'choose':
      if (s.busy || e.documentType === s.type) return s;
      return {
        ...s,
        type: e.documentType,
        side: firstSide(e.documentType, s.mode),
        lastRetry: null,
        retryShownUntil: 0,
        refusals: {},
        offer: null,
      };
    case 'send':
      if (s.busy) return s;
      return { ...s, busy: 'reading', problem: null };
    case 'answer': {
      if (s.busy !== 'reading') return s;
      const a = e.answer;
      if (a.status !== 'retry') return { ...s, busy: null, ended: true, problem: null };
      const turned = a.reason === 'front_saved' && TWO_SIDED.has(s.type) && s.side === 'front';
      // A front kept means something only for a two-sided card; otherwise it was unreadable.
      const reason: DocumentRetryReason =
        a.reason === 'front_saved' && !turned ? 'unreadable' : a.reason;
      const pause = turned ? TURN_PAUSE_MS : RETRY_PAUSE_MS;
      // A blurred photo between two check-digit failures does not start the count again.
      const refusals = {
        ...s.refusals,
        ...(reason === 'no_barcode' ? {} : { no_barcode: 0 }),
        [reason]: (s.refusals[reason] ?? 0) + 1,
      };
      return {
        ...s,
        busy: null,
        attempts: a.attempts,
        lastRetry: reason,
        side: turned ? 'back' : s.side,
        pausedUntil: e.now + pause,
        retryShownUntil: e.now + pause + RETRY_PAUSE_MS,
        refusals,
        offer: (refusals[reason] ?? 0) >= offerAfter(reason) ? reason : null,
      };
    }
    case 'failed':
      if (s.busy === null) return s;
      return {
        ...s,
        busy: null,
        problem: e.problem,
        pausedUntil: e.now + RETRY_PAUSE_MS,
      };
    case 'cancel':
      if (s.busy) return s;
      return { ...s, busy: 'cancelling', problem: null };
    case 'timeUp':
      // A photo being read gets its own answer first (the server may still read it in time).
      if (s.busy === 'reading') return { ...s, timeUp: true };
      if (s.busy) return s;
      return { ...s, busy: 'timingOut', timeUp: false, problem: null };
    case 'tooEarly':
      return s.busy === 'timingOut' ? { ...s, busy: null } : s;
    case 'left':
      return { ...s, busy: null, ended: true };
    case 'retryOffer':
      return { ...s, offer: null, refusals: {}, lastRetry: null, retryShownUntil: 0 };
  }
}

/** What the camera's checks saw in the latest frame. */
export interface FrameReading {
  /** Sides of the guide with a document edge (0–4). */
  sides: number;
  /** Laplacian variance of the guide's area (see `sharpness.ts`). */
  sharpness: number;
  /** Since when the picture has held still, or null. */
  steadySince: number | null;
}

/**
 * Whether the camera should take the photo now: the document fills the guide (three sides or
 * more), the picture is sharp and has held still for `STEADY_MS`, no photo is being read, the
 * pause after the last answer is over and the user is not being offered another way.
 *
 * @example
 * readyToCapture(state, { sides: 4, sharpness: 900, steadySince: now - 600 }, now);
 */
export function readyToCapture(s: ScanState, r: FrameReading | null, now: number): boolean {
  return (
    r !== null &&
    s.camera === 'live' &&
    s.busy === null &&
    !s.ended &&
    !s.timeUp &&
    s.offer === null &&
    now >= s.pausedUntil &&
    r.sides >= 3 &&
    r.sharpness >= SHARP_MIN &&
    r.steadySince !== null &&
    now - r.steadySince >= STEADY_MS
  );
}

/** The hint under the guide, as a key of `document.hints` (its words depend on the type and side). */
export type ScanHint =
  | 'place'
  | 'placeBack'
  | 'placeFront'
  | 'focus'
  | 'holdStill'
  | 'reading'
  | 'done'
  | DocumentRetryReason;

/**
 * The hint for the current state and frame: reading, then the last refusal's reason for a few
 * seconds, then guidance from the frame (place the document, wait for focus, hold still).
 *
 * @example
 * scanHint(state, null, now); // 'place'
 */
export function scanHint(s: ScanState, r: FrameReading | null, now: number): ScanHint {
  if (s.ended) return 'done';
  if (s.busy === 'reading') return 'reading';
  if (s.lastRetry && now < s.retryShownUntil) return s.lastRetry;
  const place: ScanHint = !TWO_SIDED.has(s.type)
    ? 'place'
    : s.side === 'back'
      ? 'placeBack'
      : 'placeFront';
  if (!r || s.camera !== 'live' || r.sides < 3) return place;
  if (r.sharpness < SHARP_MIN) return 'focus';
  return 'holdStill';
}
