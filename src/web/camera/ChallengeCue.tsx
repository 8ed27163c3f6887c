import type { Challenge } from '../../core/liveness';

/** Where each arrow sits on the preview and which way it points (degrees, 0 = up). */
const ARROWS: Record<Challenge, { at: string; angle: number }[]> = {
  // The user's own left is the screen's left for someone facing the screen.
  turnLeft: [{ at: 'left', angle: -90 }],
  turnRight: [{ at: 'right', angle: 90 }],
  lookUp: [{ at: 'top', angle: 0 }],
  // Coming closer makes the face bigger: arrows pointing out of the oval's corners.
  comeCloser: [
    { at: 'top-left', angle: -45 },
    { at: 'top-right', angle: 45 },
    { at: 'bottom-left', angle: -135 },
    { at: 'bottom-right', angle: 135 },
  ],
};

/**
 * The movement asked for, drawn as arrows over the preview, nudging the way to go (still when the
 * user prefers reduced motion; never blinking). The words are the instruction under the oval;
 * the arrows are only a picture of them, hidden from screen readers.
 *
 * @example
 * <ChallengeCue challenge="turnLeft" />
 */
export function ChallengeCue({ challenge }: { challenge: Challenge }) {
  return (
    <div className="cue" data-testid="challenge-cue" data-cue={challenge} aria-hidden="true">
      {ARROWS[challenge].map(({ at, angle }) => (
        <span key={at} className={`cue-arrow cue-${at}`}>
          <svg viewBox="0 0 48 48" width="48" height="48" style={{ rotate: `${angle}deg` }}>
            <circle cx="24" cy="24" r="23" fill="rgba(0,0,0,0.55)" />
            <path
              d="M24 11 L36 25 H28 V37 H20 V25 H12 Z"
              fill="#f2b84b"
              stroke="#fff"
              strokeWidth="1.5"
              strokeLinejoin="round"
            />
          </svg>
        </span>
      ))}
    </div>
  );
}
