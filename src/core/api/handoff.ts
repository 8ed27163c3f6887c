import { Type, type Static } from '@sinclair/typebox';
import { PositionSchema } from './client';

/** How long a link to continue on a phone may be opened (docs/client-api.md). */
export const HANDOFF_TTL_MS = 10 * 60 * 1000;

/** The characters of a hand-off code: no 0/O, 1/I/L or U/V to misread when typed from a screen. */
export const HANDOFF_ALPHABET = 'ABCDEFGHJKMNPQRSTWXYZ23456789';
/** 12 characters of 29: about 58 bits, for a link that lives 10 minutes and works once. */
export const HANDOFF_CODE_LENGTH = 12;

export const HandoffClaimBodySchema = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const HandoffOfferSchema = Type.Object(
  {
    code: Type.String({
      description: "The link's code, also typed by hand if the QR code cannot be scanned.",
    }),
    url: Type.String({ description: 'The short link the phone opens, `{PUBLIC_URL}/p/{code}`.' }),
    expiresAt: Type.Integer({ description: 'Unix milliseconds; 10 minutes after the offer.' }),
  },
  { $id: 'HandoffOffer' },
);
export type HandoffOffer = Static<typeof HandoffOfferSchema>;

export const HandoffStatusSchema = Type.Object(
  {
    state: Type.Union(
      ['none', 'offered', 'expired', 'claimed'].map((s) => Type.Literal(s)),
      {
        description:
          '`offered`: a link is waiting for the phone; `expired`: it died unopened; `claimed`: the phone has the session.',
      },
    ),
    expiresAt: Type.Union([Type.Integer(), Type.Null()]),
    position: PositionSchema,
  },
  { $id: 'HandoffStatus' },
);
export type HandoffStatus = Static<typeof HandoffStatusSchema>;

/**
 * A code as typed: upper-cased, spaces and dashes dropped (the page shows it in groups).
 *
 * @example
 * normalizeHandoffCode('abcd-efgh-jkmn'); // 'ABCDEFGHJKMN'
 */
export function normalizeHandoffCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/g, '');
}
