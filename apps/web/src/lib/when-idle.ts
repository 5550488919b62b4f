import { afterReads, noReadInFlight } from './reads-in-flight.ts';

/** Runs `run` at the browser's next idle moment (within 2 s); returns a cancel. */
function onIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function' && typeof window.cancelIdleCallback === 'function') {
    const cancel = window.cancelIdleCallback.bind(window);
    const handle = window.requestIdleCallback(run, { timeout: 2000 });
    return () => cancel(handle);
  }
  const handle = window.setTimeout(run, 200);
  return () => window.clearTimeout(handle);
}

/**
 * Runs `run` once the page has shown: the browser is idle (within 2 s) with no API read under
 * way. A page waiting for its data leaves the browser idle; what is deferred until the page has
 * shown (menus, dialogs, the toaster) must not take the line before that data, so an idle moment
 * with a read under way waits for the reads to answer and for the next idle moment. Returns a
 * cancel.
 */
export function whenIdle(run: () => void): () => void {
  let cancel = onIdle(check);
  function check() {
    if (noReadInFlight()) {
      run();
      return;
    }
    cancel = afterReads(() => {
      cancel = onIdle(check);
    });
  }
  return () => cancel();
}
