const candidateSelector =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** The elements Tab reaches inside a container, in document order: enabled, not inert, shown. */
export function tabbableElements(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(candidateSelector)].filter(
    (element) =>
      element.tabIndex >= 0 &&
      !(element as HTMLButtonElement).disabled &&
      !element.closest('[inert]') &&
      (typeof element.checkVisibility !== 'function' ||
        element.checkVisibility({ visibilityProperty: true })),
  );
}

/**
 * The element that should get the focus back when something opened from `element` closes.
 * A menu item is gone by then, so its menu's button stands in for it (Radix menus are labelled
 * by their trigger).
 */
export function focusReturnTarget(element: Element | null): HTMLElement | null {
  if (!(element instanceof HTMLElement) || element === element.ownerDocument.body) return null;
  const menu = element.closest('[role="menu"]');
  if (!menu) return element;
  const triggerId = menu.getAttribute('aria-labelledby');
  return (triggerId && element.ownerDocument.getElementById(triggerId)) || null;
}

/**
 * Gives the focus back to `target` when it can still take it (in the page, enabled, shown),
 * otherwise to the page's main content, so keyboard users never restart from the top.
 */
export function restoreFocus(target: HTMLElement | null, fallback?: HTMLElement | null) {
  if (target?.isConnected) {
    target.focus();
    if (document.activeElement === target) return;
  }
  (fallback ?? document.getElementById('main-content'))?.focus();
}

/** True when nothing holds the focus any more (the focused element was removed or blurred). */
export function isFocusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}
