/**
 * The document-scan routes of the client API (docs/documents.md): bodies and answers in TypeBox,
 * so that the server's validation, the OpenAPI document and the page's types come from one source.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DOCUMENT_KINDS } from '../documents/types';
import { PositionSchema } from './client';

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
    documentType: Type.Optional(
      Type.Union(
        DOCUMENT_KINDS.map((k) => Type.Literal(k)),
        {
          description:
            'The document the user was asked to show (one the node allows): only what that side of it carries is read. Without it, everything is looked for.',
        },
      ),
    ),
  },
  { additionalProperties: false, $id: 'DocumentUpload' },
);
export type DocumentUploadBody = Static<typeof DocumentUploadBodySchema>;

/**
 * Why a photo was not enough: nothing could be read (`unreadable`), a check digit fails
 * (`checks_failed`), the document has expired (`expired`), an ID card's or licence's front was
 * kept and its back is wanted (`front_saved`), a licence's back has no barcode that can be read
 * (`no_barcode`), or the document failed a forgery or consistency check (`not_genuine`).
 */
export const DOCUMENT_RETRY_REASONS = [
  'unreadable',
  'checks_failed',
  'expired',
  'front_saved',
  'no_barcode',
  'not_genuine',
] as const;
export type DocumentRetryReason = (typeof DOCUMENT_RETRY_REASONS)[number];

/** What an upload answers: read (the node ended scanSuccess), try again, or the node timed out. */
export const DocumentAnswerSchema = Type.Union(
  [
    Type.Object({ status: Type.Literal('read'), position: PositionSchema }),
    Type.Object({
      status: Type.Literal('retry'),
      reason: Type.Union(DOCUMENT_RETRY_REASONS.map((r) => Type.Literal(r))),
      attempts: Type.Integer({ minimum: 1, description: 'Photos read so far at this node.' }),
    }),
    Type.Object({ status: Type.Literal('timeout'), position: PositionSchema }),
  ],
  { $id: 'DocumentAnswer' },
);
export type DocumentAnswer = Static<typeof DocumentAnswerSchema>;
