import { useSyncExternalStore } from 'react';

/*
 * A workspace that requires a second factor refuses a password-only session's calls with
 * `SECOND_FACTOR_REQUIRED` (403). The API client reports each such refusal here, and the shell
 * shows the prompt to enrol or step up instead of the page: whichever call learnt it first, and
 * even when the workspace's summary did not say so yet (the setting changed meanwhile).
 */

let required = false;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

/** A call was refused for want of a second factor. */
export function reportSecondFactorRequired(): void {
  if (required) return;
  required = true;
  notify();
}

/** The session has stepped up (or signed out): the refusal is past. */
export function clearSecondFactorRequired(): void {
  if (!required) return;
  required = false;
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether a call has been refused for want of a second factor since the last step-up. */
export function useSecondFactorRequired(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => required,
    () => false,
  );
}
