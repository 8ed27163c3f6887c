import { Type, type Static } from '@sinclair/typebox';
import { NODE_TYPES } from '../flow';
import { ConsentRecordSchema } from './consent';
import {
  DeepfakeDetectionSchema,
  DeepfakeDetectionStatusSchema,
  VideoAIAnalysisSchema,
  VideoAIAnalysisStatusSchema,
} from './analyses';
import { DeviceSchema } from './device';
import { LocationSchema } from './location';
import { ReportMediaSchema } from './media';
import { SessionSettingsSchema } from './settings';

/** Statuses of the latest version, in lifecycle order (the order `sortBy=status` uses). */
export const SESSION_STATUSES = ['created', 'inProgress', 'complete', 'incomplete'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** The older names of the same statuses (version 2025-01-01), also accepted as list filters. */
export const LEGACY_STATUS: Record<SessionStatus, string> = {
  created: 'requiresInput',
  inProgress: 'processing',
  complete: 'complete',
  incomplete: 'canceled',
};

/**
 * Reads a status filter value in either naming.
 *
 * @example
 * parseStatus('processing'); // 'inProgress'
 * parseStatus('nope'); // null
 */
export function parseStatus(value: string): SessionStatus | null {
  if ((SESSION_STATUSES as readonly string[]).includes(value)) return value as SessionStatus;
  const hit = SESSION_STATUSES.find((s) => LEGACY_STATUS[s] === value);
  return hit ?? null;
}

const Ms = (description: string) =>
  Type.Integer({ description: `${description} Unix milliseconds (seconds in 2025-01-01).` });

export const TranscriptItemSchema = Type.Object(
  {
    id: Type.String(),
    createdAt: Ms('When it was said.'),
    text: Type.String(),
    isAvatar: Type.Boolean(),
    nodeId: Type.Optional(Type.String()),
  },
  { $id: 'TranscriptItem' },
);
export type TranscriptItem = Static<typeof TranscriptItemSchema>;

export const NodeReportSchema = Type.Object(
  {
    nodeId: Type.String(),
    type: Type.Union(NODE_TYPES.map((t) => Type.Literal(t))),
    outcome: Type.String({
      description: 'The outcome key, or the outcome id for conversation and data_validation.',
    }),
    createdAt: Ms('When the node ended.'),
    inconclusiveReason: Type.Optional(Type.String()),
    email: Type.Optional(Type.String({ description: 'enter_email: the address entered.' })),
    screenshotCount: Type.Optional(
      Type.Integer({ description: 'liveness_detection: frames kept as screenshots.' }),
    ),
    captureStatus: Type.Optional(
      Type.Union(
        [Type.Literal('captured'), Type.Literal('capturedUnscored'), Type.Literal('unavailable')],
        { description: 'liveness_detection: whether frames were captured and scored.' },
      ),
    ),
    errored: Type.Optional(Type.Boolean({ description: 'liveness_detection: the check failed.' })),
    errorCode: Type.Optional(Type.String()),
    report: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'What the node measured; on two_factor_*, face_scan, face_compare and document_scan ' +
          "also the original product's sub-report members, on recognition only those (docs/api.md).",
      }),
    ),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'recognition: what the node measured (2025-09-01: `report`).',
      }),
    ),
  },
  { $id: 'NodeReport' },
);
export type NodeReport = Static<typeof NodeReportSchema>;

/** A node report as the server keeps it: every kind's measurements under `report`. */
export type StoredNodeReport = Pick<
  NodeReport,
  'nodeId' | 'type' | 'outcome' | 'createdAt' | 'inconclusiveReason' | 'report'
>;

export const ReportSchema = Type.Object(
  {
    transcript: Type.Array(TranscriptItemSchema),
    nodeReports: Type.Array(NodeReportSchema),
    isVerified: Type.Boolean({
      description: 'True once an end node is reached with no failing outcome on the way.',
    }),
    lang: Type.Optional(Type.String()),
    consent: Type.Optional(ConsentRecordSchema),
    device: Type.Optional(DeviceSchema),
    location: Type.Optional(LocationSchema),
    extractedData: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
        {
          description:
            'What the session read: document fields and the entered email (text), and each ' +
            'extractionSchema field typed by its type (a date as YYYY-MM-DD), null when not found.',
        },
      ),
    ),
    livenessDetected: Type.Optional(Type.Boolean()),
    screenshots: Type.Optional(Type.Array(Type.String())),
    videos: Type.Optional(
      Type.Object({
        avatarVideoUrl: Type.Optional(Type.String()),
        userVideoUrl: Type.Optional(Type.String()),
      }),
    ),
    media: Type.Optional(ReportMediaSchema),
    aiAnalysis: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    videoAIAnalysis: Type.Optional(VideoAIAnalysisSchema),
    videoAIAnalysisStatus: Type.Optional(VideoAIAnalysisStatusSchema),
    deepfakeDetection: Type.Optional(DeepfakeDetectionSchema),
    deepfakeDetectionStatus: Type.Optional(DeepfakeDetectionStatusSchema),
  },
  { $id: 'Report' },
);
export type Report = Static<typeof ReportSchema>;

/**
 * The report as the server keeps it. The analyses write their own records (server side); the
 * API's shapes are made from these when a session is presented.
 */
export type StoredReport = Omit<
  Report,
  | 'nodeReports'
  | 'media'
  | 'videoAIAnalysis'
  | 'videoAIAnalysisStatus'
  | 'deepfakeDetection'
  | 'deepfakeDetectionStatus'
> & {
  nodeReports: StoredNodeReport[];
  videoAIAnalysis?: Record<string, unknown>;
  /** Why the video analysis gave up (its last try failed): `videoAIAnalysisStatus` `failed`. */
  videoAIAnalysisError?: string;
  deepfakeDetection?: Record<string, unknown>;
  deepfakeDetectionStatus?: Record<string, unknown>;
  /** Set on a tombstone: when the session's data was erased (shown as the session's `erasedAt`). */
  erasedAt?: number;
};

export const SessionStatusSchema = Type.Union(
  SESSION_STATUSES.map((s) => Type.Literal(s)),
  { description: 'In 2025-01-01: requiresInput, processing, complete, canceled.' },
);

export const SessionSchema = Type.Object(
  {
    id: Type.String(),
    createdAt: Ms('Creation time.'),
    startedAt: Type.Optional(Ms('When the user opened the page; absent before.')),
    finishedAt: Type.Optional(Ms('When the session ended; absent before.')),
    status: SessionStatusSchema,
    livemode: Type.Boolean({ description: 'False for sessions made with an sk_test_ key.' }),
    flowId: Type.String(),
    version: Type.String({ description: 'The Service-Version that created the session.' }),
    settings: SessionSettingsSchema,
    report: ReportSchema,
    erasedAt: Type.Optional(
      Ms('When the session was erased: only its tombstone is left (docs/lifecycle.md).'),
    ),
  },
  { $id: 'Session' },
);
