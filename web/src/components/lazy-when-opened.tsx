import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';

/**
 * A component whose code loads the first time it is opened, and stays mounted from then on (so it
 * can animate closed). Until then it renders nothing: dialogs and toasts are never part of a
 * page's first paint, and their code (Mantine's Modal brings its scroll area and floating-ui, about
 * a fifth of the shell's JavaScript) stays out of the script every page waits for (issue 14).
 * Once loaded it mounts closed and opens on the next commit: a dialog notes what had the focus only
 * when it opens (Mantine's returnFocus), so mounted already open it would give the focus back to
 * nothing when it first closes, and the keyboard would start again from the top of the page.
 */
export function lazyWhenOpened<P extends { opened?: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(() => load().then((component) => ({ default: component })));
  function OpensAfterMount(props: P) {
    const [mounted, setMounted] = useState(false);
    useEffect(() => setMounted(true), []);
    return <Loaded {...props} opened={mounted && props.opened} />;
  }
  function LazyWhenOpened(props: P) {
    const openedOnce = useRef(false);
    if (props.opened) openedOnce.current = true;
    if (!openedOnce.current) return null;
    return (
      <Suspense fallback={null}>
        <OpensAfterMount {...props} />
      </Suspense>
    );
  }
  return LazyWhenOpened;
}
