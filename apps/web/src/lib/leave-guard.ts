import { type To, UNSAFE_createBrowserHistory } from 'react-router';

/**
 * Leaving a page with unsaved changes, asked first (issue 29). A page with a dirty form registers
 * a check (`UnsavedChangesGuard`, `components/unsaved-changes-guard.tsx`); every way of leaving it
 * that the app controls goes through `leaveIfAllowed` — the router's history below (links, menu
 * items, Cancel, sign-out, the browser's Back and Forward) and the workspace switch. A reload or
 * closing the tab is the browser's own prompt (`beforeunload`).
 *
 * The app keeps `<BrowserRouter>`'s history, wrapped: React Router's `useBlocker` needs a data
 * router, which put 14 KB on `/login` (docs/decisions/0017-unsaved-changes.md). This module is
 * in the entry, so it is kept to what the history needs; the dialog loads with the pages.
 */

/** Asks the member; calls `leave` if they agree to discard their changes, nothing if they stay. */
type LeaveCheck = (leave: () => void) => void;

type BrowserHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

/** The pages' checks, latest last: the latest asks. */
const checks: LeaveCheck[] = [];
/** Set while a leave runs that needs no asking (agreed to, or after a save). */
let allowed = false;

/** While registered, leaving asks `check` first. Returns its removal. */
export function guardLeaving(check: LeaveCheck): () => void {
  checks.push(check);
  return () => {
    const index = checks.lastIndexOf(check);
    if (index >= 0) checks.splice(index, 1);
  };
}

/** Whether leaving now would ask (a page has unsaved changes). */
function isLeaveGuarded(): boolean {
  return checks.length > 0 && !allowed;
}

/** Runs `leave` without asking: a navigation after a save, or after the member agreed to discard. */
export function leaveWithoutAsking(leave: () => void): void {
  const before = allowed;
  allowed = true;
  try {
    leave();
  } finally {
    allowed = before;
  }
}

/** Runs `leave` now when nothing has unsaved changes, else once the member agreed to discard them. */
export function leaveIfAllowed(leave: () => void): void {
  const check = checks.at(-1);
  if (!check || allowed) leave();
  else check(() => leaveWithoutAsking(leave));
}

/**
 * The browser's history as `<BrowserRouter>` makes it, with leaving asked first. A push or
 * replace to another address waits for `leaveIfAllowed`. Back and Forward have already moved the
 * address when the browser tells: the router is not told, the address is moved back by the same
 * number of entries (that move is not told either), and once the member agrees it moves there
 * again, told this time.
 */
export function createGuardedHistory(window?: Window): BrowserHistory {
  const history = UNSAFE_createBrowserHistory({ window, v5Compat: true });
  const elsewhere = (to: To) => history.createHref(to) !== history.createHref(history.location);
  /** A move back after a refused Back or Forward, until the browser reports it; then what was agreed meanwhile. */
  let undoing: { afterwards?: () => void } | null = null;
  let passNextPop = false;

  return {
    get action() {
      return history.action;
    },
    get location() {
      return history.location;
    },
    createHref: history.createHref,
    createURL: history.createURL,
    encodeLocation: history.encodeLocation,
    push(to, state) {
      if (elsewhere(to)) leaveIfAllowed(() => history.push(to, state));
      else history.push(to, state);
    },
    replace(to, state) {
      if (elsewhere(to)) leaveIfAllowed(() => history.replace(to, state));
      else history.replace(to, state);
    },
    go(delta) {
      leaveIfAllowed(() => {
        // Agreed to (or nothing to ask): the page's check is still there when the browser reports it.
        passNextPop = checks.length > 0;
        history.go(delta);
      });
    },
    listen(listener) {
      return history.listen((update) => {
        if (update.action !== 'POP') return listener(update);
        if (undoing) {
          // The move back of a refused Back: the router still shows this address.
          const afterwards = undoing.afterwards;
          undoing = null;
          afterwards?.();
          return;
        }
        const { delta } = update;
        if (passNextPop || !isLeaveGuarded() || !delta) {
          passNextPop = false;
          return listener(update);
        }
        const undo: { afterwards?: () => void } = {};
        undoing = undo;
        history.go(-delta);
        leaveIfAllowed(() => {
          const again = () => {
            passNextPop = true;
            history.go(delta);
          };
          if (undoing === undo) undo.afterwards = again;
          else again();
        });
      });
    },
  };
}
