import { Suspense, useEffect, useState } from 'react';
import { lazyComponent } from '../../lib/lazy-component.tsx';
import { whenIdle } from '../../lib/when-idle.ts';
import type { ConfirmDialogProps } from './confirm-dialog-panel.tsx';

// Radix's dialog (focus trap, scroll lock, layers: ~8 KB on the wire) in a chunk of its own, asked
// for once the page has shown and the browser is idle: a list page shows without it.
const ConfirmDialogPanel = lazyComponent(() =>
  import('./confirm-dialog-panel.tsx').then((m) => m.ConfirmDialogPanel),
);

/**
 * "Are you sure?": an alert dialog whose two buttons name what they do — the safe one what it
 * keeps ("Keep subscription"), the other the action ("End subscription") — the safe one with the
 * focus first, so Enter never deletes by accident. A refusal (a role still in use) is shown inside, where the user looks, and
 * while it stands (the record is in use) the confirm button is disabled.
 * Nothing is rendered before it first opens; it opens as soon as its chunk is there.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  useEffect(() => whenIdle(() => void ConfirmDialogPanel.preload().catch(() => undefined)), []);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialogPanel {...props} />
    </Suspense>
  );
}
