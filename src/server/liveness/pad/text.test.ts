import { describe, expect, it } from 'vitest';
import { sobel } from './gradient';
import { faceLike, raster } from './pad-test-images';
import { textBeside } from './text';

const box = { x: 40, y: 60, width: 60, height: 70 };
const face = (x: number, y: number) => faceLike(x, y, 70, 95, 60);

describe('textBeside', () => {
  it('counts printed lines right of the face', () => {
    // Three lines of 2 px strokes every 5 px, 8 px tall, 6 px apart.
    const doc = (x: number, y: number) => {
      const line = Math.floor((y - 60) / 14);
      const inLine = line >= 0 && line < 3 && (y - 60) % 14 < 8;
      if (x > 120 && x < 280 && inLine && x % 5 < 2) return 30;
      return x > 110 ? 220 : face(x, y);
    };
    expect(textBeside(sobel(raster(320, 240, doc)), box)).toEqual({ lines: 3, where: 'right' });
  });

  it('finds none beside a face on a plain background', () => {
    expect(textBeside(sobel(raster(320, 240, face)), box).lines).toBe(0);
  });
});
