/**
 * The flow the conformance runs take: every node kind this service runs, with every outcome map
 * total, so the settings echo, and the node reports of each kind, can be checked against the
 * original product's shapes. Test mode lets the tester choose each outcome.
 */
export const CONFORMANCE_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    permissions: { camera: true, microphone: true },
    outcomes: { permissionsGranted: 'ask', permissionsDenied: 'denied' },
  },
  {
    id: 'ask',
    type: 'conversation',
    prompt: 'Say: Shall we start?',
    outcomes: [{ id: 'yes', condition: 'The user agrees', targetNodeId: 'email' }],
  },
  {
    id: 'email',
    type: 'enter_email',
    outcomes: { emailEntered: 'otp', canceled: 'denied' },
  },
  {
    id: 'otp',
    type: 'two_factor_email',
    outcomes: {
      verified: 'sms',
      delivery_failed: 'denied',
      failed_unverified: 'denied',
      cancelled: 'denied',
      error: 'denied',
    },
  },
  {
    id: 'sms',
    type: 'two_factor_sms',
    outcomes: {
      verified: 'live',
      delivery_failed: 'denied',
      failed_unverified: 'denied',
      cancelled: 'denied',
      error: 'denied',
    },
  },
  {
    id: 'live',
    type: 'liveness_detection',
    outcomes: {
      livenessDetected: 'doc',
      deepfakeDetected: 'denied',
      noFace: 'denied',
      inconclusive: 'denied',
    },
  },
  {
    id: 'doc',
    type: 'document_scan',
    scanningMode: 'automatic',
    allowedDocumentTypes: ['passport', 'id', 'dl'],
    outcomes: { scanSuccess: 'scan', userCancelled: 'denied', scanTimeout: 'denied' },
  },
  {
    id: 'scan',
    type: 'face_scan',
    outcomes: { passed: 'cmp', notPassed: 'denied', cancelled: 'denied', error: 'denied' },
  },
  {
    id: 'cmp',
    type: 'face_compare',
    sourceA: { source: 'faceScan' },
    sourceB: { source: 'documentPhoto' },
    outcomes: { match: 'rec', noMatch: 'denied', imageUnavailable: 'denied' },
  },
  {
    id: 'rec',
    type: 'recognition',
    outcomes: { recognized: 'check', newUser: 'check', noFace: 'denied' },
  },
  {
    id: 'check',
    type: 'data_validation',
    validation: { field: 'extractedData.email', action: 'exists' },
    outcomes: [
      { id: 'good', condition: 'passed', targetNodeId: 'done' },
      { id: 'bad', condition: 'failed', targetNodeId: 'denied' },
    ],
  },
  { id: 'done', type: 'end' },
  { id: 'denied', type: 'end' },
];

/** The outcome the tester chooses at each node the page reports (test mode). */
export const CONFORMANCE_PATH: readonly (readonly [string, string])[] = [
  ['perm', 'permissionsGranted'],
  ['ask', 'yes'],
  ['live', 'livenessDetected'],
  ['doc', 'scanSuccess'],
  ['scan', 'passed'],
  ['cmp', 'match'],
  ['rec', 'newUser'],
];
