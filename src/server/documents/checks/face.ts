/**
 * A face where the layout puts the portrait: ICAO 9303 (zone V of TD1, TD2 and TD3 documents,
 * visas) and the AAMVA card design standard place it on the left of the side with the printed
 * fields. The face found must be centred in the page's left 45% and at least an eighth of its
 * height (a face in the background pattern or a tiny ghost image is no portrait).
 */
import { check, type DocumentCheck } from './types';

export interface FaceOnPage {
  box: { x: number; y: number; width: number; height: number };
  page: { width: number; height: number };
}

/**
 * The face check (null: no side with a portrait was seen).
 *
 * @example
 * faceCheck({ box: { x: 40, y: 110, width: 250, height: 300 }, page: { width: 1250, height: 880 } }); // passed
 */
export function faceCheck(face: FaceOnPage | null | undefined): DocumentCheck {
  if (face === undefined) return check('face', null, 'no side with a portrait');
  if (face === null) return check('face', false, 'no face found');
  const cx = (face.box.x + face.box.width / 2) / face.page.width;
  const h = face.box.height / face.page.height;
  if (cx > 0.45) return check('face', false, 'the face is not where the portrait goes');
  if (h < 1 / 8) return check('face', false, 'the face is too small for a portrait');
  return check('face', true);
}
