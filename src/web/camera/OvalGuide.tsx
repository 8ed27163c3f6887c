import { useId } from 'react';

/** How the oval is drawn: where the face should go, and whether it is there. */
export type OvalState = 'searching' | 'ready' | 'challenge' | 'done';

// Steady colours only, never blinking or pulsing: nothing on this screen may flash.
const STROKE: Record<OvalState, string> = {
  searching: '#ffffff',
  ready: '#2e9e5b',
  challenge: '#f2b84b',
  done: '#2e9e5b',
};

/**
 * The oval laid over the camera preview, the area around it dimmed, and the current hint or
 * challenge under it in a polite live region (so a screen reader says each new one once): the
 * one place the instruction is written. The oval is about two thirds of the preview's shorter
 * side: a face whose detected box sits inside it has a scale within the guidance's 0.30–0.75.
 *
 * @example
 * <OvalGuide state="searching" message="Move closer" />
 */
export function OvalGuide({ state, message }: { state: OvalState; message: string }) {
  const maskId = useId();
  return (
    <div className="oval-guide">
      <svg
        viewBox="0 0 100 100"
        preserveAspectRatio="xMidYMid slice"
        width="100%"
        height="100%"
        aria-hidden="true"
      >
        <defs>
          <mask id={maskId}>
            <rect width="100" height="100" fill="white" />
            <ellipse cx="50" cy="48" rx="24" ry="32" fill="black" />
          </mask>
        </defs>
        <rect width="100" height="100" fill="rgba(0,0,0,0.45)" mask={`url(#${maskId})`} />
        <ellipse
          cx="50"
          cy="48"
          rx="24"
          ry="32"
          fill="none"
          stroke={STROKE[state]}
          strokeWidth="1.2"
          data-state={state}
        />
      </svg>
      <p aria-live="polite" role="status" className="capture-instruction">
        {message}
      </p>
    </div>
  );
}
