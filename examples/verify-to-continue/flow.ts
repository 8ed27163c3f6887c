import type { CreateSessionParams } from 'open-idv/sdk';

/**
 * What this site asks before letting a visitor in: an email address and the code sent to it. A
 * flow is a graph of nodes (docs/flows.md); a real site adds its checks here (liveness, a
 * document scan, a face match). Every way out that is not routed has no next node, so the session
 * ends `incomplete` and `report.isVerified` stays false.
 */
export const VERIFY_FLOW: CreateSessionParams['flow'] = [
  { id: 'start', type: 'start', outcome: 'email' },
  { id: 'email', type: 'enter_email', outcomes: { emailEntered: 'code' } },
  { id: 'code', type: 'two_factor_email', outcomes: { verified: 'done' } },
  { id: 'done', type: 'end' },
];
