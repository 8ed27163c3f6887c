/**
 * The document routes' bodies and answers (TypeBox: types, validation and OpenAPI from one
 * source). Kept here until the lead moves them to `src/core/api` for the page.
 */
import { Type, type Static } from '@sinclair/typebox';

/** Photos are larger than liveness frames: a document needs its MRZ sharp. */
export const DOCUMENT_LIMITS = {
  maxImageBytes: 3 * 1024 * 1024,
  bodyBytes: Math.ceil((3 * 1024 * 1024 * 4) / 3) + 4096,
  /** Readings kept in the node report; later ones are counted only. */
  maxAttemptsReported: 20,
} as const;

export const DocumentUploadBodySchema = Type.Object(
  {
    side: Type.Union([Type.Literal('front'), Type.Literal('back')], {
      description:
        'Which side of the document the photo shows (ID cards carry the MRZ on the back).',
    }),
    image: Type.String({
      minLength: 4,
      maxLength: DOCUMENT_LIMITS.bodyBytes,
      description: 'The photo: base64 of a JPEG (optionally a data: URL), at most 3 MB.',
    }),
  },
  { additionalProperties: false, $id: 'DocumentUpload' },
);
export type DocumentUploadBody = Static<typeof DocumentUploadBodySchema>;

export const DOCUMENT_RETRY_REASONS = [
  'unreadable',
  'checks_failed',
  'expired',
  'front_saved',
] as const;
export type DocumentRetryReason = (typeof DOCUMENT_RETRY_REASONS)[number];
