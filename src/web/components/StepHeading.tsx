import { useEffect, useRef, type ReactNode } from 'react';

/** The performance mark set when the first screen (a step, an end or an error page) is shown. */
export const FIRST_SCREEN_MARK = 'idv:first-screen';

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
    // The first screen is on and usable: `npm run bench` reads this mark.
    if (performance.getEntriesByName(FIRST_SCREEN_MARK).length === 0) {
      performance.mark(FIRST_SCREEN_MARK);
    }
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className="step-heading" id={id}>
      {children}
    </h1>
  );
}
