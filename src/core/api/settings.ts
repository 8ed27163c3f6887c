import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { FlowSchema, LegacyModulesSchema } from '../flow';
import { ConsentSettingsSchema } from './consent';
import { API_LIMITS } from './limits';

const Translations = Type.Record(
  Type.String(),
  Type.String({ maxLength: API_LIMITS.maxPhraseLength }),
  {
    description: 'Language code to translated text.',
  },
);

export const CustomizationSchema = Type.Object(
  {
    permissionsPage: Type.Optional(
      Type.Object(
        {
          buttonText: Type.Optional(Type.String({ maxLength: 200 })),
          mainHeading: Type.Optional(Type.String({ maxLength: API_LIMITS.maxPhraseLength })),
          subheading: Type.Optional(Type.String({ maxLength: API_LIMITS.maxPhraseLength })),
          backgroundType: Type.Optional(
            Type.Union([Type.Literal('AVATAR'), Type.Literal('COLOR')]),
          ),
          backgroundColor: Type.Optional(Type.String({ maxLength: 50 })),
          buttonTextTranslates: Type.Optional(Translations),
          mainHeadingTranslates: Type.Optional(Translations),
          subheadingTranslates: Type.Optional(Translations),
        },
        { additionalProperties: false },
      ),
    ),
    consent: Type.Optional(ConsentSettingsSchema),
    controls: Type.Optional(
      Type.Object(
        {
          showUxControls: Type.Optional(Type.Boolean({ default: true })),
          captionsOpenedByDefault: Type.Optional(Type.Boolean({ default: false })),
        },
        { additionalProperties: false },
      ),
    ),
    branding: Type.Optional(
      Type.Object(
        {
          primaryColor: Type.Optional(Type.String({ maxLength: 50 })),
          logoUrl: Type.Optional(Type.String({ maxLength: API_LIMITS.maxUrlLength })),
        },
        {
          additionalProperties: false,
          description: 'Older example; accepted and stored, not used by the page.',
        },
      ),
    ),
  },
  { additionalProperties: false, $id: 'Customization' },
);
export type Customization = Static<typeof CustomizationSchema>;

const StringMap = (description: string) =>
  Type.Record(Type.String(), Type.String(), { description });

/**
 * The settings fields of `POST /sessions`, given the schemas to use for `flow` and `modules`:
 * the documented schemas for OpenAPI, `Unknown` for the request check (the flow core validates
 * those two itself, reporting every problem with its node).
 */
function settingsFields(flow: TSchema, modules: TSchema) {
  return {
    flow: Type.Optional(flow),
    modules: Type.Optional(modules),
    flowId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: API_LIMITS.maxFlowIdLength,
        pattern: '^[A-Za-z0-9_.:-]+$',
        description:
          'Your id for the flow. Without it the session gets `flow_` + 16 hex characters of the flow hash.',
      }),
    ),
    clientReferenceId: Type.Optional(
      Type.String({ minLength: 1, maxLength: API_LIMITS.maxClientReferenceIdLength }),
    ),
    metadata: Type.Optional(StringMap('Free key-value pairs (string values).')),
    initialPhrase: Type.Optional(Type.String({ maxLength: API_LIMITS.maxPhraseLength })),
    finalPhrase: Type.Optional(Type.String({ maxLength: API_LIMITS.maxPhraseLength })),
    providedData: Type.Optional(StringMap('Pre-filled user data (email, phone, name, …).')),
    avatarId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    langs: Type.Optional(
      Type.Array(Type.String(), { minItems: 1, maxItems: 9, uniqueItems: true }),
    ),
    defaultLang: Type.Optional(Type.String()),
    zone: Type.Optional(
      Type.Union([Type.Literal('us'), Type.Literal('eu'), Type.Literal('es')], {
        description: '`es` is read as `us`.',
      }),
    ),
    customization: Type.Optional(CustomizationSchema),
    videoAIAnalysisEnabled: Type.Optional(Type.Boolean()),
    redirectUrl: Type.Optional(
      Type.String({
        maxLength: API_LIMITS.maxUrlLength,
        description: 'http(s) URL the end screen offers to go back to.',
      }),
    ),
    embedOrigins: Type.Optional(
      Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: API_LIMITS.maxEmbedOrigins,
        description:
          'Exact origins (`https://shop.example[:port]`, no wildcard or path) allowed to embed the page in an iframe; `http://localhost`, `http://127.0.0.1`, `http://[::1]` in test mode only.',
      }),
    ),
  };
}

/** The body of `POST /sessions` as documented (OpenAPI). */
export const CreateSessionBodySchema = Type.Object(
  settingsFields(FlowSchema, LegacyModulesSchema),
  {
    additionalProperties: false,
    $id: 'CreateSessionRequest',
  },
);

/** The same body as checked at run time; `flow` and `modules` go to the flow core next. */
export const CreateSessionBodyCheckSchema = Type.Object(
  settingsFields(Type.Unknown(), Type.Unknown()),
  { additionalProperties: false },
);
export type CreateSessionBody = Static<typeof CreateSessionBodyCheckSchema>;

/** The settings as stored and returned: defaults filled in, `zone` normalised. */
export const SessionSettingsSchema = Type.Object(
  {
    flow: FlowSchema,
    modules: Type.Optional(LegacyModulesSchema),
    flowId: Type.Optional(Type.String()),
    clientReferenceId: Type.Optional(Type.String()),
    metadata: Type.Record(Type.String(), Type.String()),
    initialPhrase: Type.Optional(Type.String()),
    finalPhrase: Type.Optional(Type.String()),
    providedData: Type.Record(Type.String(), Type.String()),
    avatarId: Type.Optional(Type.String()),
    langs: Type.Array(Type.String()),
    defaultLang: Type.String(),
    zone: Type.Union([Type.Literal('us'), Type.Literal('eu'), Type.Literal('es')], {
      description: '`us` or `eu`; `es` for `us` in version 2025-01-01.',
    }),
    customization: Type.Optional(CustomizationSchema),
    videoAIAnalysisEnabled: Type.Boolean(),
    redirectUrl: Type.Optional(Type.String()),
    embedOrigins: Type.Array(Type.String()),
  },
  { $id: 'SessionSettings' },
);
export type SessionSettings = Static<typeof SessionSettingsSchema>;
