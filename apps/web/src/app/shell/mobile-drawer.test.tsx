import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { MobileDrawer } from './mobile-drawer.tsx';

/** The shell's arrangement: the drawer beside the page, whose header has the menu button. */
function Shell() {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <MobileDrawer id="drawer" open={open} onClose={() => setOpen(false)}>
        <nav>
          <a href="/brands">Brands</a>
          <a href="/taxes">Taxes</a>
          <button type="button" disabled>
            Unavailable
          </button>
        </nav>
      </MobileDrawer>
      <div>
        <button type="button" aria-controls="drawer" aria-expanded={open} onClick={() => setOpen(true)}>
          Open menu
        </button>
        <a href="/profile">Page link</a>
      </div>
    </div>
  );
}

async function openDrawer() {
  const person = userEvent.setup();
  render(<Shell />);
  const menuButton = screen.getByRole('button', { name: 'Open menu' });
  await person.click(menuButton);
  const drawer = screen.getByRole('dialog', { name: 'Main navigation' });
  return { person, menuButton, drawer };
}

describe('MobileDrawer', () => {
  it('takes the focus when it opens and makes the page behind it inert', async () => {
    const { menuButton, drawer } = await openDrawer();
    expect(document.activeElement).toBe(within(drawer).getByRole('button', { name: 'Close menu' }));
    expect(menuButton.closest('[inert]')).not.toBeNull();
    expect(drawer.closest('[inert]')).toBeNull();
  });

  it('keeps Tab and Shift+Tab inside', async () => {
    const { person, drawer } = await openDrawer();
    const close = within(drawer).getByRole('button', { name: 'Close menu' });
    const taxes = within(drawer).getByRole('link', { name: 'Taxes' });
    await person.tab();
    await person.tab();
    expect(document.activeElement).toBe(taxes);
    // The disabled button cannot take the focus: Tab goes round to the first control.
    await person.tab();
    expect(document.activeElement).toBe(close);
    await person.tab({ shift: true });
    expect(document.activeElement).toBe(taxes);
  });

  it('closes on Escape and gives the focus back to the menu button, with the page usable again', async () => {
    const { person, menuButton, drawer } = await openDrawer();
    await person.tab();
    expect(document.activeElement).toBe(within(drawer).getByRole('link', { name: 'Brands' }));
    await person.keyboard('{Escape}');
    await waitFor(() => expect(menuButton.getAttribute('aria-expanded')).toBe('false'));
    expect(document.activeElement).toBe(menuButton);
    expect(menuButton.closest('[inert]')).toBeNull();
  });

  it('gives the focus back to the menu button after the close button too', async () => {
    const { person, menuButton, drawer } = await openDrawer();
    await person.click(within(drawer).getByRole('button', { name: 'Close menu' }));
    expect(document.activeElement).toBe(menuButton);
  });
});
