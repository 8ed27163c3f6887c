import { afterEach, describe, expect, it, vi } from 'vitest';
import { endSessionRecording, setRecordingFinisher } from './sessionEnd';

describe('endSessionRecording', () => {
  afterEach(() => setRecordingFinisher(null));

  it('finishes the registered recording once, however often the end is seen', async () => {
    let finished = 0;
    setRecordingFinisher(async () => {
      finished++;
    });
    await endSessionRecording();
    await endSessionRecording();
    expect(finished).toBe(1);
  });

  it('does nothing without a recording', async () => {
    await expect(endSessionRecording()).resolves.toBeUndefined();
  });

  it('keeps a failed upload silent: logged, never thrown', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    setRecordingFinisher(() => Promise.reject(new Error('offline')));
    await expect(endSessionRecording()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
