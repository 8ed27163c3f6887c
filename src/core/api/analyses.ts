import { Type, type Static } from '@sinclair/typebox';

const Ms = (description: string) => Type.Integer({ description: `${description} Unix ms.` });

export const DeepfakeDetectionSchema = Type.Object(
  {
    verdict: Type.Union([
      Type.Literal('authentic'),
      Type.Literal('manipulated'),
      Type.Literal('unknown'),
    ]),
    score: Type.Optional(
      Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
        description: 'Probability of manipulation, 0–1 (2025-09-01: `manipulationScore`).',
      }),
    ),
    analyzedAt: Type.Optional(Ms('When the analysis finished.')),
  },
  { $id: 'DeepfakeDetection' },
);
export type DeepfakeDetection = Static<typeof DeepfakeDetectionSchema>;

export const DeepfakeDetectionStatusSchema = Type.Object(
  {
    state: Type.Union(
      [
        Type.Literal('pending'),
        Type.Literal('succeeded'),
        Type.Literal('failed'),
        Type.Literal('timed_out'),
      ],
      { description: '2025-09-01: `status`.' },
    ),
    startedAt: Type.Optional(Ms('When the analysis was asked for.')),
    finishedAt: Type.Optional(Ms('When it reached a final state.')),
    errorCode: Type.Optional(Type.String()),
  },
  { $id: 'DeepfakeDetectionStatus' },
);
export type DeepfakeDetectionStatus = Static<typeof DeepfakeDetectionStatusSchema>;

/** The nine criteria of the original product's video analysis (compat.md §4.7). */
export const VIDEO_CRITERIA = [
  'behavioralAnomalies',
  'environmentalConsistency',
  'eyeAndHeadMovement',
  'faceAuthenticity',
  'facialExpressionAndMovement',
  'interactionConfidence',
  'lipSyncAccuracy',
  'presenceOfSuspiciousObjectsOrPeople',
  'useOfExternalDevices',
] as const;
export type VideoCriterionKey = (typeof VIDEO_CRITERIA)[number];

export const VIDEO_EVALUATIONS = ['normal', 'suspicious', 'highFraudRisk'] as const;
export type VideoEvaluation = (typeof VIDEO_EVALUATIONS)[number];

export const VideoCriterionResultSchema = Type.Object({
  observation: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: '0: nothing to go on.' }),
  evaluation: Type.Union(VIDEO_EVALUATIONS.map((e) => Type.Literal(e))),
  score: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'The measured score (1 is normal); absent for criteria not measured.',
    }),
  ),
});
export type VideoCriterionResult = Static<typeof VideoCriterionResultSchema>;

export const VideoAIAnalysisSchema = Type.Object(
  {
    ...(Object.fromEntries(VIDEO_CRITERIA.map((c) => [c, VideoCriterionResultSchema])) as Record<
      VideoCriterionKey,
      typeof VideoCriterionResultSchema
    >),
    riskyIndicators: Type.Array(Type.Union(VIDEO_CRITERIA.map((c) => Type.Literal(c))), {
      description: 'The criteria whose evaluation is not `normal`.',
    }),
    overallScore: Type.Number({ minimum: 0, maximum: 1 }),
    framesAnalysed: Type.Integer({ minimum: 0 }),
  },
  {
    $id: 'VideoAIAnalysis',
    description:
      'One entry per criterion of the original product (2025-09-01: `{ overallScore, criteria, framesAnalysed }`).',
  },
);
export type VideoAIAnalysis = Static<typeof VideoAIAnalysisSchema>;

export const VideoAIAnalysisStatusSchema = Type.Union(
  [Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')],
  { description: 'Absent when the analysis was not requested (absent in 2025-09-01).' },
);
