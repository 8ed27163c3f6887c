import { Type, type Static } from '@sinclair/typebox';
import { NODE_TYPES } from '../flow';
import { ConsentRecordSchema } from './consent';
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
    report: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'What the node measured.' }),
    ),
  },
  { $id: 'NodeReport' },
);
export type NodeReport = Static<typeof NodeReportSchema>;

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

export const DeviceSchema = Type.Object(
  {
    browser: Nullable(Type.String()),
    browserVersion: Nullable(Type.String()),
    os: Nullable(Type.String()),
    osVersion: Nullable(Type.String()),
    platform: Type.String({ description: '`mobile`, `tablet`, `desktop`, `smarttv`, …' }),
    isMobile: Type.Boolean(),
  },
  { $id: 'Device' },
);
export type Device = Static<typeof DeviceSchema>;

export const LocationSchema = Type.Object(
  {
    city: Type.Optional(Type.String()),
    country: Type.Optional(Type.String({ description: 'ISO 3166-1 alpha-2.' })),
    latitude: Type.Optional(Type.Number()),
    longitude: Type.Optional(Type.Number()),
    timezone: Type.Optional(Type.String()),
  },
  { $id: 'Location', description: 'GeoIP of the first opening; empty for private addresses.' },
);
export type Location = Static<typeof LocationSchema>;

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
    extractedData: Type.Optional(Type.Record(Type.String(), Type.String())),
    livenessDetected: Type.Optional(Type.Boolean()),
    screenshots: Type.Optional(Type.Array(Type.String())),
    videos: Type.Optional(
      Type.Object({
        avatarVideoUrl: Type.Optional(Type.String()),
        userVideoUrl: Type.Optional(Type.String()),
      }),
    ),
    aiAnalysis: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    videoAIAnalysis: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    deepfakeDetection: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    deepfakeDetectionStatus: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'Report' },
);
export type Report = Static<typeof ReportSchema>;

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
  },
  { $id: 'Session' },
);
