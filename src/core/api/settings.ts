import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { FLOW_LIMITS, FlowSchema, LegacyModulesSchema } from '../flow';
import { ConsentSettingsSchema } from './consent';
import { ExtractionSchemaSchema } from './extraction';
import { API_LIMITS } from './limits';

/** The buttons of the in-session control panel, as `customization.controls.buttons` names them. */
export const CONTROL_BUTTONS = ['microphone', 'camera', 'captions', 'language', 'close'] as const;
export type ControlButton = (typeof CONTROL_BUTTONS)[number];

/** A `metadata` value: any JSON (strings, numbers, booleans, null, objects, arrays). */
export type MetadataValue = unknown;
/** A `providedData` value: a string, a number or a boolean (no null, no nesting). */
export type ProvidedValue = string | number | boolean;

const MetadataMap = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'Free tracking data: any JSON values (strings, numbers, booleans, objects, arrays). ' +
    'Searched by GET /sessions through its string and number values.',
});
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
          buttons: Type.Optional(
            Type.Array(Type.Union(CONTROL_BUTTONS.map((b) => Type.Literal(b))), {
              uniqueItems: true,
              description:
                'The exact buttons of the control panel. Left out: every applicable one. ' +
                'Empty: no panel. `language` shows only when the session offers two or more languages.',
            }),
          ),
          autoHide: Type.Optional(
            Type.Boolean({
              default: true,
              description: 'false: the panel stays visible instead of fading out when idle.',
            }),
          ),
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

export const ProvidedValueSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const ProvidedMap = Type.Record(Type.String(), ProvidedValueSchema, {
  description:
    'Pre-filled user data (email, phone, name, …): strings, numbers or booleans. `email`, ' +
    '`phone` and `name` must be strings.',
});

/**
 * The id of a background image asset drawn behind avatars streamed on a green screen (compat.md
 * §2). This service keeps no background assets and its avatars draw their own background, so
 * every id is one the service does not know, which the original product ignores without error:
 * it is kept in the settings and nothing else (docs/sdk-inputs.md).
 */
const BackgroundAssetIdSchema = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'Id of a background asset for green-screen avatars. No asset is kept here and the avatars ' +
    'draw their own background, so it is stored and has no effect, as an unknown id has none ' +
    'in the original product.',
});

/**
 * Test mode only: the outcome each named node ends with by itself, so a QA run needs no clicks.
 * Which node ids and outcomes the flow has is checked at creation (`testOutcomeProblems`).
 */
const TestOutcomesSchema = Type.Record(
  Type.String({ minLength: 1, maxLength: FLOW_LIMITS.maxIdLength }),
  Type.String({ minLength: 1, maxLength: FLOW_LIMITS.maxIdLength }),
  {
    maxProperties: FLOW_LIMITS.maxNodes,
    description:
      'Test mode only (an `sk_test_` key; a live key gets a 400): node id → the outcome that node ' +
      'ends with as soon as the session reaches it, with no tester action. Every id must be a node ' +
      'of the flow and every outcome one its kind has.',
  },
);

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
    metadata: Type.Optional(MetadataMap),
    initialPhrase: Type.Optional(Type.String({ maxLength: API_LIMITS.maxPhraseLength })),
    finalPhrase: Type.Optional(Type.String({ maxLength: API_LIMITS.maxPhraseLength })),
    providedData: Type.Optional(ProvidedMap),
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
    backgroundAssetId: Type.Optional(BackgroundAssetIdSchema),
    extractionSchema: Type.Optional(ExtractionSchemaSchema),
    redirectUrl: Type.Optional(
      Type.String({
        maxLength: API_LIMITS.maxUrlLength,
        description: 'http(s) URL the end screen offers to go back to.',
      }),
    ),
    testOutcomes: Type.Optional(TestOutcomesSchema),
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
    metadata: MetadataMap,
    initialPhrase: Type.Optional(Type.String()),
    finalPhrase: Type.Optional(Type.String()),
    providedData: ProvidedMap,
    avatarId: Type.Optional(Type.String()),
    langs: Type.Array(Type.String()),
    defaultLang: Type.String(),
    zone: Type.Union([Type.Literal('us'), Type.Literal('eu'), Type.Literal('es')], {
      description: '`us` or `eu`; `es` for `us` in version 2025-01-01.',
    }),
    customization: Type.Optional(CustomizationSchema),
    videoAIAnalysisEnabled: Type.Boolean(),
    backgroundAssetId: Type.Optional(Type.String()),
    extractionSchema: Type.Optional(ExtractionSchemaSchema),
    redirectUrl: Type.Optional(Type.String()),
    embedOrigins: Type.Array(Type.String()),
    testOutcomes: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { $id: 'SessionSettings' },
);
export type SessionSettings = Static<typeof SessionSettingsSchema>;
