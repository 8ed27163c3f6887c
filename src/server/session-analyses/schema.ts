/**
 * The report parts the post-session analyses write and the bodies of their routes (docs/analyses.md).
 * These are the records as stored; the API shows them in the original product's SDK shapes
 * (src/server/sessions/report-analyses.ts), version 2025-09-01 as they are here.
 */
import { Type, type Static } from '@sinclair/typebox';

export const AnalysisItemSchema = Type.Object({
  title: Type.String(),
  shortDescription: Type.String(),
  longDescription: Type.String(),
});

export const AiAnalysisSchema = Type.Object(
  {
    ageMin: Type.Number(),
    ageMax: Type.Number(),
    sex: Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('unknown')]),
    realPersonOrVirtual: Type.Union([
      Type.Literal('real'),
      Type.Literal('virtual'),
      Type.Literal('uncertain'),
    ]),
    overallSummary: Type.String(),
    analysis: Type.Array(AnalysisItemSchema),
  },
  { $id: 'AiAnalysis' },
);
export type AiAnalysis = Static<typeof AiAnalysisSchema>;

export const DeepfakeVerdictSchema = Type.Object(
  {
    verdict: Type.Union([
      Type.Literal('authentic'),
      Type.Literal('manipulated'),
      Type.Literal('unknown'),
    ]),
    manipulationScore: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { $id: 'StoredDeepfakeDetection' },
);
export type DeepfakeVerdict = Static<typeof DeepfakeVerdictSchema>;

export const DeepfakeStatusSchema = Type.Object(
  {
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('succeeded'),
      Type.Literal('failed'),
      Type.Literal('timed_out'),
    ]),
    startedAt: Type.Number(),
    finishedAt: Type.Optional(Type.Number()),
    errorCode: Type.Optional(Type.String()),
  },
  { $id: 'StoredDeepfakeDetectionStatus' },
);
export type DeepfakeStatus = Static<typeof DeepfakeStatusSchema>;

export const VideoCriterionSchema = Type.Object({
  name: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
});
export type VideoCriterion = Static<typeof VideoCriterionSchema>;

export const VideoAiAnalysisSchema = Type.Object(
  {
    overallScore: Type.Number({ minimum: 0, maximum: 1 }),
    criteria: Type.Array(VideoCriterionSchema),
    framesAnalysed: Type.Integer({ minimum: 0 }),
  },
  { $id: 'StoredVideoAIAnalysis' },
);
export type VideoAiAnalysis = Static<typeof VideoAiAnalysisSchema>;

export const VIDEO_LIMITS = {
  /** Bytes of one session video (raw body). */
  maxVideoBytes: 50 * 1024 * 1024,
  /** How long after the session ended its video is still taken. */
  videoWindowMs: 10 * 60 * 1000,
  /** Sampled frames per session. */
  maxFrames: 30,
  contentTypes: ['video/webm', 'video/mp4'] as const,
} as const;

export const VideoFrameBodySchema = Type.Object(
  {
    t: Type.Number({ minimum: 0, description: 'Milliseconds since the recording started.' }),
    image: Type.String({
      minLength: 1,
      description: 'Base64 JPEG (a data URL prefix is allowed).',
    }),
  },
  { additionalProperties: false, $id: 'VideoFrameBody' },
);
export type VideoFrameBody = Static<typeof VideoFrameBodySchema>;
