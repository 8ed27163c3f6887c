import { describe, expect, it } from 'vitest';
import { enclosingBorder } from './border';
import { sobel } from './gradient';
import { faceLike, raster } from './pad-test-images';

const box = { x: 120, y: 100, width: 60, height: 70 };
const face = (x: number, y: number) => faceLike(x, y, 150, 135, 60);
/** A light card from (60, 60) to (330, 300) on a dark room, the face on it. */
const onCard = (x: number, y: number) =>
  x >= 60 && x <= 330 && y >= 60 && y <= 300 ? 200 + (face(x, y) - 90) * 0.5 : 40;

describe('enclosingBorder', () => {
  it('finds a card held up around the face: an edge under it and on three more sides', () => {
    const cue = enclosingBorder(sobel(raster(480, 360, onCard)), box);
    expect(cue.enclosed).toBe(true);
    expect(cue.found).toBe(4);
    expect(cue.sides.bottom!.support).toBeGreaterThan(0.9);
  });

  it('finds it tilted 12°', () => {
    const a = (12 * Math.PI) / 180;
    const tilted = (x: number, y: number) => {
      const u = (x - 230) * Math.cos(a) + (y - 180) * Math.sin(a) + 230;
      const v = -(x - 230) * Math.sin(a) + (y - 180) * Math.cos(a) + 180;
      return onCard(u, v);
    };
    const tb = { x: 130, y: 110, width: 60, height: 70 };
    expect(enclosingBorder(sobel(raster(480, 360, tilted)), tb).enclosed).toBe(true);
  });

  it('does not call a person in a doorway enclosed: nothing straight crosses under the chin', () => {
    // Door jambs left and right, a lintel above, the body going on down below the face.
    const doorway = (x: number, y: number) => {
      const body = Math.abs(x - 150) < 70 && y > 165 ? 120 : 0;
      const frame = x < 60 || x > 260 || y < 50 ? 30 : 190;
      return body || frame || face(x, y);
    };
    const cue = enclosingBorder(sobel(raster(480, 360, doorway)), box);
    expect(cue.sides.bottom!.support).toBeLessThan(0.7);
    expect(cue.enclosed).toBe(false);
  });

  it('cannot see a side beyond the frame', () => {
    const high = { x: 120, y: 2, width: 60, height: 70 };
    expect(enclosingBorder(sobel(raster(480, 360, onCard)), high).sides.top).toBeNull();
  });
});
