/**
 * Why a session ended `incomplete`, in the words a user understands: what the hosted page's end
 * screen says and what it offers next. A reason never tells a check's verdict: a spoof, a face
 * that does not match and a document that does not read all end as `stepNotCompleted`, so the page
 * says nothing a fraudster could learn from. A `complete` session has no reason (the page says
 * only that the verification was received).
 */
import type { NodeType } from './kinds';

export const END_REASONS = [
  /** The user left (Leave, or a Cancel on a step). */
  'left',
  /** The user declined the consent to capture. */
  'declined',
  /** The camera was not available (denied, none, or it failed). */
  'noCamera',
  /** A one-time code was not confirmed (wrong too often, not delivered, cancelled). */
  'codeNotConfirmed',
  /** The session's or a step's time ran out. */
  'timedOut',
  /** The flow's own routing stopped here (a conversation or data check without a next node). */
  'stopped',
  /** A check could not be completed; which, and why, is for the integrator's report only. */
  'stepNotCompleted',
] as const;
export type EndReason = (typeof END_REASONS)[number];

/** The last step of an incomplete session: the node, the outcome it chose and its report. */
export interface EndingStep {
  type: NodeType;
  outcome: string;
  inconclusiveReason?: string | undefined;
  report?: Record<string, unknown> | undefined;
}

const CODE_NOT_CONFIRMED: Partial<Record<string, EndReason>> = {
  failed_unverified: 'codeNotConfirmed',
  delivery_failed: 'codeNotConfirmed',
  error: 'codeNotConfirmed',
  cancelled: 'codeNotConfirmed',
};

/** The reason of an outcome without a target, by node type; anything not listed is a check. */
const BY_OUTCOME: Partial<Record<NodeType, Partial<Record<string, EndReason>>>> = {
  permissions: { permissionsDenied: 'noCamera' },
  enter_email: { canceled: 'left' },
  two_factor_email: CODE_NOT_CONFIRMED,
  two_factor_sms: CODE_NOT_CONFIRMED,
  document_scan: { userCancelled: 'left', scanTimeout: 'timedOut' },
  face_scan: { cancelled: 'left' },
  conversation: {},
  data_validation: {},
};

const cameraWasMissing = (step: EndingStep): boolean =>
  step.inconclusiveReason === 'cameraUnavailable' || step.report?.['cameraUnavailable'] === true;

/**
 * The reason a session ended when `step` chose an outcome with no target.
 *
 * @example
 * endReasonOf({ type: 'two_factor_email', outcome: 'failed_unverified' }); // 'codeNotConfirmed'
 * endReasonOf({ type: 'liveness_detection', outcome: 'deepfakeDetected' }); // 'stepNotCompleted'
 * endReasonOf({ type: 'liveness_detection', outcome: 'inconclusive', inconclusiveReason: 'cameraUnavailable' }); // 'noCamera'
 */
export function endReasonOf(step: EndingStep): EndReason {
  if (cameraWasMissing(step)) return 'noCamera';
  if (step.type === 'conversation' || step.type === 'data_validation') return 'stopped';
  return BY_OUTCOME[step.type]?.[step.outcome] ?? 'stepNotCompleted';
}
