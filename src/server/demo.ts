import type { Flow } from '../core/flow';

/**
 * The flow of the demo session made on a first start: permissions, a greeting that branches on
 * the reply, an email and its one-time code. In test mode the code is 000000.
 */
export const DEMO_FLOW: Flow = [
  { id: 'start', type: 'start', outcome: 'permissions' },
  {
    id: 'permissions',
    type: 'permissions',
    outcomes: { permissionsGranted: 'hello', permissionsDenied: 'bye' },
  },
  {
    id: 'hello',
    type: 'conversation',
    prompt: "Say: Hello! I'm here to help you verify your identity. Shall we begin?",
    outcomes: [
      { id: 'ready', condition: 'The user agrees', targetNodeId: 'email' },
      { id: 'notReady', condition: '', targetNodeId: 'bye' },
    ],
  },
  { id: 'email', type: 'enter_email', outcomes: { emailEntered: 'otp', canceled: 'bye' } },
  {
    id: 'otp',
    type: 'two_factor_email',
    outcomes: {
      verified: 'done',
      failed_unverified: 'bye',
      delivery_failed: 'bye',
      cancelled: 'bye',
    },
  },
  { id: 'done', type: 'end' },
  { id: 'bye', type: 'end' },
] as Flow;
