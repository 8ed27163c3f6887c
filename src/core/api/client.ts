import { Type, type Static } from '@sinclair/typebox';
import { END_REASONS, FlowSchema, NODE_TYPES } from '../flow';
import { ConsentRecordSchema } from './consent';
import { CustomizationSchema } from './settings';
import { SessionStatusSchema } from './session';

const NodeTypeSchema = Type.Union(NODE_TYPES.map((t) => Type.Literal(t)));

export const PositionSchema = Type.Object(
  {
    nodeId: Type.Union([Type.String(), Type.Null()]),
    nodeType: Type.Union([NodeTypeSchema, Type.Null()]),
    status: Type.Union([
      Type.Literal('active'),
      Type.Literal('complete'),
      Type.Literal('incomplete'),
    ]),
    path: Type.Array(
      Type.Object({ nodeId: Type.String(), type: NodeTypeSchema, outcome: Type.String() }),
    ),
    endReason: Type.Optional(
      Type.Union(
        END_REASONS.map((r) => Type.Literal(r)),
        { description: "Why an incomplete session ended, in the user's terms; never a verdict." },
      ),
    ),
  },
  { $id: 'Position' },
);

export const PublicSessionSchema = Type.Object(
  {
    id: Type.String(),
    status: SessionStatusSchema,
    testMode: Type.Boolean(),
    flow: FlowSchema,
    settings: Type.Object({
      avatar: Type.Union([
        Type.Object({
          id: Type.String(),
          name: Type.String(),
          gender: Type.String(),
          imageUrl: Type.String(),
        }),
        Type.Null(),
      ]),
      langs: Type.Array(Type.String()),
      defaultLang: Type.String(),
      lang: Type.Union([Type.String(), Type.Null()]),
      initialPhrase: Type.Optional(Type.String()),
      finalPhrase: Type.Optional(Type.String()),
      customization: Type.Optional(CustomizationSchema),
      redirectUrl: Type.Optional(Type.String()),
      embedOrigins: Type.Array(Type.String()),
      /** Whether the page samples frames for the video analysis (`POST /client/video/frames`). */
      videoAIAnalysisEnabled: Type.Boolean(),
    }),
    /** The user's consent to capture, once given (the page asks before the first capture). */
    consent: Type.Optional(ConsentRecordSchema),
    contact: Type.Object({
      email: Type.Union([Type.String(), Type.Null()]),
      phone: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  { $id: 'PublicSession' },
);
export type PublicSessionShape = Static<typeof PublicSessionSchema>;

/** The bodies the client routes accept. */
export const ExchangeBodySchema = Type.Object(
  { clientSecret: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export const LangBodySchema = Type.Object({ lang: Type.String() }, { additionalProperties: false });
export const ReplyBodySchema = Type.Object(
  { text: Type.Optional(Type.String({ maxLength: 5000 })) },
  { additionalProperties: false },
);
export const ResultBodySchema = Type.Object(
  {
    outcome: Type.String({ minLength: 1, maxLength: 100 }),
    report: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
export const OtpSendBodySchema = Type.Object(
  { destination: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })) },
  { additionalProperties: false },
);
export const OtpVerifyBodySchema = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 20 }) },
  { additionalProperties: false },
);
