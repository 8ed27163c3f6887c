import type { DocumentKind } from '../../core/flow';

/** The kind of document the screen asks for (the node's allowed types, grouped by what is read). */
export type DocumentType = DocumentKind;

/** A rectangle in the camera frame's pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Sizes in millimetres (ISO/IEC 7810): ID cards, residence permits and driving licences are ID-1
 * cards, a passport's data page is TD3, and a visa is held on the passport page it is stuck to.
 * Only the ratio matters to the guide; the server tells the formats apart by it.
 */
export const DOCUMENT_MM: Record<DocumentType, { width: number; height: number }> = {
  passport: { width: 125, height: 88 },
  id: { width: 85.6, height: 54 },
  'residence-permit': { width: 85.6, height: 54 },
  visa: { width: 125, height: 88 },
  dl: { width: 85.6, height: 54 },
};

/** How much of the frame the guide may take, each way: room around it to hold the edges. */
export const GUIDE_FILL = 0.84;

/**
 * The guide for a document type in a camera frame: the largest rectangle of the document's
 * ratio that fits within `fill` of the frame's width and height, centred. Always landscape: the
 * machine-readable zone is read along the document's long side.
 *
 * @example
 * guideRect('passport', { width: 960, height: 720 });
 * // { x: 76.8, y: 74.94…, width: 806.4, height: 567.7… }
 */
export function guideRect(
  type: DocumentType,
  frame: { width: number; height: number },
  fill = GUIDE_FILL,
): Rect {
  const { width: mmW, height: mmH } = DOCUMENT_MM[type];
  const ratio = mmW / mmH;
  let width = frame.width * fill;
  let height = width / ratio;
  if (height > frame.height * fill) {
    height = frame.height * fill;
    width = height * ratio;
  }
  return { x: (frame.width - width) / 2, y: (frame.height - height) / 2, width, height };
}

/**
 * A rectangle from one frame size to another (the guide, worked out on the camera's frame, on the
 * small grey copy the checks run on).
 *
 * @example
 * scaleRect({ x: 10, y: 10, width: 100, height: 50 }, 0.5); // { x: 5, y: 5, width: 50, height: 25 }
 */
export function scaleRect(r: Rect, factor: number): Rect {
  return {
    x: r.x * factor,
    y: r.y * factor,
    width: r.width * factor,
    height: r.height * factor,
  };
}
