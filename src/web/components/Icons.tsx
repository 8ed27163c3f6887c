// Small line icons drawn inline (no icon font, no emoji: both may be missing on a phone).
const base = {
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
};

/** The transcript (closed captions) icon. */
export function CaptionsIcon() {
  return (
    <svg {...base}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M10 10.5a2 2 0 1 0 0 3M16 10.5a2 2 0 1 0 0 3" />
    </svg>
  );
}

/** A speaker, struck through when `off`. */
export function SpeakerIcon({ off }: { off: boolean }) {
  return (
    <svg {...base}>
      <path d="M4 9v6h4l5 4V5L8 9H4z" />
      {off ? (
        <path d="M22 9l-6 6M16 9l6 6" />
      ) : (
        <path d="M16 9a4 4 0 0 1 0 6M19 6a8 8 0 0 1 0 12" />
      )}
    </svg>
  );
}

/** A microphone. */
export function MicIcon() {
  return (
    <svg {...base}>
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
    </svg>
  );
}

/** A door with an arrow: leave. */
export function ExitIcon() {
  return (
    <svg {...base}>
      <path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4M10 16l-4-4 4-4M6 12h10" />
    </svg>
  );
}

/** A globe: the language choice. */
export function GlobeIcon() {
  return (
    <svg {...base}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
    </svg>
  );
}

/** An arrow out of a tray: upload a file. */
export function UploadIcon() {
  return (
    <svg {...base}>
      <path d="M12 15V4M7 9l5-5 5 5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
    </svg>
  );
}
