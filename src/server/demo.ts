import type { Flow } from '../core/flow';

/**
 * The flow of the demo session made on a first start: permissions, a greeting that branches on
 * the reply, an email and its one-time code. In test mode the code is 000000. Every way out but
 * the last code has no next node, so the session ends `incomplete` (a user who declines, denies
 * the camera, cancels or fails the code is never `complete`).
 */
export const DEMO_FLOW: Flow = [
  { id: 'start', type: 'start', outcome: 'permissions' },
  {
    id: 'permissions',
    type: 'permissions',
    outcomes: { permissionsGranted: 'hello' },
  },
  {
    id: 'hello',
    type: 'conversation',
    prompt: "Say: Hello! I'm here to help you verify your identity. Shall we begin?",
    outcomes: [
      { id: 'ready', condition: 'The user agrees', targetNodeId: 'email' },
      { id: 'notReady', condition: '' },
    ],
  },
  { id: 'email', type: 'enter_email', outcomes: { emailEntered: 'otp' } },
  {
    id: 'otp',
    type: 'two_factor_email',
    outcomes: { verified: 'done' },
  },
  { id: 'done', type: 'end' },
] as Flow;
