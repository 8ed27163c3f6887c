import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import { BoundedInteger, fixedOutcomes, nodeSchema } from './common';
import { FIXED_OUTCOMES } from '../node-types';

export const DOCUMENT_TYPES = ['passport', 'id', 'dl'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Captures an identity document and reads its machine-readable zone. */
export const DocumentScanNodeSchema = nodeSchema(
  'document_scan',
  {
    allowedDocumentTypes: Type.Optional(
      Type.Array(Type.Union(DOCUMENT_TYPES.map((t) => Type.Literal(t))), {
        minItems: 1,
        uniqueItems: true,
        description: 'passport, id (ID card) and/or dl (driving licence). All by default.',
      }),
    ),
    scanningMode: Type.Optional(
      Type.Union([Type.Literal('single'), Type.Literal('automatic')], {
        default: 'single',
        description: 'single: one side; automatic: front and back where the document has both.',
      }),
    ),
    showTorchButton: Type.Optional(Type.Boolean({ default: true })),
    showCameraSwitch: Type.Optional(Type.Boolean({ default: true })),
    showMirrorCameraButton: Type.Optional(Type.Boolean({ default: true })),
    timeoutSeconds: Type.Optional(
      BoundedInteger(FLOW_LIMITS.scanTimeoutSeconds, 'Time allowed before scanTimeout.'),
    ),
    outcomes: fixedOutcomes(FIXED_OUTCOMES.document_scan),
  },
  'Captures an identity document and verifies its machine-readable zone.',
);
export type DocumentScanNode = Static<typeof DocumentScanNodeSchema>;

export const DOCUMENT_SCAN_DEFAULTS = {
  allowedDocumentTypes: [...DOCUMENT_TYPES],
  scanningMode: 'single',
  showTorchButton: true,
  showCameraSwitch: true,
  showMirrorCameraButton: true,
  timeoutSeconds: FLOW_LIMITS.scanTimeoutSeconds.default,
} as const;
export type ResolvedDocumentScanNode = DocumentScanNode & {
  allowedDocumentTypes: DocumentType[];
  scanningMode: 'single' | 'automatic';
  showTorchButton: boolean;
  showCameraSwitch: boolean;
  showMirrorCameraButton: boolean;
  timeoutSeconds: number;
};

/**
 * The node with every option filled in.
 * @example documentScanWithDefaults({ id: 'd', type: 'document_scan', outcomes: {} }).scanningMode // 'single'
 */
export function documentScanWithDefaults(node: DocumentScanNode): ResolvedDocumentScanNode {
  return {
    ...DOCUMENT_SCAN_DEFAULTS,
    ...node,
    allowedDocumentTypes: [...(node.allowedDocumentTypes ?? DOCUMENT_TYPES)],
  };
}
