import { describe, expect, it } from 'vitest';
import { guide, meanBrightness } from './guidance';
import { syntheticFace } from './synthetic';

const frame = { width: 640, height: 480 };
const fits = syntheticFace({ cx: 320, cy: 240, eyeDistance: 100 }); // 220 px: scale 0.46

describe('guide', () => {
  it('is ready when one centred face of the right size is well lit', () => {
    expect(guide([fits], frame, 120)).toEqual({ hints: [], ready: true });
  });

  it('asks for a face when there is none, and for light when dark', () => {
    expect(guide([], frame, 120).hints).toEqual(['noFace']);
    expect(guide([], frame, 20).hints).toEqual(['noFace', 'moreLight']);
  });

  it('asks for one person first when there are two', () => {
    const other = syntheticFace({ cx: 100, cy: 240, eyeDistance: 90 });
    expect(guide([fits, other], frame, 120).hints).toEqual(['onePerson']);
  });

  it('ignores a face below the score threshold', () => {
    const poster = syntheticFace({ cx: 100, eyeDistance: 30, score: 0.2 });
    expect(guide([fits, poster], frame, 120).ready).toBe(true);
  });

  it('tells the user to come closer or move back', () => {
    expect(guide([syntheticFace({ eyeDistance: 40 })], frame, 120).hints).toEqual(['moveCloser']);
    expect(guide([syntheticFace({ eyeDistance: 180 })], frame, 120).hints).toEqual(['moveFarther']);
  });

  it('tells the user to centre', () => {
    const off = syntheticFace({ cx: 500, cy: 240, eyeDistance: 100 });
    expect(guide([off], frame, 120).hints).toEqual(['center']);
    const low = syntheticFace({ cx: 320, cy: 400, eyeDistance: 100 });
    expect(guide([low], frame, 30).hints).toEqual(['moreLight', 'center']);
  });
  it('asks the user to look straight at the camera when the head is turned either way', () => {
    const at = (yawDeg: number) => syntheticFace({ cx: 320, cy: 240, eyeDistance: 100, yawDeg });
    expect(guide([at(30)], frame, 120)).toEqual({ hints: ['lookStraight'], ready: false });
    expect(guide([at(-30)], frame, 120).hints).toEqual(['lookStraight']);
    expect(guide([at(8)], frame, 120).ready).toBe(true);
    expect(guide([at(30)], frame, 120, { maxYawDegrees: 45 }).ready).toBe(true);
  });
});

describe('meanBrightness', () => {
  it('averages the luma of RGBA pixels', () => {
    const white = new Uint8ClampedArray([255, 255, 255, 255, 0, 0, 0, 255]);
    expect(meanBrightness(white)).toBeCloseTo(127.5, 6);
    expect(meanBrightness(new Uint8ClampedArray([255, 0, 0, 255]))).toBeCloseTo(76.245, 3);
    expect(meanBrightness(new Uint8ClampedArray([]))).toBe(0);
  });
});
