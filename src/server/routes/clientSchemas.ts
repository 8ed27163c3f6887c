/**
 * The `schema:` of the client API's own routes (docs/client-api.md): the bodies Fastify checks,
 * the answers the OpenAPI document shows. The node kinds' routes (`src/server/nodes/`) and the
 * feature routes under `/client` declare theirs next to them.
 */
import { Type } from '@sinclair/typebox';
import {
  ExchangeBodySchema,
  LangBodySchema,
  PositionSchema,
  PublicSessionSchema,
  ResultBodySchema,
} from '../../core/api';
import { clientRoute, nodeAnswer } from '../http/routeDocs';

const SessionAnswerSchema = Type.Object(
  {
    session: PublicSessionSchema,
    position: PositionSchema,
    onPhone: Type.Optional(
      Type.Boolean({ description: 'The session moved to a phone: this token may only watch it.' }),
    ),
  },
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
  result: clientRoute('An outcome the user decided', ResultBodySchema, nodeAnswer()),
  exit: clientRoute('Leave: the session ends incomplete', null, nodeAnswer()),
};
