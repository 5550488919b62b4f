import { createHash } from 'node:crypto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderPage } from '../../test/render.tsx';
import { RequestAccessPage } from './request-access-page.tsx';

// A real, tiny ALTCHA challenge: the page solves it with altcha-lib as it would in the browser.
const salt = 'test-salt';
const challenge = {
  algorithm: 'SHA-256',
  challenge: createHash('sha256').update(`${salt}7`).digest('hex'),
  maxnumber: 50,
  salt,
  signature: 'signature',
};

/** The page, the captcha served, and the request answered with `answer`; then the form sent. */
async function sendRequest(answer: { status: number; body: unknown }) {
  const mock = mockFetch([
    { path: '/api/captcha/config', body: { data: { provider: 'altcha' } } },
    { path: '/api/captcha/challenge', body: { data: challenge } },
    { method: 'POST', path: '/api/auth/request-for-access', ...answer },
  ]);
  vi.stubGlobal('fetch', mock.fetchMock);
  renderPage(<RequestAccessPage />, { path: '/request-for-access' });
  await fillForm();
  return mock;
}

/** The server's duplicate refusal on a field. */
const alreadyExists = (target: 'email' | 'phone') => ({
  status: 409,
  body: {
    error: { statusCode: 409, code: 'DB', name: 'DBError', message: `${target} already exists`, target },
  },
});

async function fillForm() {
  const person = userEvent.setup();
  await person.type(screen.getByLabelText(/^Full name/), 'Sara Ali');
  await person.type(screen.getByLabelText(/^Email/), 'sara@example.com');
  await person.type(screen.getByLabelText(/^Phone number/), '+20 1001234567');
  await person.type(screen.getByLabelText(/^Company name/), 'Sara Foods');
  await person.selectOptions(screen.getByLabelText(/^Business category/), 'food');
  await person.selectOptions(screen.getByLabelText(/^How did you hear about us/), 'friend');
  await person.click(screen.getByRole('button', { name: 'Send request' }));
}

describe('RequestAccessPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows Email Already Exists under the email field for a DB error on email, and fetches a new challenge', async () => {
    const { calls } = await sendRequest(alreadyExists('email'));

    const email = screen.getByLabelText(/^Email/);
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Email Already Exists',
    );

    const sent = calls.find((call) => call.method === 'POST');
    const { reCaptchaToken } = (sent?.body ?? {}) as { reCaptchaToken: string };
    const token = JSON.parse(atob(reCaptchaToken));
    expect(token).toEqual({
      algorithm: 'SHA-256',
      challenge: challenge.challenge,
      number: 7,
      salt,
      signature: 'signature',
    });
    expect(sent?.body).toMatchObject({
      businessCategory: 'food',
      howDidYouHearAboutUs: 'friend',
      language: 'en',
    });
    // Tokens are single-use: the failed submit starts a fresh challenge.
    await waitFor(() =>
      expect(calls.filter((call) => call.url.endsWith('/captcha/challenge')).length).toBeGreaterThan(1),
    );
  });

  it('shows Phone Already Exists for a DB error on phone', async () => {
    await sendRequest(alreadyExists('phone'));
    expect(await screen.findByText('Phone Already Exists')).toBeTruthy();
  });

  it('shows the captcha failure for a CAPTCHA error', async () => {
    await sendRequest({
      status: 400,
      body: {
        error: {
          statusCode: 400,
          code: 'CAPTCHA',
          name: 'CaptchaError',
          message: 'Captcha verification failed',
        },
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Captcha verification failed. Please try again.',
    );
  });

  it('replaces the form with the success card', async () => {
    await sendRequest({ status: 200, body: { data: { id: 'r1', status: 'pending' } } });
    expect(await screen.findByText('Request sent successfully.')).toBeTruthy();
    expect(screen.getByText('Check your email for updates.')).toBeTruthy();
  });
});
