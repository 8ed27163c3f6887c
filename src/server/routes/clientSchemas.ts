/**
 * The `schema:` of the client API's own routes (docs/client-api.md): the bodies Fastify checks,
 * the answers the OpenAPI document shows. The feature routes under `/client` declare theirs
 * next to them.
 */
import { Type } from '@sinclair/typebox';
import {
  ExchangeBodySchema,
  LangBodySchema,
  OtpSendBodySchema,
  OtpVerifyBodySchema,
  PositionSchema,
  PublicSessionSchema,
  ReplyBodySchema,
  ResultBodySchema,
} from '../../core/api';
import { clientRoute, nodeAnswer } from '../http/routeDocs';

const SessionAnswerSchema = Type.Object(
  { session: PublicSessionSchema, position: PositionSchema },
  { $id: 'ClientSessionAnswer' },
);

export const CLIENT_ROUTES = {
  exchange: clientRoute(
    'Exchange a client secret once for a client token',
    ExchangeBodySchema,
    Type.Object({ token: Type.String(), session: PublicSessionSchema, position: PositionSchema }),
    // The client secret in the body is the credential.
    { security: [] },
  ),
  session: clientRoute('The session as the page sees it', null, SessionAnswerSchema),
  lang: clientRoute('Record the language', LangBodySchema, Type.Object({ lang: Type.String() })),
  prompt: clientRoute(
    'What the avatar says at the node',
    null,
    Type.Object({ text: Type.String() }),
  ),
  reply: clientRoute(
    'A reply to a conversation node',
    ReplyBodySchema,
    nodeAnswer({ outcome: Type.Union([Type.String(), Type.Null()]) }),
  ),
  result: clientRoute('An outcome the user decided', ResultBodySchema, nodeAnswer()),
  otpSend: clientRoute(
    'Send a one-time code',
    OtpSendBodySchema,
    Type.Union([
      Type.Object({
        sentTo: Type.String(),
        expiresAt: Type.Integer(),
        resendAfter: Type.Integer(),
      }),
      nodeAnswer(),
    ]),
  ),
  otpVerify: clientRoute(
    'Check a one-time code',
    OtpVerifyBodySchema,
    nodeAnswer({ verified: Type.Boolean(), attemptsLeft: Type.Integer() }),
  ),
  exit: clientRoute('Leave: the session ends incomplete', null, nodeAnswer()),
};
