import { type ComponentType, type JSX, lazy, startTransition, useEffect, useState } from 'react';

/** A component in a chunk of its own, which can be asked for before it renders. */
export type LazyComponent<P extends object = object> = ((props: P) => JSX.Element) & {
  /** Starts the download (once, however often it is asked); resolves to the component. */
  preload: () => Promise<ComponentType<P>>;
  /** Whether the chunk has arrived (a render then shows the component at once). */
  isLoaded: () => boolean;
};

/**
 * `React.lazy`, but rendered directly once its chunk has arrived. `lazy` suspends at its first
 * render even when the chunk is already there, and React shows a content that replaces a
 * suspense fallback no sooner than 300 ms after that fallback appeared: on a cold load of a
 * signed-in page, the preloaded chunk of the session check cost that wait before the session was
 * even asked for. Whether an instance renders directly is decided when it mounts, so it never
 * changes type (and loses its state) afterwards. Made once per chunk, at module level.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // A failed download is asked for again at the next preload (a render keeps `lazy`'s error).
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: made once per chunk when its importer loads, so it keeps one identity
  function Component(props: P) {
    const [Direct] = useState(() => loaded);
    const Shown = Direct ?? Lazy;
    return <Shown {...props} />;
  }
  return Object.assign(Component, { preload, isLoaded: () => loaded !== undefined });
}

/**
 * Whether `component` can render without suspending: true once its chunk has arrived, or failed
 * to (its render then reports the failure, retrying the download first). Asks for the chunk while
 * `wanted`. Meanwhile the caller shows its own placeholder: a Suspense boundary showing its
 * fallback instead would hold back the content that replaces it by React's reveal throttle — the
 * signed-in page's title painted ~250 ms later whenever its texts arrived after the session.
 */
export function useArrived<P extends object>(component: LazyComponent<P>, wanted = true): boolean {
  const [arrived, setArrived] = useState(component.isLoaded);
  useEffect(() => {
    if (arrived || !wanted) return;
    let current = true;
    const settle = () => {
      if (current) startTransition(() => setArrived(true));
    };
    component.preload().then(settle, settle);
    return () => {
      current = false;
    };
  }, [component, arrived, wanted]);
  return arrived;
}
