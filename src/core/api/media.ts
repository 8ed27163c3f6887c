import { Type, type Static } from '@sinclair/typebox';

export const SessionMediaSchema = Type.Object(
  {
    id: Type.String(),
    createdAt: Type.Integer({ description: 'Unix ms.' }),
    expireAt: Type.Optional(Type.Integer({ description: 'When the signed URL stops working.' })),
    contentType: Type.Optional(Type.String()),
    url: Type.String(),
  },
  { $id: 'SessionMedia' },
);
export type SessionMedia = Static<typeof SessionMediaSchema>;

export const ReportMediaSchema = Type.Object(
  {
    screenshots: Type.Optional(Type.Array(SessionMediaSchema)),
    userVideo: Type.Optional(SessionMediaSchema),
    avatarVideo: Type.Optional(SessionMediaSchema),
    documentImages: Type.Optional(
      Type.Array(
        Type.Object({
          side: Type.Integer(),
          type: Type.Union(
            ['document', 'face', 'signature', 'input', 'barcodeInput'].map((t) => Type.Literal(t)),
          ),
          file: SessionMediaSchema,
        }),
      ),
    ),
  },
  {
    $id: 'ReportMedia',
    description:
      'The report media as media objects (absent in 2025-09-01; see `screenshots`, `videos`).',
  },
);
export type ReportMedia = Static<typeof ReportMediaSchema>;
