import { describe, expect, it } from 'vitest';
import {
  FRAME_EVERY_MS,
  FRAME_SLACK_MS,
  MAX_VIDEO_BYTES,
  MAX_VIDEO_FRAMES,
  VIDEO_BITS_PER_SECOND,
  frameDue,
  pickRecordingType,
  takeChunk,
} from './recordingPlan';

describe('pickRecordingType', () => {
  it('prefers WebM with VP8 where the browser records it', () => {
    expect(pickRecordingType(() => true)).toEqual({
      mimeType: 'video/webm;codecs=vp8',
      uploadType: 'video/webm',
    });
  });

  it('falls back to VP9, then to MP4 (Safari), uploading the bare media type', () => {
    expect(pickRecordingType((t) => t === 'video/webm;codecs=vp9')).toEqual({
      mimeType: 'video/webm;codecs=vp9',
      uploadType: 'video/webm',
    });
    expect(pickRecordingType((t) => t === 'video/mp4')).toEqual({
      mimeType: 'video/mp4',
      uploadType: 'video/mp4',
    });
  });

  it('is null when nothing can be recorded, and survives a throwing isTypeSupported', () => {
    expect(pickRecordingType(() => false)).toBeNull();
    const picked = pickRecordingType((t) => {
      if (t.includes('webm')) throw new Error('unknown type');
      return true;
    });
    expect(picked?.uploadType).toBe('video/mp4');
  });
});

describe('takeChunk', () => {
  it('keeps pieces up to the limit exactly, and no piece beyond it', () => {
    expect(takeChunk(0, 1000, 1000)).toBe('keep');
    expect(takeChunk(1, 1000, 1000)).toBe('full');
    expect(takeChunk(MAX_VIDEO_BYTES - 5, 5)).toBe('keep');
    expect(takeChunk(MAX_VIDEO_BYTES - 5, 6)).toBe('full');
  });

  it('lets a 10-minute session at the chosen bitrate fit the upload limit', () => {
    const tenMinutes = (VIDEO_BITS_PER_SECOND / 8) * 600;
    expect(takeChunk(0, tenMinutes)).toBe('keep');
  });
});

describe('frameDue', () => {
  it('samples the first frame at once and then every 2 s, a timer a little early included', () => {
    expect(frameDue(0, null, 0)).toBe(true);
    expect(frameDue(1, 500, 500 + FRAME_EVERY_MS)).toBe(true);
    expect(frameDue(1, 500, 500 + FRAME_EVERY_MS - 1)).toBe(true);
    expect(frameDue(1, 500, 500 + FRAME_EVERY_MS - FRAME_SLACK_MS - 1)).toBe(false);
  });

  it('keeps the 2 s pace on a jittery 2 s timer (one frame per tick, none skipped)', () => {
    let sampled = 0;
    let lastAt: number | null = null;
    const jitter = [0, -3, 4, -1, 2, -4, 1, 0, -2, 3];
    for (let tick = 1; tick <= 10; tick++) {
      const now = tick * FRAME_EVERY_MS + jitter[tick - 1]!;
      if (frameDue(sampled, lastAt, now)) {
        sampled++;
        lastAt = now;
      }
    }
    expect(sampled).toBe(10);
  });

  it('stops at the route limit of 30 frames', () => {
    let sampled = 0;
    let lastAt: number | null = null;
    for (let now = 0; now < 10 * 60_000; now += 100) {
      if (frameDue(sampled, lastAt, now)) {
        sampled++;
        lastAt = now;
      }
    }
    expect(sampled).toBe(MAX_VIDEO_FRAMES);
  });
});
