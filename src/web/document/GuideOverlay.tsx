import { useId } from 'react';
import type { Rect } from './guide';

/** The guide's colour: white while looking, green once the document fills it. Steady, never blinking. */
export type GuideState = 'searching' | 'found' | 'reading';

const STROKE: Record<GuideState, string> = {
  searching: '#ffffff',
  found: '#2e9e5b',
  reading: '#f2b84b',
};

/**
 * The document's frame over the preview, in the camera frame's own coordinates (the SVG's viewBox
 * is the frame and the video is shown whole, `object-fit: contain`, so the two line up), and the
 * area around it dimmed. The hint goes under the preview (`DocumentHint`), never over the zone.
 *
 * @example
 * <GuideOverlay frame={{ width: 1920, height: 1080 }} guide={guideRect('passport', frame)}
 *   state="searching" />
 */
export function GuideOverlay({
  frame,
  guide,
  state,
}: {
  frame: { width: number; height: number };
  guide: Rect;
  state: GuideState;
}) {
  const maskId = useId();
  const radius = Math.min(guide.width, guide.height) * 0.04;
  const stroke = Math.max(2, Math.min(frame.width, frame.height) * 0.006);
  return (
    <div style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
      <svg
        viewBox={`0 0 ${frame.width} ${frame.height}`}
        preserveAspectRatio="xMidYMid meet"
        width="100%"
        height="100%"
        aria-hidden="true"
        style={{ position: 'absolute', inset: 0 }}
      >
        <defs>
          <mask id={maskId}>
            <rect width={frame.width} height={frame.height} fill="white" />
            <rect {...guide} rx={radius} fill="black" />
          </mask>
        </defs>
        <rect
          width={frame.width}
          height={frame.height}
          fill="rgba(0,0,0,0.45)"
          mask={`url(#${maskId})`}
        />
        <rect
          {...guide}
          rx={radius}
          fill="none"
          stroke={STROKE[state]}
          strokeWidth={stroke}
          data-testid="document-guide"
          data-state={state}
        />
      </svg>
    </div>
  );
}

/**
 * The hint under the preview, in a polite live region (a screen reader says each new one once).
 * It changes only when the words change; nothing blinks.
 *
 * @example
 * <DocumentHint message="Hold still…" />
 */
export function DocumentHint({ message }: { message: string }) {
  return (
    <p
      aria-live="polite"
      role="status"
      data-testid="document-hint"
      style={{
        margin: '0.5rem auto 0',
        maxWidth: '40rem',
        padding: '0.5rem 0.8rem',
        borderRadius: '0.5rem',
        background: '#1f2430',
        color: '#fff',
        fontSize: '1.0625rem',
        textAlign: 'center',
      }}
    >
      {message}
    </p>
  );
}
