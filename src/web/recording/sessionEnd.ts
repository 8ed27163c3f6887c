// The page's end of the session and the camera's recorder meet here. This file holds no camera
// code on purpose: the first screen (App) imports it, while the recorder itself comes with the
// camera screens' chunk and registers how it finishes once it starts.

type Finisher = () => Promise<void>;

let finisher: Finisher | null = null;

/**
 * Registers how the session's recording ends (stop, upload); replaces an earlier one.
 *
 * @example
 * setRecordingFinisher(() => recorder.finish());
 */
export function setRecordingFinisher(finish: Finisher | null): void {
  finisher = finish;
}

/**
 * Ends the session's recording, if one runs: once, in the background. The returned promise never
 * rejects (the report simply has no video when something fails) and nobody needs to wait for it.
 *
 * @example
 * useEffect(() => { if (ended) void endSessionRecording(); }, [ended]);
 */
export async function endSessionRecording(): Promise<void> {
  const finish = finisher;
  finisher = null;
  if (!finish) return;
  try {
    await finish();
  } catch (error) {
    console.warn('The session recording could not be finished', error);
  }
}
