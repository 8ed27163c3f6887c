import { useEffect } from 'react';
import { Busy } from '../components/Notice';
import type { ScreenProps } from './types';

/**
 * Nodes the server runs by itself (start, data_validation): a position should never rest on
 * them. If one does, the page asks the server again shortly rather than standing still.
 */
export default function WaitScreen({ api, send }: ScreenProps) {
  useEffect(() => {
    const timer = setTimeout(() => {
      api
        .session()
        .then(({ position }) => send({ type: 'POSITION', position }))
        .catch((error: unknown) => send({ type: 'FAILED', error }));
    }, 1500);
    return () => clearTimeout(timer);
  }, [api, send]);
  return (
    <section className="card" aria-busy="true">
      <Busy />
    </section>
  );
}
