import { describe, expect, it } from 'vitest';
import {
  documentVideoConstraints,
  hasTorch,
  documentMirror,
  mirrorPreview,
  nextCamera,
  orientationOf,
  videoConstraints,
} from './constraints';

describe('videoConstraints', () => {
  it('asks for the front camera, landscape 640×480', () => {
    expect(videoConstraints({ facing: 'user', orientation: 'landscape' })).toEqual({
      facingMode: 'user',
      width: { ideal: 640 },
      height: { ideal: 480 },
      frameRate: { ideal: 30, max: 30 },
    });
  });

  it('turns the size in portrait', () => {
    const c = videoConstraints({ facing: 'environment', orientation: 'portrait' });
    expect(c.facingMode).toBe('environment');
    expect(c.width).toEqual({ ideal: 480 });
    expect(c.height).toEqual({ ideal: 640 });
  });

  it('a chosen device replaces facingMode', () => {
    const c = videoConstraints({ facing: 'user', orientation: 'landscape', deviceId: 'cam2' });
    expect(c.deviceId).toEqual({ exact: 'cam2' });
    expect(c).not.toHaveProperty('facingMode');
  });
});

describe('orientationOf', () => {
  it('reads the screen size', () => {
    expect(orientationOf(390, 844)).toBe('portrait');
    expect(orientationOf(1280, 800)).toBe('landscape');
    expect(orientationOf(500, 500)).toBe('landscape');
  });
});

describe('nextCamera', () => {
  it('cycles through the cameras', () => {
    expect(nextCamera(['a', 'b', 'c'], 'a')).toBe('b');
    expect(nextCamera(['a', 'b', 'c'], 'c')).toBe('a');
    expect(nextCamera(['a', 'b'], undefined)).toBe('a');
    expect(nextCamera(['a', 'b'], 'gone')).toBe('a');
  });

  it('has nothing to switch to with one camera', () => {
    expect(nextCamera(['a'], 'a')).toBeUndefined();
    expect(nextCamera([], undefined)).toBeUndefined();
  });
});

describe('mirrorPreview', () => {
  it('mirrors only the camera facing the user', () => {
    expect(mirrorPreview('user')).toBe(true);
    expect(mirrorPreview(undefined)).toBe(true);
    expect(mirrorPreview('environment')).toBe(false);
  });
});

describe('documentMirror', () => {
  it('offers the mirror button only on a camera facing the user', () => {
    expect(documentMirror('user', false)).toEqual({ mirrored: true, canMirror: true });
    expect(documentMirror('user', true)).toEqual({ mirrored: false, canMirror: true });
    expect(documentMirror(undefined, false)).toEqual({ mirrored: true, canMirror: true });
  });

  it('never offers or applies it on the back camera, whatever was chosen before a switch', () => {
    expect(documentMirror('environment', false)).toEqual({ mirrored: false, canMirror: false });
    expect(documentMirror('environment', true)).toEqual({ mirrored: false, canMirror: false });
  });
});

describe('documentVideoConstraints', () => {
  it('asks for the back camera at up to 1920×1080 by default', () => {
    expect(documentVideoConstraints({ orientation: 'landscape' })).toEqual({
      facingMode: 'environment',
      width: { ideal: 1920 },
      height: { ideal: 1080 },
      frameRate: { ideal: 30, max: 30 },
    });
  });

  it('turns the size in portrait and keeps a chosen facing', () => {
    const c = documentVideoConstraints({ orientation: 'portrait', facing: 'user' });
    expect(c.facingMode).toBe('user');
    expect(c.width).toEqual({ ideal: 1080 });
    expect(c.height).toEqual({ ideal: 1920 });
  });

  it('a chosen device replaces facingMode', () => {
    const c = documentVideoConstraints({ orientation: 'landscape', deviceId: 'back2' });
    expect(c.deviceId).toEqual({ exact: 'back2' });
    expect(c).not.toHaveProperty('facingMode');
  });

  it('is not mirrored in the preview (the back camera)', () => {
    expect(
      mirrorPreview(
        documentVideoConstraints({ orientation: 'landscape' }).facingMode as 'environment',
      ),
    ).toBe(false);
  });
});

describe('hasTorch', () => {
  it('only when the capabilities say so', () => {
    expect(hasTorch({ torch: true })).toBe(true);
    expect(hasTorch({ torch: false })).toBe(false);
    expect(hasTorch({ width: { max: 1920 } })).toBe(false);
    expect(hasTorch(undefined)).toBe(false);
    expect(hasTorch(null)).toBe(false);
  });
});
