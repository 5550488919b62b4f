import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/class-names.ts';
import { Button } from './button.tsx';
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
  /** What takes focus on open; by default the first focusable control. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Content: usually a `DialogBody` then a `DialogFooter`, inside a form when there is one. */
  children: ReactNode;
}

/**
 * A modal dialog (Radix): labelled by its title, focus kept inside, Escape and the close button
 * close it, focus returns to the opener. Centred with `inset-0 m-auto` so no side is privileged
 * in right-to-left pages; long content scrolls inside `DialogBody`.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  size = 'md',
  role = 'dialog',
  initialFocus,
  children,
}: DialogProps) {
  const { t } = useTranslation();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-[1px]" />
        <RadixDialog.Content
          role={role}
          // Without a description Radix would point aria-describedby at nothing.
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            if (!initialFocus?.current) return;
            event.preventDefault();
            initialFocus.current.focus();
          }}
          className={cn(
            'fixed inset-0 z-50 m-auto flex h-fit max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] flex-col rounded-2xl border border-slate-200 bg-white text-slate-900 shadow-xl outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
            sizes[size],
          )}
        >
          <div className="flex shrink-0 items-start gap-3 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
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
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
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
