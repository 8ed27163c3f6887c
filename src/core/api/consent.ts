/**
 * Consent and disclosure before the first capture (docs/hosted-page.md): what the hosted page
 * tells the user it captures, why, for how long and for whom, the user's choice, and the version
 * of the text it was shown, as kept in the report.
 */
import { Type, type Static } from '@sinclair/typebox';
import { API_LIMITS } from './limits';

export { CONSENT_TEXT_VERSION } from './consent-version';

/** The integrator's part of the disclosure: `customization.consent`. */
export const ConsentSettingsSchema = Type.Object(
  {
    organizationName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Who the data is for. Default: "the service that sent you here".',
      }),
    ),
    privacyUrl: Type.Optional(
      Type.String({
        maxLength: API_LIMITS.maxUrlLength,
        description: 'http(s) link to the privacy notice. Default: none shown.',
      }),
    ),
    retentionDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3650,
        description:
          'How many days the images and recordings are kept. Default: as the privacy notice says.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConsentSettings = Static<typeof ConsentSettingsSchema>;

export const ConsentChoiceSchema = Type.Union([Type.Literal('accepted'), Type.Literal('declined')]);

/** The user's choice as kept in the report. */
export const ConsentRecordSchema = Type.Object(
  {
    choice: ConsentChoiceSchema,
    textVersion: Type.String({ description: 'The version of the text the user was shown.' }),
    at: Type.Integer({ description: 'When the user chose (ms since epoch).' }),
  },
  { $id: 'ConsentRecord' },
);
export type ConsentRecord = Static<typeof ConsentRecordSchema>;

/** `POST /client/consent`. */
export const ConsentBodySchema = Type.Object(
  {
    choice: ConsentChoiceSchema,
    textVersion: Type.String({ minLength: 1, maxLength: 40 }),
  },
  { additionalProperties: false },
);
