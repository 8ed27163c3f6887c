import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A screen's heading. It takes the focus when the screen appears, so keyboard and screen-reader
 * users land on the new step instead of on a button that no longer exists.
 *
 * @example
 * <StepHeading>Your email address</StepHeading>
 */
export function StepHeading({ children, id }: { children: ReactNode; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className="step-heading" id={id}>
      {children}
    </h1>
  );
}
