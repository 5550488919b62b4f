import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type ComponentType, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyComponent } from '../../lib/lazy-component.tsx';
import { DeferredMenu, type MenuWithTriggerProps } from './deferred-menu.tsx';

/** A stand-in for a menu's chunk: a trigger that toggles a list, as Radix's does. */
function FakeMenu({ defaultOpen, triggerClassName, triggerContent, triggerRef }: MenuWithTriggerProps) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className={triggerClassName}
        aria-expanded={open}
        data-real="yes"
        onClick={() => setOpen(!open)}
      >
        {triggerContent}
      </button>
      {open && <div role="menu">Items</div>}
    </>
  );
}

/** A menu whose chunk arrives when the test says so, and which counts how often it was asked for. */
function controlledMenu() {
  let arrive: (component: ComponentType<MenuWithTriggerProps>) => void = () => undefined;
  const load = vi.fn(
    () =>
      new Promise<ComponentType<MenuWithTriggerProps>>((resolve) => {
        arrive = resolve;
      }),
  );
  return { menu: lazyComponent(load), load, arrive: () => arrive(FakeMenu) };
}

/** The browser never idle here: only a pointer, a focus or a press asks for the menu. */
function neverIdle() {
  vi.stubGlobal('requestIdleCallback', () => 1);
  vi.stubGlobal('cancelIdleCallback', () => undefined);
}

/** The account menu's button, with a menu from `controlledMenu`. */
function renderMenu(menu: ReturnType<typeof controlledMenu>['menu']) {
  render(
    <DeferredMenu menu={menu} className="pill">
      Account menu
    </DeferredMenu>,
  );
  return screen.getByRole('button', { name: 'Account menu' });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a menu whose code comes after the page', () => {
  it('shows a plain button of the same look and name, and asks for nothing while the page is busy', () => {
    neverIdle();
    const { menu, load } = controlledMenu();
    const button = renderMenu(menu);
    expect(button.className).toBe('pill');
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(load).not.toHaveBeenCalled();
    fireEvent.pointerEnter(button);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('is asked for once the browser is idle', () => {
    let idle: (() => void) | undefined;
    vi.stubGlobal('requestIdleCallback', (run: () => void) => {
      idle = run;
      return 1;
    });
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    const { menu, load } = controlledMenu();
    renderMenu(menu);
    expect(load).not.toHaveBeenCalled();
    idle?.();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('opens when its code arrives after a press made before, the focus going into the menu', async () => {
    neverIdle();
    const { menu, arrive } = controlledMenu();
    fireEvent.keyDown(renderMenu(menu), { key: 'ArrowDown' });
    expect(screen.queryByRole('menu')).toBeNull();
    arrive();
    expect(await screen.findByRole('menu')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Account menu' }).dataset.real).toBe('yes');
  });

  it('keeps the focus on the button as the menu’s own replaces it, closed when it was not pressed', async () => {
    neverIdle();
    const { menu, arrive } = controlledMenu();
    const placeholder = renderMenu(menu);
    placeholder.focus();
    fireEvent.focus(placeholder);
    arrive();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Account menu' }).dataset.real).toBe('yes'),
    );
    const real = screen.getByRole('button', { name: 'Account menu' });
    expect(document.activeElement).toBe(real);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('renders the menu’s own button at once when its code is already there', async () => {
    const { menu, arrive } = controlledMenu();
    const loading = menu.preload();
    arrive();
    await loading;
    expect(renderMenu(menu).dataset.real).toBe('yes');
  });
});
