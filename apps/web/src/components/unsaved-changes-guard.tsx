import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { lazyComponent } from '../lib/lazy-component.tsx';
import { guardLeaving } from '../lib/leave-guard.ts';
import { whenIdle } from '../lib/when-idle.ts';

// The editor dialogs' own "Discard your changes?" (Radix's dialog, a chunk the page may not have
// yet): asked for once the page has changes, so it is there when the member leaves.
const DiscardChangesDialog = lazyComponent(() =>
  import('./ui/dialog.tsx').then((m) => m.DiscardChangesDialog),
);

/**
 * A full page's unsaved changes: while `when` holds, leaving the page asks "Discard your
 * changes?" — a link or menu item, Cancel, the browser's Back and Forward, the workspace switch,
 * sign-out (`lib/leave-guard.ts`) — and a reload or closing the tab gets the browser's own prompt.
 * Discard goes on to where the member was going; Keep editing stays, every value kept. A page
 * that saves and then moves on does so through `leaveWithoutAsking`. One line per form:
 * `<UnsavedChangesGuard when={form.formState.isDirty} />`. `note` is said under the question
 * (the records saved meanwhile, which are kept).
 */
export function UnsavedChangesGuard({ when, note }: { when: boolean; note?: ReactNode }) {
  /** The leave waiting for an answer; null when not asking. */
  const [pending, setPending] = useState<{ leave: () => void } | null>(null);
  const [asked, setAsked] = useState(false);

  useEffect(() => {
    if (!when) return;
    const removeCheck = guardLeaving((leave) => {
      setPending({ leave });
      setAsked(true);
    });
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    const cancelPreload = whenIdle(() => void DiscardChangesDialog.preload().catch(() => undefined));
    return () => {
      removeCheck();
      window.removeEventListener('beforeunload', warn);
      cancelPreload();
      setPending(null);
    };
  }, [when]);

  // Nothing is rendered before the first question; afterwards the dialog stays mounted, closed.
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <DiscardChangesDialog
        open={pending !== null}
        note={note}
        onKeepEditing={() => setPending(null)}
        onDiscard={() => {
          setPending(null);
          pending?.leave();
        }}
      />
    </Suspense>
  );
}
