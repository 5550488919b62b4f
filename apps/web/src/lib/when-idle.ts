/** Runs `run` when the browser is idle (within 2 s); returns a cancel. */
export function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function' && typeof window.cancelIdleCallback === 'function') {
    const cancel = window.cancelIdleCallback.bind(window);
    const handle = window.requestIdleCallback(run, { timeout: 2000 });
    return () => cancel(handle);
  }
  const handle = window.setTimeout(run, 200);
  return () => window.clearTimeout(handle);
}
