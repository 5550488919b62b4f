import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../lib/error-messages.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Dialog, DialogBody, DialogFooter } from './dialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'default';
  /** Runs on confirm; the dialog closes when it resolves and shows the reason when it fails. */
  onConfirm: () => Promise<unknown>;
}

/** The confirmation's chunk (`confirm-dialog.tsx`): the dialog itself, Radix's. */
export function ConfirmDialogPanel({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  tone = 'danger',
  onConfirm,
}: ConfirmDialogProps) {
  const { t, i18n } = useTranslation();
  const cancel = useRef<HTMLButtonElement>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const change = (next: boolean) => {
    if (pending) return;
    if (!next) setFailure(null);
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
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={change}
      title={title}
      role="alertdialog"
      size="sm"
      initialFocus={cancel}
    >
      <DialogBody className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
        <div>{children}</div>
        {failure && <Alert tone="error">{failure}</Alert>}
      </DialogBody>
      <DialogFooter>
        <Button ref={cancel} variant="secondary" onClick={() => change(false)} disabled={pending}>
          {t('common.cancel')}
        </Button>
        <Button
          variant={tone === 'danger' ? 'danger' : 'primary'}
          loading={pending}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
