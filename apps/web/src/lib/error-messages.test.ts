import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { describeApiError } from './error-messages.ts';

const t = i18next.t.bind(i18next);

describe('describeApiError', () => {
  it('translates rate limiting with the wait', () => {
    const error = new ApiError(429, 'RATE_LIMITED', 'Too many', {
      statusCode: 429,
      code: 'RATE_LIMITED',
      name: 'RateLimitedError',
      message: 'Too many',
      retryAfter: 300,
    });
    expect(describeApiError(error, t, 'en')).toBe('Too many attempts. Please try again in 5 minutes.');
  });

  it('falls back to Something went wrong', () => {
    expect(describeApiError(new Error('boom'), t, 'en')).toBe('Something went wrong');
    expect(describeApiError(new ApiError(500, 'INTERNAL', 'Something went wrong'), t, 'en')).toBe(
      'Something went wrong',
    );
  });

  it('shows the server message for codes without a translation of their own', () => {
    expect(describeApiError(new ApiError(404, 'NOT_FOUND', 'Not found'), t, 'en')).toBe('Not found');
  });
});
