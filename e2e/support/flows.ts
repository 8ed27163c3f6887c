/**
 * The flows the hosted-page specs run: permissions → conversation (two branches) → enter_email →
 * two_factor_email → data_validation → end.
 */
export const KYC_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    prompt: 'Say: First, please allow your camera and microphone.',
    outcomes: { permissionsGranted: 'ask', permissionsDenied: 'denied' },
  },
  {
    id: 'ask',
    type: 'conversation',
    prompt: 'Say: Do you agree to verify your identity today?',
    outcomes: [
      { id: 'agrees', condition: 'The user agrees', targetNodeId: 'mail' },
      { id: 'declines', condition: 'The user says no or refuses', targetNodeId: 'declined' },
    ],
  },
  {
    id: 'mail',
    type: 'enter_email',
    prompt: 'Say: Please type your email address.',
    outcomes: { emailEntered: 'otp', canceled: 'declined' },
  },
  {
    id: 'otp',
    type: 'two_factor_email',
    otpLength: 6,
    maxAttempts: 3,
    resendAfterSeconds: 30,
    outcomes: {
      verified: 'check',
      failed_unverified: 'failed',
      delivery_failed: 'failed',
      cancelled: 'declined',
    },
  },
  {
    id: 'check',
    type: 'data_validation',
    validation: { field: 'extractedData.email', action: 'exists' },
    outcomes: [
      { id: 'ok', condition: 'passed', targetNodeId: 'done' },
      { id: 'missing', condition: 'failed', targetNodeId: 'failed' },
    ],
  },
  { id: 'done', type: 'end' },
  { id: 'declined', type: 'end' },
  { id: 'denied', type: 'end' },
  { id: 'failed', type: 'end' },
];

/** The same without a permissions node: the page asks in front of the first node that needs it. */
export const CAMERA_FLOW = [
  { id: 'start', type: 'start', outcome: 'mail' },
  { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'live', canceled: 'end' } },
  {
    id: 'live',
    type: 'liveness_detection',
    outcomes: {
      livenessDetected: 'end',
      deepfakeDetected: 'end',
      noFace: 'end',
      inconclusive: 'end',
    },
  },
  { id: 'end', type: 'end' },
];

/**
 * One face_scan without challenges, one attempt (a retry would hide a failure from the figures),
 * compared with the photo under `providedData.referenceImage`; `passed` and `refused` endings.
 */
export const ONE_TRY_FACE_SCAN_FLOW = [
  { id: 'start', type: 'start', outcome: 'node' },
  {
    id: 'node',
    type: 'face_scan',
    referenceImageKey: 'referenceImage',
    maxAttempts: 1,
    outcomes: { passed: 'passed', notPassed: 'refused', error: 'refused', cancelled: 'refused' },
  },
  { id: 'passed', type: 'end' },
  { id: 'refused', type: 'end' },
];
