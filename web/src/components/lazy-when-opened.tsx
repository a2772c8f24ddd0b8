import { lazy, Suspense, useRef, type ComponentType } from 'react';

/**
 * A component whose code loads the first time it is opened, and stays mounted from then on (so it
 * can animate closed). Until then it renders nothing: dialogs and toasts are never part of a
 * page's first paint, and their code (Mantine's Modal brings its scroll area and floating-ui, about
 * a fifth of the shell's JavaScript) stays out of the script every page waits for (issue 14).
 */
export function lazyWhenOpened<P extends { opened?: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(() => load().then((component) => ({ default: component })));
  function LazyWhenOpened(props: P) {
    const openedOnce = useRef(false);
    if (props.opened) openedOnce.current = true;
    if (!openedOnce.current) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return LazyWhenOpened;
}
