import { Type, type Static } from '@sinclair/typebox';

export const ClientSecretSchema = Type.Object(
  {
    secret: Type.String({
      description:
        '`cs_`, 43 random base64url characters (32 bytes), then `.` and the id of the session it opens.',
    }),
    createdAt: Type.Integer({ description: 'Unix milliseconds (seconds in 2025-01-01).' }),
    expireAt: Type.Integer({ description: 'One hour after createdAt.' }),
    url: Type.String({ description: 'The hosted page, `{PUBLIC_URL}/verify?client_secret=…`.' }),
  },
  { $id: 'ClientSecret' },
);
export type ClientSecret = Static<typeof ClientSecretSchema>;

/** Lifetime of a client secret (spec: 1 hour). */
export const CLIENT_SECRET_TTL_MS = 60 * 60 * 1000;
