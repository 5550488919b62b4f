import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { CloseIcon } from '../../components/ui/icons.tsx';
import { cn } from '../../lib/class-names.ts';

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The slide-out menu of narrow screens (20rem wide, from the inline start). A modal dialog:
 * Escape, the backdrop and the close button close it, and Tab stays inside while it is open.
 */
export function MobileDrawer({
  id,
  open,
  onClose,
  children,
}: {
  id: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const panel = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      // A menu open inside the drawer handles its own Escape first (Radix marks it handled).
      if (event.key === 'Escape' && !event.defaultPrevented) onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      opener?.focus();
    };
  }, [open, onClose]);

  const keepFocusInside = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>(focusableSelector)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="lg:hidden">
      <div
        aria-hidden="true"
        onClick={onClose}
        className={cn(
          'fixed inset-0 z-40 bg-slate-950/50 backdrop-blur-[1px] transition-opacity',
          open ? 'opacity-100' : 'pointer-events-none opacity-0',
        )}
      />
      <div
        id={id}
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-label={t('nav.label')}
        inert={!open}
        onKeyDown={keepFocusInside}
        className={cn(
          'fixed inset-y-0 start-0 z-50 flex w-80 max-w-[85vw] flex-col bg-white shadow-xl transition-[translate,visibility] duration-200 dark:bg-slate-900',
          // Off-screen towards the inline start (left in English, right in Arabic), and hidden so its shadow never peeks in.
          open ? 'visible translate-x-0' : 'invisible ltr:-translate-x-full rtl:translate-x-full',
        )}
      >
        <Button
          ref={closeButton}
          variant="ghost"
          size="icon"
          onClick={onClose}
          aria-label={t('shell.closeMenu')}
          className="absolute end-2 top-3"
        >
          <CloseIcon />
        </Button>
        {children}
      </div>
    </div>
  );
}
