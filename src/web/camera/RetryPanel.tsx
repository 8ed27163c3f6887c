import { useEffect, useRef } from 'react';

/**
 * Over the preview after a failed attempt that may be tried again: why it failed, the attempts
 * left and "Try again", which takes the focus so a keyboard user lands on it.
 *
 * @example
 * <RetryPanel heading="Let's try that again" reason="The picture was too dark." left="Attempts left: 2"
 *   tryAgain="Try again" reasonKey="tooDark" onTryAgain={flow.tryAgain} />
 */
export function RetryPanel(props: {
  heading: string;
  reason: string;
  /** The server's reason, for tests and styling. */
  reasonKey: string;
  left: string;
  tryAgain: string;
  onTryAgain(): void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    button.current?.focus();
  }, [props.reasonKey]);
  return (
    <div className="capture-retry" data-testid="capture-retry" data-reason={props.reasonKey}>
      <p className="capture-retry-heading">{props.heading}</p>
      <p role="alert" data-testid="capture-retry-reason">
        {props.reason}
      </p>
      <p className="capture-retry-left">{props.left}</p>
      <button
        ref={button}
        type="button"
        className="button"
        data-testid="capture-try-again"
        onClick={props.onTryAgain}
      >
        {props.tryAgain}
      </button>
    </div>
  );
}
