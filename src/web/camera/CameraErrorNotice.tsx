import type { CameraErrorKind } from './cameraError';

/**
 * Why the camera could not open, in the user's words, with "Try again" unless there is no camera
 * at all (retrying cannot make one appear).
 *
 * @example
 * {error ? <CameraErrorNotice kind={error} messages={strings.cameraErrors} retryLabel={strings.retry} onRetry={retry} /> : null}
 */
export function CameraErrorNotice(props: {
  kind: CameraErrorKind;
  messages: Record<CameraErrorKind, string>;
  retryLabel: string;
  onRetry: () => void;
  /** For a blocked camera: the steps to allow it again in this browser (`denialHelpKey`). */
  denialHelp?: string | undefined;
}) {
  return (
    <div
      className="notice notice-error"
      role="alert"
      data-testid="camera-error"
      data-kind={props.kind}
    >
      <p>{props.messages[props.kind]}</p>
      {props.kind === 'denied' && props.denialHelp ? (
        <p data-testid="denial-help">{props.denialHelp}</p>
      ) : null}
      {props.kind === 'missing' ? null : (
        <button type="button" className="button button-secondary" onClick={props.onRetry}>
          {props.retryLabel}
        </button>
      )}
    </div>
  );
}
