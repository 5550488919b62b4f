import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { focusReturnTarget, restoreFocus, tabbableElements } from '../../components/ui/focus.ts';
import { CloseIcon } from '../../components/ui/icons.tsx';
import { cn } from '../../lib/class-names.ts';

/** Where the sidebar shows and the drawer is not offered (Tailwind's `lg`). */
export const wideScreenQuery = '(min-width: 64rem)';

/**
 * The slide-out menu of narrow screens (20rem wide, from the inline start). A modal dialog:
 * it takes the focus when it opens, Tab and Shift+Tab stay inside, the page behind is inert,
 * Escape, the backdrop and the close button close it, and the focus goes back to the menu button.
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
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const opener = focusReturnTarget(document.activeElement);
    // The page beside the drawer: neither Tab, a click nor a screen reader reaches it meanwhile.
    const background = [...(root.current?.parentElement?.children ?? [])].filter(
      (element): element is HTMLElement =>
        element instanceof HTMLElement && element !== root.current && !element.inert,
    );
    for (const element of background) element.inert = true;
    closeButton.current?.focus();
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      // A menu open inside the drawer handles its own Escape first (Radix marks it handled).
      if (event.key === 'Escape' && !event.defaultPrevented) onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    // Widened past the drawer's breakpoint (a tablet turned): the sidebar shows, the page must not stay inert.
    const wide = window.matchMedia(wideScreenQuery);
    const closeWhenWide = () => {
      if (wide.matches) onClose();
    };
    wide.addEventListener('change', closeWhenWide);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      wide.removeEventListener('change', closeWhenWide);
      for (const element of background) element.inert = false;
      // Without an opener (a tap that gave no focus), the button that opens the drawer.
      restoreFocus(opener, document.querySelector<HTMLElement>(`[aria-controls="${id}"]`));
    };
  }, [open, onClose, id]);

  const keepFocusInside = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = tabbableElements(panel.current);
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    const inside = active instanceof HTMLElement && panel.current.contains(active);
    if (event.shiftKey && (active === first || !inside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div ref={root} className="lg:hidden">
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
          'fixed inset-y-0 start-0 z-50 flex w-80 max-w-[85vw] flex-col bg-white shadow-xl duration-200 dark:bg-slate-900',
          // Off-screen towards the inline start (left in English, right in Arabic), and hidden so its
          // shadow never peeks in. Visible at once on opening (a hidden panel cannot take the focus),
          // hidden only once it has slid out.
          open
            ? 'visible translate-x-0 transition-[translate]'
            : 'invisible transition-[translate,visibility] ltr:-translate-x-full rtl:translate-x-full',
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
