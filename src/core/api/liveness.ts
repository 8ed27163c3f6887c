/**
 * The liveness routes of the client API (docs/client-api.md, docs/liveness.md): the page asks the
 * server for challenges, uploads frames as it takes them, says when it is done and polls until the
 * server has decided. The page never reports an outcome.
 */
import { Type, type Static } from '@sinclair/typebox';
import { RETRY_REASONS } from '../liveness/attempts';
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
  /**
   * Starts one node allows: its judged attempts (the node's `maxAttempts`, at most 5) and those
   * replaced by a reload or a camera switch.
   */
  maxStartsPerNode: 10,
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
    attempt: Type.Integer({
      minimum: 1,
      description:
        'Which attempt of the node this is (1 for the first; replaced ones not counted).',
    }),
    maxAttempts: Type.Integer({ minimum: 1, description: "The node's `maxAttempts`." }),
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
      Type.Union([Type.Literal('done'), Type.Literal('timeout'), Type.Literal('cameraLost')], {
        description:
          'How the capture ended on the page: every challenge shown, out of time, or the camera ' +
          'stopped during the capture (a failed attempt, `cameraLost`, whatever the frames show ' +
          'but a presentation attack).',
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

export const RetryReasonSchema = Type.Union(
  RETRY_REASONS.map((r) => Type.Literal(r)),
  { description: 'Why the attempt failed in a way another attempt may fix.' },
);

/** A decided attempt that did not decide the node: the user may try again. */
export const AttemptRetrySchema = Type.Object(
  {
    reason: RetryReasonSchema,
    attemptsLeft: Type.Integer({ minimum: 1 }),
    challenge: Type.Optional(ChallengeSchema),
  },
  { description: 'Present when the node is still current: start another attempt to try again.' },
);
export type AttemptRetry = Static<typeof AttemptRetrySchema>;

export const LivenessAttemptAnswerSchema = Type.Object(
  {
    status: AttemptStatusSchema,
    position: Type.Optional(PositionSchema),
    retry: Type.Optional(AttemptRetrySchema),
  },
  { $id: 'LivenessAttempt' },
);
export type LivenessAttemptAnswer = Static<typeof LivenessAttemptAnswerSchema>;
