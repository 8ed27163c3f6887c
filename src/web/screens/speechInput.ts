/** The part of the Web Speech API's recogniser the page uses (not in TypeScript's DOM types). */
interface Recognizer {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  maxAlternatives: number;
  start(): void;
  stop(): void;
  abort(): void;
  onresult: ((event: { results: SpeechRecognitionResultList; resultIndex: number }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
}
type RecognizerClass = new () => Recognizer;

function recognizerClass(): RecognizerClass | null {
  const w = globalThis as unknown as {
    SpeechRecognition?: RecognizerClass;
    webkitSpeechRecognition?: RecognizerClass;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/**
 * Whether the browser can turn speech into text.
 *
 * @example
 * canRecognizeSpeech(); // true in Chrome, false in Firefox
 */
export function canRecognizeSpeech(): boolean {
  return recognizerClass() !== null;
}

/** Listening for one answer. */
export interface Listening {
  stop(): void;
}

/**
 * Listens for one spoken answer in a language: `onText` gets the words as they are recognised
 * (final words last), `onEnd` is called once listening stops, with an error name if it failed.
 *
 * @example
 * const l = listenOnce('fr', (text, final) => setAnswer(text), (err) => setListening(false));
 */
export function listenOnce(
  lang: string,
  onText: (text: string, final: boolean) => void,
  onEnd: (error?: string) => void,
): Listening | null {
  const Class = recognizerClass();
  if (!Class) return null;
  const recognizer = new Class();
  recognizer.lang = lang;
  recognizer.interimResults = true;
  recognizer.continuous = false;
  recognizer.maxAlternatives = 1;
  let failure: string | undefined;
  recognizer.onresult = (event) => {
    let text = '';
    let final = false;
    for (let i = 0; i < event.results.length; i++) {
      const result = event.results[i];
      if (!result) continue;
      text += result[0]?.transcript ?? '';
      final = result.isFinal;
    }
    onText(text.trim(), final);
  };
  recognizer.onerror = (event) => {
    failure = event.error;
  };
  recognizer.onend = () => onEnd(failure);
  try {
    recognizer.start();
  } catch {
    return null;
  }
  return { stop: () => recognizer.stop() };
}
