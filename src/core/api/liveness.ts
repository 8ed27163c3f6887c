/**
 * The liveness routes of the client API (docs/client-api.md, docs/liveness.md): the page asks the
 * server for challenges, uploads frames as it takes them, says when it is done and polls until the
 * server has decided. The page never reports an outcome.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CHALLENGES } from '../liveness/challenges';
import { PositionSchema } from './client';

/** Limits of one liveness attempt, shared by the server (checks) and the page (what to send). */
export const LIVENESS_LIMITS = {
  /** Frames one attempt may upload. */
  maxFrames: 24,
  /** Largest decoded frame, bytes. */
  maxFrameBytes: 500 * 1024,
  /** Largest request body of a frame upload (the base64 frame and its labels). */
  frameBodyBytes: 700 * 1024,
  /** Attempts (starts) one node allows: a reload or a camera switch starts a new one. */
  maxAttemptsPerNode: 5,
  /** Upload time allowed beyond the node's `timeoutSeconds`, ms. */
  graceMs: 15_000,
  /** Largest page timestamp of a frame, ms (the longest node timeout is 600 s). */
  maxFrameT: 3_600_000,
} as const;

/** Base64 length of the largest frame, plus room for a `data:image/jpeg;base64,` prefix. */
const MAX_IMAGE_CHARS = Math.ceil(LIVENESS_LIMITS.maxFrameBytes / 3) * 4 + 32;

export const ChallengeSchema = Type.Union(
  CHALLENGES.map((c) => Type.Literal(c)),
  { description: "A head movement, in the user's own directions." },
);

export const LivenessStartBodySchema = Type.Object({}, { additionalProperties: false });

export const LivenessStartAnswerSchema = Type.Object(
  {
    attemptId: Type.String(),
    challenges: Type.Array(ChallengeSchema, { description: 'Picked by the server, in order.' }),
    issuedAt: Type.Integer({ description: 'Server time, Unix ms.' }),
    expiresAt: Type.Integer({
      description: 'After this (issuedAt + timeoutSeconds + 15 s) frames are refused.',
    }),
    maxFrames: Type.Integer(),
  },
  { $id: 'LivenessStart' },
);
export type LivenessStartAnswer = Static<typeof LivenessStartAnswerSchema>;

export const FrameRoleSchema = Type.Union([
  Type.Literal('baseline'),
  Type.Literal('challenge'),
  Type.Literal('between'),
]);

export const LivenessFrameBodySchema = Type.Object(
  {
    role: FrameRoleSchema,
    challengeIndex: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 4,
        description: 'Which challenge the page was showing; required for `challenge` frames.',
      }),
    ),
    t: Type.Number({
      minimum: 0,
      maximum: LIVENESS_LIMITS.maxFrameT,
      description: 'Page clock: ms since the first frame of the attempt.',
    }),
    image: Type.String({
      minLength: 4,
      maxLength: MAX_IMAGE_CHARS,
      description: 'The unmirrored camera frame, a base64 JPEG of at most 500 KB.',
    }),
  },
  { additionalProperties: false },
);
export type LivenessFrameBody = Static<typeof LivenessFrameBodySchema>;

export const LivenessFrameAnswerSchema = Type.Object(
  { received: Type.Integer({ description: 'Frames this attempt holds, this one included.' }) },
  { $id: 'LivenessFrameReceived' },
);

export const LivenessFinishBodySchema = Type.Object(
  {
    ended: Type.Optional(
      Type.Union([Type.Literal('done'), Type.Literal('timeout')], {
        description: 'How the capture ended on the page: every challenge shown, or out of time.',
      }),
    ),
    cameraUnavailable: Type.Optional(
      Type.Boolean({ description: 'No usable camera: the node ends inconclusive at once.' }),
    ),
  },
  { additionalProperties: false },
);
export type LivenessFinishBody = Static<typeof LivenessFinishBodySchema>;

export const AttemptStatusSchema = Type.Union([
  Type.Literal('capturing'),
  Type.Literal('analysing'),
  Type.Literal('decided'),
]);
export type AttemptStatus = Static<typeof AttemptStatusSchema>;

export const LivenessAttemptAnswerSchema = Type.Object(
  {
    status: AttemptStatusSchema,
    position: Type.Optional(PositionSchema),
  },
  { $id: 'LivenessAttempt' },
);
export type LivenessAttemptAnswer = Static<typeof LivenessAttemptAnswerSchema>;
