import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError, isStandingRefusal } from '../../lib/error-messages.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Dialog, DialogBody, DialogFooter } from './dialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  children: ReactNode;
  /** The safe button: what it keeps ("Keep subscription"), never a bare "Cancel". */
  keepLabel: string;
  /** The action, named ("End subscription", "Delete"). */
  confirmLabel: string;
  tone?: 'danger' | 'default';
  /**
   * Runs on confirm; the dialog closes when it resolves and shows the reason when it fails —
   * with the confirm button disabled when the refusal stands (a record still in use).
   */
  onConfirm: () => Promise<unknown>;
}

/** The confirmation's chunk (`confirm-dialog.tsx`): the dialog itself, Radix's. */
export function ConfirmDialogPanel({
  open,
  onOpenChange,
  title,
  children,
  keepLabel,
  confirmLabel,
  tone = 'danger',
  onConfirm,
}: ConfirmDialogProps) {
  const { t, i18n } = useTranslation();
  const keep = useRef<HTMLButtonElement>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Refused for a reason that stands (the record is in use): confirming again cannot pass.
  const [blocked, setBlocked] = useState(false);

  const change = (next: boolean) => {
    if (pending) return;
    if (!next) {
      setFailure(null);
      setBlocked(false);
    }
    onOpenChange(next);
  };

  const confirm = async () => {
    setPending(true);
    setFailure(null);
    try {
      await onConfirm();
      setPending(false);
      onOpenChange(false);
    } catch (error) {
      setPending(false);
      setFailure(describeApiError(error, t, i18n.language));
      setBlocked(isStandingRefusal(error));
    }
  };

  // The confirm button, focused by its click, is disabled: the focus goes to the keep button, the way out.
  useEffect(() => {
    if (blocked) keep.current?.focus();
  }, [blocked]);

  return (
    <Dialog open={open} onOpenChange={change} title={title} role="alertdialog" size="sm" initialFocus={keep}>
      <DialogBody className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
        <div>{children}</div>
        {failure && <Alert tone="error">{failure}</Alert>}
      </DialogBody>
      <DialogFooter>
        <Button ref={keep} variant="secondary" onClick={() => change(false)} disabled={pending}>
          {keepLabel}
        </Button>
        <Button
          variant={tone === 'danger' ? 'danger' : 'primary'}
          loading={pending}
          disabled={blocked}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
