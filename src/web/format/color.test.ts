import { describe, expect, it } from 'vitest';
import { contrastRatio, parseColor, readableTextOn } from './color';

describe('parseColor', () => {
  it('reads short and long hex and rgb()', () => {
    expect(parseColor('#fff')).toEqual([255, 255, 255]);
    expect(parseColor('#0A84FF')).toEqual([10, 132, 255]);
    expect(parseColor('rgb(1, 2, 3)')).toEqual([1, 2, 3]);
    expect(parseColor('rgba(1 2 3 / 50%)')).toEqual([1, 2, 3]);
  });

  it('refuses anything else', () => {
    for (const bad of ['red', '#12', 'rgb(300,0,0)', 'url(x)', '#fff;background:url(x)']) {
      expect(parseColor(bad), bad).toBeNull();
    }
  });
});

describe('readableTextOn', () => {
  it('keeps AA contrast (4.5:1) on any background', () => {
    for (let r = 0; r <= 255; r += 51) {
      for (let g = 0; g <= 255; g += 51) {
        for (let b = 0; b <= 255; b += 51) {
          const bg = [r, g, b] as [number, number, number];
          const text = parseColor(readableTextOn(bg));
          expect(text).not.toBeNull();
          expect(contrastRatio(bg, text!)).toBeGreaterThanOrEqual(4.5);
        }
      }
    }
  });

  it('puts dark text on light colours and white on dark ones', () => {
    expect(readableTextOn([255, 221, 0])).toBe('#000000');
    expect(readableTextOn([20, 40, 120])).toBe('#ffffff');
  });
});
