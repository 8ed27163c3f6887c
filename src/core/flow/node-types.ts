/** Every node type a flow may hold, in the order the docs list them. */
export const NODE_TYPES = [
  'start',
  'end',
  'conversation',
  'recognition',
  'liveness_detection',
  'document_scan',
  'face_scan',
  'face_compare',
  'enter_email',
  'two_factor_email',
  'two_factor_sms',
  'data_validation',
  'permissions',
] as const;

export type NodeType = (typeof NODE_TYPES)[number];

/**
 * The outcome keys of each fixed-outcome node type. A node's `outcomes` object maps some of these
 * keys to target node ids; a key left out ends the session `incomplete` when the node selects it.
 */
export const FIXED_OUTCOMES = {
  recognition: ['recognized', 'newUser', 'noFace'],
  liveness_detection: ['livenessDetected', 'deepfakeDetected', 'noFace', 'inconclusive'],
  document_scan: ['scanSuccess', 'userCancelled', 'scanTimeout'],
  face_scan: ['passed', 'notPassed', 'cancelled', 'error'],
  face_compare: ['match', 'noMatch', 'imageUnavailable'],
  enter_email: ['emailEntered', 'canceled'],
  two_factor_email: ['verified', 'delivery_failed', 'failed_unverified', 'cancelled', 'error'],
  two_factor_sms: ['verified', 'delivery_failed', 'failed_unverified', 'cancelled', 'error'],
  permissions: ['permissionsGranted', 'permissionsDenied'],
} as const satisfies Partial<Record<NodeType, readonly string[]>>;

export type FixedOutcomeNodeType = keyof typeof FIXED_OUTCOMES;
export type OutcomeKey<T extends FixedOutcomeNodeType> = (typeof FIXED_OUTCOMES)[T][number];

/** Node types whose `outcomes` is an ordered array of `{ id, condition, targetNodeId }`. */
export const CONDITIONAL_NODE_TYPES = ['conversation', 'data_validation'] as const;
export type ConditionalNodeType = (typeof CONDITIONAL_NODE_TYPES)[number];

const nodeTypeSet: ReadonlySet<string> = new Set(NODE_TYPES);

/**
 * Whether a value names one of the thirteen node types.
 * @example isNodeType('face_scan') // true
 */
export function isNodeType(value: unknown): value is NodeType {
  return typeof value === 'string' && nodeTypeSet.has(value);
}

/**
 * Whether a node type routes by fixed outcome keys (an `outcomes` object).
 * @example isFixedOutcomeType('permissions') // true
 */
export function isFixedOutcomeType(type: NodeType): type is FixedOutcomeNodeType {
  return Object.hasOwn(FIXED_OUTCOMES, type);
}

/**
 * Whether a node type routes by an ordered array of conditional outcomes.
 * @example isConditionalType('conversation') // true
 */
export function isConditionalType(type: NodeType): type is ConditionalNodeType {
  return type === 'conversation' || type === 'data_validation';
}
