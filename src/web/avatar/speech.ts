import { pickVoice } from './pickVoice';

/** The avatar's voice: the browser's speech synthesis where it exists, silence elsewhere. */
export interface Speaker {
  readonly supported: boolean;
  say(text: string): void;
  stop(): void;
  configure(options: { lang?: string; gender?: string; enabled?: boolean }): void;
  /** Called with true while the avatar speaks (for the avatar's animation). */
  subscribe(listener: (speaking: boolean) => void): () => void;
}

/**
 * A speaker over `window.speechSynthesis`. Browsers refuse to speak before the user has touched
 * the page, so a line said before that waits and is spoken at the first tap or key press (only the
 * latest one: replaying a backlog would talk over the screen).
 *
 * @example
 * const speaker = createSpeaker(window);
 * speaker.configure({ lang: 'fr', gender: 'female', enabled: true });
 * speaker.say('Bonjour');
 */
export function createSpeaker(win: Window | undefined): Speaker {
  const synth = win && 'speechSynthesis' in win ? win.speechSynthesis : undefined;
  const listeners = new Set<(speaking: boolean) => void>();
  let lang = 'en';
  let gender: string | undefined;
  let enabled = true;
  let pending: string | null = null;
  let active = 0;

  const emit = () => listeners.forEach((l) => l(active > 0));
  const activated = () => {
    const ua = (win?.navigator as Navigator & { userActivation?: { hasBeenActive: boolean } })
      ?.userActivation;
    return ua ? ua.hasBeenActive : true;
  };

  const speakNow = (text: string) => {
    if (!synth || !enabled) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = lang;
    const voice = pickVoice(synth.getVoices(), lang, gender);
    if (voice) utterance.voice = voice;
    // Without a voice for the language the browser would read it with the wrong accent: the
    // captions carry the words instead.
    else if (synth.getVoices().length > 0) return;
    const done = () => {
      active = Math.max(0, active - 1);
      emit();
    };
    utterance.onstart = () => {
      active++;
      emit();
    };
    utterance.onend = done;
    utterance.onerror = done;
    synth.speak(utterance);
  };

  if (win && synth) {
    const flush = () => {
      if (pending) {
        const text = pending;
        pending = null;
        speakNow(text);
      }
    };
    win.addEventListener('pointerdown', flush, { capture: true });
    win.addEventListener('keydown', flush, { capture: true });
  }

  return {
    supported: !!synth,
    say(text) {
      if (!synth || !enabled || !text.trim()) return;
      if (!activated()) {
        pending = text;
        return;
      }
      speakNow(text);
    },
    stop() {
      pending = null;
      synth?.cancel();
      active = 0;
      emit();
    },
    configure(options) {
      if (options.lang) lang = options.lang;
      if (options.gender !== undefined) gender = options.gender;
      if (options.enabled !== undefined) {
        enabled = options.enabled;
        if (!enabled) this.stop();
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
