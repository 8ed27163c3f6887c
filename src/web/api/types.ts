import type { Static } from '@sinclair/typebox';
import type { OtpSendBodySchema, PositionSchema, PublicSessionShape } from '../../core/api/client';
import type { FlowNode, NodeByType, NodeType } from '../../core/flow';
import type {
  LivenessAttemptAnswer,
  LivenessFinishBody,
  LivenessFrameBody,
  LivenessStartAnswer,
} from '../../core/api/liveness';
import type {
  DocumentAnswer,
  DocumentRetryReason,
  DocumentUploadBody,
} from '../../core/api/documents';

// The shapes of docs/client-api.md, from the TypeBox schemas the server answers with (type-only
// imports: none of the schema code reaches the page's bundle).

export type { FlowNode, NodeByType, NodeType };
export type { LivenessAttemptAnswer, LivenessFinishBody, LivenessFrameBody, LivenessStartAnswer };
export type { DocumentAnswer, DocumentRetryReason, DocumentUploadBody };
export type Position = Static<typeof PositionSchema>;
export type PathStep = Position['path'][number];
export type PublicSession = PublicSessionShape;
export type PublicAvatar = NonNullable<PublicSession['settings']['avatar']>;
export type Customization = NonNullable<PublicSession['settings']['customization']>;
export type PermissionsPageCustomization = NonNullable<Customization['permissionsPage']>;
export type ControlsCustomization = NonNullable<Customization['controls']>;
export type OtpSendBody = Static<typeof OtpSendBodySchema>;

export interface SessionAnswer {
  session: PublicSession;
  position: Position;
  /** The session moved to a phone: this page may only watch it. */
  onPhone?: boolean;
}

export type { HandoffOffer, HandoffStatus } from '../../core/api/handoff';

export interface ExchangeAnswer extends SessionAnswer {
  token: string;
}

export interface OtpSent {
  sentTo: string;
  expiresAt: number;
  resendAfter: number;
}

/** `GET /client/nodes/:id/otp`: the code node as the page shows it after a reload. */
export interface OtpState {
  /** The user may type another destination here (not one the integrator gave). */
  changeable: boolean;
  sent: (OtpSent & { attemptsLeft: number }) | null;
}

export interface OtpVerifyAnswer {
  verified: boolean;
  attemptsLeft: number;
  position: Position;
}

/** The error body of the public API, shared by the client routes. */
export interface ErrorBody {
  error: { type: string; message: string; code?: string };
}
