import type { CurrentUser } from '@dukkan/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from '../../i18n/locales/ar.json';
import signedInAr from '../../i18n/locales/signed-in/texts-ar.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { validationRefusal } from '../../test/refusal.ts';
import { callsTo, type MockRoute, mockFetch, renderSignedIn, testUser } from '../../test/render.tsx';
import { mergedTexts } from '../../test/texts.ts';
import { ProfilePicture } from './profile-picture.tsx';

// A member whose role grants nothing at all: the picture is their own, no permission needed.
const user = testUser([{ id: 'w1', name: 'Shop', grant: [] }]);
const picture = '/files/11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222.png';
const withPicture: CurrentUser = { ...user, profilePicture: picture };
const photo = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });

function renderPicture(of: CurrentUser, routes: MockRoute[]) {
  const mock = mockFetch(routes);
  vi.stubGlobal('fetch', mock.fetchMock);
  return { ...mock, ...renderSignedIn(<ProfilePicture user={of} />, { user: of, path: '/profile' }) };
}

const fileInput = () => screen.getByLabelText(/^Profile picture/) as HTMLInputElement;

describe('the profile picture on /profile', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18next.changeLanguage('en');
  });

  it('uploads a picked image as the picture, in the selected workspace, and shows it', async () => {
    const { calls, queryClient } = renderPicture(user, [
      { method: 'PUT', path: '/api/auth/profile/picture', body: { data: withPicture } },
    ]);
    expect(screen.getByText(/Shown beside your name/)).toBeTruthy();
    await userEvent.upload(fileInput(), photo());

    await waitFor(() => expect(callsTo(calls, '/api/auth/profile/picture', 'PUT')).toHaveLength(1));
    const [call] = callsTo(calls, '/api/auth/profile/picture', 'PUT');
    expect(call!.query.get('workspaceId')).toBe('w1');
    expect(((call!.body as FormData).get('file') as File).name).toBe('me.png');
    expect(await screen.findByText('Profile picture updated')).toBeTruthy();
    expect((screen.getByRole('img', { name: 'Image 1' }) as HTMLImageElement).getAttribute('src')).toBe(
      picture,
    );
    // The user menu and the portal read the current user: it now has the picture.
    expect(queryClient.getQueryData<CurrentUser>(queryKeys.currentUser)?.profilePicture).toBe(picture);
  });

  it('removes the picture with its remove button', async () => {
    const { calls, queryClient } = renderPicture(withPicture, [
      { method: 'DELETE', path: '/api/auth/profile/picture', body: { data: user } },
    ]);
    expect(screen.getByRole('img', { name: 'Image 1' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));

    await waitFor(() => expect(callsTo(calls, '/api/auth/profile/picture', 'DELETE')).toHaveLength(1));
    expect(await screen.findByText('Profile picture removed')).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Image 1' })).toBeNull();
    expect(queryClient.getQueryData<CurrentUser>(queryKeys.currentUser)?.profilePicture).toBeNull();
  });

  it('says under the field why the server refused a file, and keeps the picture there was', async () => {
    const { queryClient } = renderPicture(withPicture, [
      {
        method: 'PUT',
        path: '/api/auth/profile/picture',
        ...validationRefusal([{ path: 'file.0', message: 'FILE_TYPE_NOT_ALLOWED' }]),
      },
    ]);
    await userEvent.upload(fileInput(), photo());
    expect(await screen.findByText('Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded')).toBeTruthy();
    expect((screen.getByRole('img', { name: 'Image 1' }) as HTMLImageElement).getAttribute('src')).toBe(
      picture,
    );
    expect(queryClient.getQueryData(queryKeys.currentUser)).toBeUndefined();
  });

  it('a failed removal says so and shows the picture again', async () => {
    renderPicture(withPicture, [
      {
        method: 'DELETE',
        path: '/api/auth/profile/picture',
        status: 500,
        body: { error: { statusCode: 500, code: 'INTERNAL', name: 'InternalError', message: 'boom' } },
      },
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'Image 1' })).toBeTruthy();
  });

  it('says what it is in Arabic', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    renderPicture(user, []);
    expect(screen.getByText('الصورة الشخصية')).toBeTruthy();
    expect(screen.getByText(/^تظهر بجانب اسمك في القائمة/)).toBeTruthy();
  });
});
