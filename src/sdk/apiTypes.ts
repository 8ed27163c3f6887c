/**
 * The API's request and answer types, derived from the TypeBox schemas the service's routes are
 * checked and documented with (`src/core/api`). Type-only imports: nothing of the service runs in
 * the SDK, and a field added to a schema reaches these types without a copy to update.
 */
import type { Static } from '@sinclair/typebox';
import type {
  AvatarListSchema,
  AvatarSchema,
  ClientSecretSchema,
  CreateSessionBodySchema,
  ErrorBodySchema,
  ErrorDetailSchema,
  LanguageListSchema,
  LanguageSchema,
  ListSessionsQuerySchema,
  ReportSchema,
  SessionListSchema,
  SessionSchema,
  SessionStatusSchema,
} from '../core/api';

/** A session as `GET /sessions/{id}` shows it (latest version). */
export type Session = Static<typeof SessionSchema>;
export type SessionStatus = Static<typeof SessionStatusSchema>;
export type Report = Static<typeof ReportSchema>;
export type ClientSecret = Static<typeof ClientSecretSchema>;
/** The body of `POST /sessions`. */
export type CreateSessionParams = Static<typeof CreateSessionBodySchema>;
/** `{ session, clientSecret }`: what create and retrieve answer. */
export interface SessionWithSecret {
  session: Session;
  clientSecret: ClientSecret;
}
/** One page of `GET /sessions`. */
export type SessionListPage = Static<typeof SessionListSchema>;
/** The filters and order of `GET /sessions`; `status` may also be a list. */
export type ListSessionsParams = Omit<Static<typeof ListSessionsQuerySchema>, 'status'> & {
  status?: SessionStatus | SessionStatus[];
};
export type Avatar = Static<typeof AvatarSchema>;
export type AvatarList = Static<typeof AvatarListSchema>;
export type Language = Static<typeof LanguageSchema>;
export type LanguageList = Static<typeof LanguageListSchema>;
/** The error body every refusal has. */
export type ErrorBody = Static<typeof ErrorBodySchema>;
export type ErrorDetail = Static<typeof ErrorDetailSchema>;
