import type { CurrentUser } from '@dukkan/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LanguageToggle } from '../../components/preference-toggles.tsx';
import { queryKeys } from '../../lib/query-keys.ts';
import { callsTo, mockFetch, renderPage, renderSignedIn, testUser } from '../../test/render.tsx';
import { UserMenu, userMenuPopup } from './user-menu.tsx';

const user = testUser([{ id: 'w-1', name: 'Shop', grant: 'admin' }]);

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

async function chooseArabic() {
  await userEvent.click(screen.getByRole('button', { name: /account menu/i }));
  await userEvent.click(await screen.findByRole('menuitem', { name: /العربية/ }));
}

// The menu's own code already there (`deferred-menu.test.tsx` covers the press before it arrives).
beforeAll(async () => {
  await userMenuPopup.preload();
});

describe('the user menu’s language switch (issue 14: mail in the saved language)', () => {
  it('switches the interface and saves the language on the account, updating the current user', async () => {
    const saved: CurrentUser = { ...user, language: 'ar' };
    const { fetchMock, calls } = mockFetch([
      { method: 'PATCH', path: '/api/auth/profile', body: { data: saved } },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    const { queryClient } = renderSignedIn(<UserMenu />, { user });
    queryClient.setQueryData(queryKeys.currentUser, user);

    await chooseArabic();
    expect(i18next.language).toBe('ar');
    await waitFor(() => expect(callsTo(calls, '/api/auth/profile', 'PATCH')).toHaveLength(1));
    expect(callsTo(calls, '/api/auth/profile', 'PATCH')[0]!.body).toEqual({ language: 'ar' });
    await waitFor(() => expect(queryClient.getQueryData(queryKeys.currentUser)).toEqual(saved));
  });

  it('a failed save says so and keeps the interface switched', async () => {
    const { fetchMock } = mockFetch([
      {
        method: 'PATCH',
        path: '/api/auth/profile',
        status: 500,
        body: { error: { statusCode: 500, code: 'INTERNAL', name: 'InternalError', message: 'boom' } },
      },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderSignedIn(<UserMenu />, { user });

    await chooseArabic();
    await screen.findByText('Something went wrong');
    expect(i18next.language).toBe('ar');
  });

  it('on a public page the switch only changes the interface', async () => {
    const { fetchMock, calls } = mockFetch([]);
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<LanguageToggle />);

    await userEvent.click(screen.getByRole('button', { name: /العربية/ }));
    expect(i18next.language).toBe('ar');
    expect(calls).toEqual([]);
  });
});

describe('the user menu’s avatar', () => {
  it('is the profile picture when there is one, the initial otherwise', () => {
    const picture = '/files/11111111-1111-4111-8111-111111111111/44444444-4444-4444-8444-444444444444.png';
    const first = renderSignedIn(<UserMenu />, { user: { ...user, profilePicture: picture } });
    const button = screen.getByRole('button', { name: /account menu/i });
    expect(button.querySelector('img')?.getAttribute('src')).toBe(picture);
    first.unmount();

    renderSignedIn(<UserMenu />, { user });
    expect(screen.getByRole('button', { name: /account menu/i }).querySelector('img')).toBeNull();
  });
});
