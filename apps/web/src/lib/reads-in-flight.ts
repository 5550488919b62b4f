/**
 * The API reads under way (`GET`s through the API client): work deferred "until the page has
 * shown" waits for them to answer, since a page shows once its data has arrived. Waiting for the
 * browser to be idle alone is not enough: it is idle while a slow answer is awaited.
 */
let inFlight = 0;
const waiting = new Set<() => void>();

/** Counts a read as under way; the returned function marks it answered (once). */
export function readStarted(): () => void {
  inFlight += 1;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    inFlight -= 1;
    if (inFlight > 0) return;
    const runs = [...waiting];
    waiting.clear();
    for (const run of runs) run();
  };
}

/** Whether no read is under way. */
export function noReadInFlight(): boolean {
  return inFlight === 0;
}

/** Runs `run` once no read is under way (at once when none is); returns a cancel. */
export function afterReads(run: () => void): () => void {
  if (inFlight === 0) {
    run();
    return () => undefined;
  }
  const once = () => run();
  waiting.add(once);
  return () => waiting.delete(once);
}
