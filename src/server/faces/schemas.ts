/**
 * Bodies of the face routes (docs/client-api.md): one schema source for validation and OpenAPI.
 */
import { Type, type Static } from '@sinclair/typebox';
import { PositionSchema } from '../../core/api/client';

export const RunNodeBodySchema = Type.Object({}, { additionalProperties: false });
export type RunNodeBody = Static<typeof RunNodeBodySchema>;

export const RunNodeAnswerSchema = Type.Object(
  { position: PositionSchema },
  { $id: 'RunNodeAnswer', description: 'Where the flow is after the server decided the node.' },
);
export type RunNodeAnswer = Static<typeof RunNodeAnswerSchema>;
