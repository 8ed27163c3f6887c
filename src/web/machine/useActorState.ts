import { useCallback, useSyncExternalStore } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';

/**
 * The current snapshot of a running actor, re-rendering on every change (the small part of
 * `@xstate/react` the page needs, without the dependency).
 *
 * @example
 * const snapshot = useActorState(pageActor);
 * snapshot.matches('step');
 */
export function useActorState<A extends AnyActorRef>(actor: A): SnapshotFrom<A> {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const sub = actor.subscribe({ next: onChange, error: onChange });
      return () => sub.unsubscribe();
    },
    [actor],
  );
  return useSyncExternalStore(subscribe, () => actor.getSnapshot() as SnapshotFrom<A>);
}
