import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validationRefusal } from '../../test/refusal.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { ProfilePage } from './profile-page.tsx';
import { recoveryCodesText, SecuritySection } from './security-section.tsx';
import { factorLabels, SessionsSection } from './sessions-section.tsx';

const user = testUser([{ id: 'w1', name: 'Shop', grant: 'admin' }]);
const app = {
  id: '11111111-1111-4111-8111-111111111111',
  kind: 'totp',
  name: 'Phone',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
};
const codes = Array.from({ length: 10 }, (_, index) => `aaaaa-bbbbb-cccc${String.fromCharCode(97 + index)}`);

function renderWith(page: React.ReactElement, routes: MockRoute[]) {
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  return { ...mock, ...renderSignedIn(page, { user, path: '/profile' }) };
}

describe('SecuritySection', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is focused when the address names it (/profile#security)', async () => {
    const mock = mockFetch([
      { path: '/api/auth/second-factors', body: { data: { factors: [], recoveryCodesLeft: 0 } } },
    ]);
    vi.stubGlobal('fetch', mock.fetchMock);
    renderSignedIn(<ProfilePage />, { user, path: '/profile', at: '/profile#security' });
    const section = await screen.findByRole('heading', { name: 'Security' });
    await waitFor(() => expect(document.activeElement).toBe(section.closest('#security')));
  });

  it('lists the factors with the recovery codes left', async () => {
    renderWith(<SecuritySection />, [
      { path: '/api/auth/second-factors', body: { data: { factors: [app], recoveryCodesLeft: 7 } } },
    ]);
    const row = await screen.findByTestId('second-factor');
    expect(within(row).getByText('Phone')).toBeTruthy();
    expect(within(row).getByText('Authenticator app')).toBeTruthy();
    expect(screen.getByTestId('recovery-codes-left').textContent).toBe('7 recovery codes left');
  });

  it('removes a factor only with the password, and says a wrong one in words', async () => {
    const { calls } = renderWith(<SecuritySection />, [
      { path: '/api/auth/second-factors', body: { data: { factors: [app], recoveryCodesLeft: 10 } } },
      {
        method: 'DELETE',
        path: `/api/auth/second-factors/${app.id}`,
        ...validationRefusal([{ path: 'password', message: 'CURRENT_PASSWORD_IS_INCORRECT' }]),
      },
    ]);
    const person = userEvent.setup();
    await person.click(await screen.findByRole('button', { name: 'Remove Phone' }));
    const dialog = await screen.findByRole('alertdialog');
    await person.type(within(dialog).getByLabelText(/^Current password/), 'wrong-password');
    await person.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('The current password is incorrect')).toBeTruthy();
    expect(
      callsTo(calls, '/api/auth/second-factors/11111111-1111-4111-8111-111111111111', 'DELETE')[0]?.body,
    ).toEqual({
      password: 'wrong-password',
    });
  });

  it('enrols an authenticator app: password, then QR code and secret, then the recovery codes once', async () => {
    const { calls } = renderWith(<SecuritySection />, [
      { path: '/api/auth/second-factors', body: { data: { factors: [], recoveryCodesLeft: 0 } } },
      {
        method: 'POST',
        path: '/api/auth/second-factors/totp/start',
        body: {
          data: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Dukkan:sara?secret=JBSWY3DPEHPK3PXP' },
        },
      },
      {
        method: 'POST',
        path: '/api/auth/second-factors/totp',
        body: { data: { factor: app, recoveryCodes: codes } },
      },
    ]);
    const person = userEvent.setup();
    await person.click(await screen.findByRole('button', { name: 'Add authenticator app' }));
    const dialog = await screen.findByRole('dialog');
    await person.type(within(dialog).getByLabelText(/^Current password/), 'Secret123!');
    await person.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('totp-secret')).textContent).toBe('JBSWY3DPEHPK3PXP');
    const qr = screen.getByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    await person.type(screen.getByLabelText(/^Authentication code/), '123456');
    await person.click(screen.getByRole('button', { name: 'Confirm' }));
    const shown = await screen.findByTestId('recovery-codes');
    expect(
      within(shown)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(callsTo(calls, '/api/auth/second-factors/totp/start', 'POST')[0]?.body).toEqual({
      password: 'Secret123!',
    });
    expect(callsTo(calls, '/api/auth/second-factors/totp', 'POST')[0]?.body).toEqual({
      name: 'Authenticator app',
      code: '123456',
    });
  });

  it('writes the recovery codes one a line under their heading', () => {
    expect(recoveryCodesText(['a', 'b'], 'Codes')).toBe('Codes\n\na\nb\n');
  });
});

describe('SessionsSection', () => {
  afterEach(() => vi.unstubAllGlobals());

  const session = (id: string, current: boolean, factors: string[]) => ({
    id,
    current,
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    address: '203.0.113.7',
    createdAt: '2026-11-01T10:00:00.000Z',
    lastSeenAt: '2026-11-02T10:00:00.000Z',
    factors,
  });

  it('marks this device, names the factors, and signs another session out after asking', async () => {
    const { calls } = renderWith(<SessionsSection />, [
      {
        path: '/api/auth/sessions',
        body: { data: [session('s1', true, ['pwd', 'otp']), session('s2', false, ['pwd'])] },
      },
      { method: 'DELETE', path: '/api/auth/sessions/s2', body: { data: { success: true } } },
    ]);
    const rows = await screen.findAllByTestId('session');
    expect(within(rows[0] as HTMLElement).getByText('This device')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('Code')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('Chrome on Windows')).toBeTruthy();
    // This device is not signed out from here.
    expect(within(rows[0] as HTMLElement).queryByRole('button')).toBeNull();
    const person = userEvent.setup();
    await person.click(
      within(rows[1] as HTMLElement).getByRole('button', { name: 'Sign out Chrome on Windows' }),
    );
    const dialog = await screen.findByRole('alertdialog');
    await person.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(callsTo(calls, '/api/auth/sessions/s2', 'DELETE')).toHaveLength(1));
  });

  it('reads amr values as the words a person knows', () => {
    expect(factorLabels(['pwd', 'hwk', 'swk', 'otp'])).toEqual(['pwd', 'key', 'otp']);
  });
});
