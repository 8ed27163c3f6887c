import { Type } from '@sinclair/typebox';
import { API_LIMITS } from './limits';
import { SessionSchema } from './session';

export const SORT_KEYS = ['createdAt', 'status', 'finishedAt'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = 'asc' | 'desc';

/** The query of `GET /sessions` as documented (every value arrives as a string). */
export const ListSessionsQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: API_LIMITS.pageSizeMax,
        default: API_LIMITS.pageSizeDefault,
      }),
    ),
    cursor: Type.Optional(Type.String({ description: 'A `nextCursor` from an earlier page.' })),
    flowId: Type.Optional(Type.String()),
    clientReferenceId: Type.Optional(Type.String()),
    status: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description:
          'One status, a comma list or a repeated parameter; older names are accepted as aliases.',
      }),
    ),
    fromDate: Type.Optional(
      Type.Integer({ description: 'Created at or after (Unix ms; seconds in 2025-01-01).' }),
    ),
    toDate: Type.Optional(
      Type.Integer({ description: 'Created before (Unix ms; seconds in 2025-01-01).' }),
    ),
    sortBy: Type.Optional(Type.Union(SORT_KEYS.map((k) => Type.Literal(k)))),
    sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    search: Type.Optional(
      Type.String({
        maxLength: API_LIMITS.maxSearchLength,
        description:
          'Case-insensitive substring of a metadata value, the clientReferenceId or the session id.',
      }),
    ),
    includeTotal: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SessionListSchema = Type.Object(
  {
    sessions: Type.Array(SessionSchema),
    nextCursor: Type.String({ description: 'Empty when hasMore is false.' }),
    hasMore: Type.Boolean(),
    totalCount: Type.Optional(Type.Integer({ description: 'Only with includeTotal=true.' })),
  },
  { $id: 'SessionList' },
);
