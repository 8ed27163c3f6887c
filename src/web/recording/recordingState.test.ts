import { describe, expect, it } from 'vitest';
import {
  isRecording,
  recordingStarted,
  recordingStopped,
  releaseSessionCamera,
  subscribeRecording,
} from './recordingState';

describe('recordingState', () => {
  it('tells its listeners when recording starts and stops, and releases through the recorder', async () => {
    const seen: boolean[] = [];
    const stop = subscribeRecording(() => seen.push(isRecording()));
    expect(isRecording()).toBe(false);
    await releaseSessionCamera(); // nothing runs: nothing happens
    let released = 0;
    recordingStarted(async () => {
      released++;
      recordingStopped();
    });
    expect(isRecording()).toBe(true);
    await releaseSessionCamera();
    expect([released, isRecording()]).toEqual([1, false]);
    await releaseSessionCamera();
    expect(released).toBe(1);
    recordingStopped(); // already stopped: no news
    stop();
    recordingStarted(async () => undefined);
    expect(seen).toEqual([true, false]);
    recordingStopped();
  });
});
