/**
 * Closed or half-closed eyelids painted on a portrait, for rendering a blink: each eye's opening
 * is covered from the top by skin taken from just above the eye (the upper lid), with a dark lash
 * line along the lid's edge. The rendered heads blink with it (scripts/fixtures/head-scene.ts,
 * `blinkAmount`); scripts/fixtures/measure-eyes.ts measures what the server's face mesh sees.
 */
import type { RgbImage } from './head-render';

/** One eye of the portrait: its centre and half sizes of its opening, in photo pixels. */
export interface EyeSpot {
  x: number;
  y: number;
  halfWidth: number;
  halfHeight: number;
  /** The row the lid's skin is taken from; by default just above the opening. */
  skinY?: number;
}

/** The astronaut's eyes in astronaut.png (512×512), as the server's face mesh finds them. */
export const ASTRONAUT_EYES: readonly EyeSpot[] = [
  { x: 204, y: 101.5, halfWidth: 10, halfHeight: 3.5 },
  { x: 247, y: 103.5, halfWidth: 10, halfHeight: 3.5 },
];

/** How much darker the lash line is than the lid. */
const LASH_DARKENING = 0.6;
/** Half thickness of the lash line, pixels. */
const LASH_HALF_WIDTH = 1.2;
/** The upper lid ends this share of the eye's half height below the centre when closed. */
const CLOSED_BELOW_CENTRE = 0.25;

/**
 * A copy of `photo` with each eye closed by `amount` (0 open, 1 closed); the rest of the photo is
 * untouched.
 *
 * @example
 * const blinking = closeEyes(astronaut, ASTRONAUT_EYES, 1);
 */
export function closeEyes(photo: RgbImage, eyes: readonly EyeSpot[], amount: number): RgbImage {
  const out: RgbImage = { ...photo, rgb: new Uint8Array(photo.rgb) };
  const a = Math.min(1, Math.max(0, amount));
  if (a === 0) return out;
  const { width, height } = photo;
  const at = (x: number, y: number, c: number) => {
    const xx = Math.min(width - 1, Math.max(0, Math.round(x)));
    const yy = Math.min(height - 1, Math.max(0, Math.round(y)));
    return photo.rgb[(yy * width + xx) * 3 + c]!;
  };
  for (const e of eyes) {
    for (let y = Math.floor(e.y - e.halfHeight - 1); y <= Math.ceil(e.y + e.halfHeight + 1); y++) {
      for (let x = Math.floor(e.x - e.halfWidth); x <= Math.ceil(e.x + e.halfWidth); x++) {
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        const u = (x - e.x) / e.halfWidth;
        if (Math.abs(u) >= 1) continue;
        // The opening is an ellipse; the lid comes down from its top to just below its centre.
        const half = Math.sqrt(1 - u * u) * e.halfHeight;
        const top = e.y - half;
        const edge = top + a * half * (1 + CLOSED_BELOW_CENTRE);
        if (y < top - 0.5 || y > edge + 1) continue;
        const inside = Math.max(0, Math.min(1, edge - y + 0.5));
        const lash = Math.max(0, 1 - Math.abs(edge - y) / LASH_HALF_WIDTH) * Math.min(1, a * 1.5);
        const i = (y * width + x) * 3;
        for (let c = 0; c < 3; c++) {
          const skin = at(x, e.skinY ?? e.y - e.halfHeight - 2.5, c) * 0.93;
          const v = photo.rgb[i + c]! * (1 - inside) + skin * inside;
          out.rgb[i + c] = Math.round(v * (1 - LASH_DARKENING * lash));
        }
      }
    }
  }
  return out;
}
