import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { renderSignedIn, testUser } from '../../test/render.tsx';
import { UserMenu } from './user-menu.tsx';
import { WorkspaceSelector } from './workspace-selector.tsx';

const user = testUser([{ id: 'w-1', name: 'Falafel House', grant: 'admin' }]);

afterEach(async () => {
  await i18next.changeLanguage('en');
});

/** The menu's trigger (the test harness adds buttons of its own). */
const menuButton = () => {
  const trigger = screen
    .getAllByRole('button')
    .find((button) => button.getAttribute('aria-haspopup') === 'menu');
  if (!trigger) throw new Error('no menu button');
  return trigger;
};

/** The text a sighted user reads on the button, as speech input would say it. */
const visibleText = (element: HTMLElement) =>
  [...element.querySelectorAll<HTMLElement>('span:not(.sr-only):not([aria-hidden=true])')]
    .filter((span) => span.children.length === 0)
    .map((span) => span.textContent?.trim())
    .filter(Boolean)
    .join(' ');

describe('the shell menus are named by what they show (WCAG 2.5.3, label in name)', () => {
  for (const language of ['en', 'ar'] as const) {
    it(`${language}: the workspace selector's name starts with its visible text and says what it does`, async () => {
      await i18next.changeLanguage(language);
      renderSignedIn(<WorkspaceSelector />, { user });
      const trigger = menuButton();
      const shown = visibleText(trigger);
      expect(shown).toBe(`${i18next.t('shell.workspace')} Falafel House`);
      // Testing Library computes the accessible name as assistive technology does.
      expect(screen.getByRole('button', { name: `${shown} ${i18next.t('shell.switchWorkspace')}` })).toBe(
        trigger,
      );
    });

    it(`${language}: the user menu's name starts with the user's name and says it is the account menu`, async () => {
      await i18next.changeLanguage(language);
      renderSignedIn(<UserMenu />, { user });
      const trigger = menuButton();
      expect(screen.getByRole('button', { name: `Sara Ali ${i18next.t('shell.accountMenu')}` })).toBe(
        trigger,
      );
    });
  }
});
