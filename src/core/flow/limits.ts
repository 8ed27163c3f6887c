/**
 * Size limits and option bounds of a flow. `maxNodes` and `maxPromptLength` come from the
 * interface decisions; the others are this service's own choices, documented in docs/flows.md.
 */
export const FLOW_LIMITS = {
  maxNodes: 200,
  maxPromptLength: 2000,
  /** Node ids and conditional outcome ids. */
  maxIdLength: 100,
  /** Items in a conversation or data_validation `outcomes` array. */
  maxConditionalOutcomes: 20,
  /** A `providedData` key may be at most 40 characters (the session limit). */
  maxDataKeyLength: 40,
  /** `validateFlow` lists at most this many problems, then one that counts the rest. */
  maxProblems: 100,
  otpLength: { min: 4, max: 8, default: 6 },
  expirySeconds: { min: 60, max: 3600, default: 300 },
  maxAttempts: { min: 1, max: 10, default: 3 },
  resendAfterSeconds: { min: 0, max: 600, default: 30 },
  challenges: { min: 1, max: 5, default: 3 },
  /** Attempts of a camera node (liveness_detection, face_scan) judged before its outcome stands. */
  cameraAttempts: { min: 1, max: 5, default: 3 },
  livenessTimeoutSeconds: { min: 10, max: 600, default: 60 },
  scanTimeoutSeconds: { min: 10, max: 600, default: 120 },
  age: { min: 0, max: 150 },
  /**
   * A data_validation `matches` pattern: its length, and the size of its RE2 program, which bounds
   * the work for each character of the value matched.
   */
  pattern: { maxLength: 500, maxProgramSize: 1000 },
  /** `matches` reads values up to this length (as long as `metadata` text); a longer one fails. */
  maxMatchedValueLength: 500,
} as const;
