/**
 * A card, a sheet of paper or a screen held up to the camera has straight edges around the face it
 * shows. Below the face is where a real person differs most: their neck and shoulders go on down,
 * and nothing straight crosses under the chin from one side to the other, while the bottom edge of
 * a card, a print or a screen does.
 */
import type { Box } from '../../../core/liveness';
import type { Gradients } from './gradient';

export type Side = 'top' | 'bottom' | 'left' | 'right';

export interface BorderSide {
  /** Share (0–1) of the straight span beside the face that lies on one strong edge. */
  support: number;
  /** How far the line is from the face box, in face heights (top/bottom) or widths (left/right). */
  distance: number;
  /** Its tilt from the side's own direction, degrees. */
  angle: number;
}

export interface BorderCue {
  /** Per side, the best straight edge; null where the search area is outside the frame. */
  sides: Record<Side, BorderSide | null>;
  /** How many sides have an edge with at least `minSupport`. */
  found: number;
  /** A straight edge under the face and on at least two more sides: the face is in a frame. */
  enclosed: boolean;
}

export interface BorderOptions {
  /** Gradient across the line (Sobel units, 4× the step) a point of an edge needs. */
  minEdge: number;
  /** Share of the span on the line for a side to count. */
  minSupport: number;
  /** Search distance from the face, in face sizes. */
  reach: number;
  /** Length of the span checked, in face sizes, centred on the face. */
  span: number;
  /** Largest tilt tried, degrees. */
  maxAngle: number;
}

export const BORDER_DEFAULTS: BorderOptions = {
  minEdge: 48,
  minSupport: 0.8,
  reach: 3,
  span: 1.6,
  maxAngle: 15,
};

/**
 * Looks on each side of the face for a straight strong edge spanning the face (1.6 face sizes,
 * tilted up to 15°, within 3 face sizes), and calls the face enclosed when one runs under it and
 * at least two more sides have one.
 *
 * @example
 * enclosingBorder(sobel(gray), face.box).enclosed; // true for a passport held up
 */
export function enclosingBorder(
  grad: Gradients,
  box: Box,
  options: Partial<BorderOptions> = {},
): BorderCue {
  const o = { ...BORDER_DEFAULTS, ...options };
  // Only pixels on a strong edge can support a line: their gradient, looked up once.
  const strong = new Uint8Array(grad.gx.length);
  const min2 = o.minEdge * o.minEdge;
  for (let i = 0; i < strong.length; i++) {
    if (grad.gx[i]! * grad.gx[i]! + grad.gy[i]! * grad.gy[i]! >= min2) strong[i] = 1;
  }
  const sides = {
    top: searchSide(grad, strong, box, 'top', o),
    bottom: searchSide(grad, strong, box, 'bottom', o),
    left: searchSide(grad, strong, box, 'left', o),
    right: searchSide(grad, strong, box, 'right', o),
  };
  const ok = (s: BorderSide | null) => s !== null && s.support >= o.minSupport;
  const found = (Object.values(sides) as (BorderSide | null)[]).filter(ok).length;
  return { sides, found, enclosed: ok(sides.bottom) && found >= 3 };
}

function searchSide(
  grad: Gradients,
  strong: Uint8Array,
  box: Box,
  side: Side,
  o: BorderOptions,
): BorderSide | null {
  const { width: w, height: h, gx, gy } = grad;
  const horizontal = side === 'top' || side === 'bottom';
  const size = horizontal ? box.height : box.width;
  const along = horizontal ? box.width : box.height;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  // Offsets of the line's centre from the face's centre, outward, pixels.
  const start = size / 2 + 0.1 * size;
  const end = size / 2 + o.reach * size;
  const sign = side === 'bottom' || side === 'right' ? 1 : -1;
  const limit = horizontal ? (sign > 0 ? h - 2 - cy : cy - 1) : sign > 0 ? w - 2 - cx : cx - 1;
  const last = Math.min(end, limit);
  if (last < start) return null;
  const half = (o.span * along) / 2;
  const step = Math.max(1, Math.round(along / 80));
  let best: BorderSide = { support: 0, distance: 0, angle: 0 };
  for (let deg = -o.maxAngle; deg <= o.maxAngle; deg += 3) {
    const a = (deg * Math.PI) / 180;
    // Direction along the line and its normal, for a horizontal or a vertical side.
    const dx = horizontal ? Math.cos(a) : Math.sin(a);
    const dy = horizontal ? Math.sin(a) : Math.cos(a);
    const nx = -dy;
    const ny = dx;
    for (let off = start; off <= last; off += 2) {
      const ox = horizontal ? cx : cx + sign * off;
      const oy = horizontal ? cy + sign * off : cy;
      let hit = 0;
      let total = 0;
      for (let t = -half; t <= half; t += step) {
        total++;
        const px = ox + t * dx;
        const py = oy + t * dy;
        // The edge may be a pixel off the ideal line (perspective, a bent sheet).
        for (let k = 0; k <= 2; k++) {
          const kk = k === 2 ? -1 : k;
          const x = Math.round(px + kk * nx);
          const y = Math.round(py + kk * ny);
          if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) continue;
          const i = y * w + x;
          if (!strong[i]) continue;
          // Across the line, not along it: within about 27° of its normal.
          const across = Math.abs(gx[i]! * nx + gy[i]! * ny);
          const along = Math.abs(gx[i]! * dx + gy[i]! * dy);
          if (across >= o.minEdge && across >= 2 * along) {
            hit++;
            break;
          }
        }
      }
      const support = total ? hit / total : 0;
      if (support > best.support) {
        best = { support, distance: (off - size / 2) / size, angle: deg };
      }
    }
  }
  return best;
}
