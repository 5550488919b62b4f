import * as RadixDialog from '@radix-ui/react-dialog';
import {
  createContext,
  type FormEventHandler,
  type ReactNode,
  type RefObject,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/class-names.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { focusReturnTarget, isFocusLost, restoreFocus, tabbableElements } from './focus.ts';
import { CloseIcon } from './icons.tsx';

type Size = 'sm' | 'md' | 'lg' | 'xl';
const sizes: Record<Size, string> = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-4xl' };

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read out with the title when the dialog opens. */
  description?: ReactNode;
  size?: Size;
  /** `alertdialog` for confirmations that interrupt the user. */
  role?: 'dialog' | 'alertdialog';
  /** What takes focus on open; by default the first control after the title bar. */
  initialFocus?: RefObject<HTMLElement | null>;
  /**
   * Unsaved changes (a dirty form): Escape, the backdrop, the close button and `DialogCancel`
   * ask "Discard your changes?" before closing. Saving closes through the page, never asks.
   */
  confirmClose?: boolean;
  /** Said under that question: what is kept all the same (records saved meanwhile). */
  discardNote?: ReactNode;
  /**
   * Where the focus goes when the dialog closes, when not back to the control that opened it (a
   * "New …" button's dialog gives it to the field the new record was chosen in).
   */
  returnFocus?: () => HTMLElement | null;
  /** Content: usually a `DialogBody` then a `DialogFooter`, inside a form when there is one. */
  children: ReactNode;
}

/** How a dialog's own buttons ask to close: through the unsaved-changes question when there is one. */
const RequestCloseContext = createContext<() => void>(() => undefined);

/**
 * A modal dialog (Radix): labelled by its title, focus kept inside, Escape and the close button
 * close it. Focus starts on the first control after the title bar and goes back to the control
 * that opened it (Radix only does that for its own triggers, which our pages do not use).
 * Centred with `inset-0 m-auto` so no side is privileged in right-to-left pages; long content
 * scrolls inside `DialogBody`.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  size = 'md',
  role = 'dialog',
  initialFocus,
  confirmClose = false,
  discardNote,
  returnFocus,
  children,
}: DialogProps) {
  const { t } = useTranslation();
  const content = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLDivElement>(null);
  // Read while rendering the opening: by the first effect a menu item that opened it is gone.
  const [opener, setOpener] = useState(() => (open ? focusReturnTarget(document.activeElement) : null));
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setOpener(focusReturnTarget(document.activeElement));
  }
  const [askingToDiscard, setAskingToDiscard] = useState(false);
  // Read when asked, not when rendered: Radix calls the Escape and backdrop handlers of the render
  // before its effects ran, which may be older than the latest change.
  const hasChanges = useRef(confirmClose);
  useLayoutEffect(() => {
    hasChanges.current = confirmClose;
  }, [confirmClose]);

  const requestClose = () => {
    if (hasChanges.current) setAskingToDiscard(true);
    else onOpenChange(false);
  };

  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? onOpenChange(true) : requestClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-[1px]" />
        <RadixDialog.Content
          ref={content}
          role={role}
          // Without a description Radix would point aria-describedby at nothing.
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            const first =
              initialFocus?.current ??
              (content.current &&
                tabbableElements(content.current).find((element) => !header.current?.contains(element)));
            if (!first) return;
            event.preventDefault();
            first.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            // A page that placed the focus itself (or a dialog closed just before) knows better.
            if (isFocusLost()) restoreFocus(returnFocus?.() ?? opener);
          }}
          className={cn(
            'fixed inset-0 z-50 m-auto flex h-fit max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] flex-col rounded-2xl border border-slate-200 bg-white text-slate-900 shadow-xl outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
            sizes[size],
          )}
        >
          <div
            ref={header}
            className="flex shrink-0 items-start gap-3 border-b border-slate-200 px-5 py-4 dark:border-slate-800"
          >
            <div className="min-w-0 flex-1">
              <RadixDialog.Title className="text-base font-semibold text-slate-900 dark:text-white">
                {title}
              </RadixDialog.Title>
              {description && (
                <RadixDialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  {description}
                </RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close asChild>
              <Button
                variant="ghost"
                size="icon"
                className="-me-2 -mt-1 size-9"
                aria-label={t('common.close')}
              >
                <CloseIcon className="size-4" />
              </Button>
            </RadixDialog.Close>
          </div>
          <RequestCloseContext.Provider value={requestClose}>{children}</RequestCloseContext.Provider>
          {confirmClose && (
            <DiscardChangesDialog
              open={askingToDiscard}
              note={discardNote}
              onKeepEditing={() => setAskingToDiscard(false)}
              onDiscard={() => {
                setAskingToDiscard(false);
                onOpenChange(false);
              }}
            />
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * "Discard your changes?" over a dialog with unsaved changes, or over a page left with them
 * (`UnsavedChangesGuard`); Keep editing has the focus first.
 */
export function DiscardChangesDialog({
  open,
  note,
  onKeepEditing,
  onDiscard,
}: {
  open: boolean;
  /** Said after the question's own sentence: what is kept all the same. */
  note?: ReactNode;
  onKeepEditing: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation();
  const keepEditing = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onKeepEditing();
      }}
      title={t('dialog.discardTitle')}
      role="alertdialog"
      size="sm"
      initialFocus={keepEditing}
    >
      <DialogBody className="space-y-2 text-sm text-slate-700 dark:text-slate-300">
        <p>{t('dialog.discardDescription')}</p>
        {note && <p>{note}</p>}
      </DialogBody>
      <DialogFooter>
        <Button ref={keepEditing} variant="secondary" onClick={onKeepEditing}>
          {t('dialog.keepEditing')}
        </Button>
        <Button variant="danger" onClick={onDiscard}>
          {t('dialog.discard')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}

/** The dialog's Cancel button: closes it, asking first when it has unsaved changes. */
export function DialogCancel({ disabled, children }: { disabled?: boolean; children?: ReactNode }) {
  const { t } = useTranslation();
  const requestClose = useContext(RequestCloseContext);
  return (
    <Button variant="secondary" onClick={requestClose} disabled={disabled}>
      {children ?? t('common.cancel')}
    </Button>
  );
}

/** A form inside a dialog: lets the body scroll while the footer stays in view. */
export const dialogFormClassName = 'flex min-h-0 flex-1 flex-col';

export function DialogBody({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn('min-h-0 flex-1 overflow-y-auto px-4 py-5 sm:px-5', className)}>{children}</div>;
}

export function DialogFooter({ children }: { children: ReactNode }) {
  return (
    <div className="flex shrink-0 flex-wrap items-center justify-end gap-2 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
      {children}
    </div>
  );
}

/**
 * A form dialog shown while it is mounted: closing it calls `onClose` unless the form is being
 * submitted, and asks before dropping unsaved changes (`dirty`). Spread into `Dialog`.
 */
export function formDialogState({
  dirty,
  submitting,
  onClose,
}: {
  dirty: boolean;
  submitting: boolean;
  onClose: () => void;
}) {
  return {
    open: true,
    onOpenChange: (open: boolean) => {
      if (!open && !submitting) onClose();
    },
    confirmClose: dirty && !submitting,
  };
}

/**
 * A form dialog's footer: Cancel, and the submit button (of `form` when it stands outside the
 * form); both wait while `submitting`.
 */
export function DialogSubmitFooter({
  submitting,
  form,
  children,
}: {
  submitting: boolean;
  form?: string;
  children: ReactNode;
}) {
  return (
    <DialogFooter>
      <DialogCancel disabled={submitting} />
      <Button type="submit" form={form} loading={submitting}>
        {children}
      </Button>
    </DialogFooter>
  );
}

/**
 * A dialog's form: its fields in the body, under the server's refusal when there is one (`error`),
 * then Cancel and the submit button (`submitLabel`).
 */
export function DialogForm({
  onSubmit,
  submitting,
  error,
  submitLabel,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
  error: string | undefined;
  submitLabel: ReactNode;
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={onSubmit} className={dialogFormClassName}>
      <DialogBody className="space-y-5">
        {error && <Alert tone="error">{error}</Alert>}
        {children}
      </DialogBody>
      <DialogSubmitFooter submitting={submitting}>{submitLabel}</DialogSubmitFooter>
    </form>
  );
}
