import { useEffect, useRef } from 'react';

/** What a face_scan node asks for (its enableSound and enableHaptics, both true by default). */
export interface FeedbackOptions {
  sound: boolean;
  haptics: boolean;
}

let audio: AudioContext | null = null;

/** A short sine tone made on the page (no file is fetched); silent where Web Audio is missing. */
function tone(frequency: number, ms: number): void {
  const Ctx = globalThis.AudioContext;
  if (!Ctx) return;
  try {
    audio ??= new Ctx();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = frequency;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + ms / 1000);
  } catch {
    // A browser that refuses audio before a gesture: the capture goes on without the tone.
  }
}

/**
 * Feedback around a capture: a tone when it starts and a higher one, with a short vibration on
 * devices that have one, when its frames are done; each only when the node allows it.
 *
 * @example
 * useCaptureFeedback(state.phase, { sound: node.enableSound !== false, haptics: node.enableHaptics !== false });
 */
export function useCaptureFeedback(phase: string, o: FeedbackOptions): void {
  const previous = useRef(phase);
  useEffect(() => {
    const was = previous.current;
    previous.current = phase;
    if (was === phase) return;
    if (phase === 'capturing' && o.sound) tone(660, 120);
    if (was === 'capturing' && phase === 'sending') {
      if (o.sound) tone(990, 160);
      if (o.haptics) globalThis.navigator?.vibrate?.(80);
    }
  }, [phase, o.sound, o.haptics]);
}
