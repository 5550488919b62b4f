import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError, OfflineError } from './api-client.ts';
import { describeApiError, describeSaveFailure } from './error-messages.ts';

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

  it('names the rule a refused change broke, and the field a duplicate is on', () => {
    const refused = (code: 'VALIDATION' | 'DB', extra: object) =>
      new ApiError(code === 'DB' ? 409 : 400, code, 'x', {
        statusCode: 400,
        code,
        name: 'x',
        message: 'x',
        ...extra,
      });
    expect(
      describeApiError(refused('VALIDATION', { issues: [{ path: 'id', message: 'ROLE_IN_USE' }] }), t, 'en'),
    ).toBe('This role is held by users; give them another role first');
    expect(
      describeApiError(
        refused('VALIDATION', { issues: [{ path: 'x', message: 'Expected string' }] }),
        t,
        'en',
      ),
    ).toBe('Some of the information is not valid. Check the form and try again.');
    expect(describeApiError(refused('DB', { target: 'code' }), t, 'en')).toBe('This code must be unique');
    expect(describeApiError(refused('DB', { target: 'other' }), t, 'en')).toBe('This record already exists');
  });

  it("fills a refusal's placeholders from the issue's params", () => {
    const error = new ApiError(400, 'VALIDATION', 'x', {
      statusCode: 400,
      code: 'VALIDATION',
      name: 'ValidationError',
      message: 'x',
      issues: [{ path: 'variants', message: 'TOO_MANY_VARIANTS', params: { count: 2049, max: 2048 } }],
    });
    expect(describeApiError(error, t, 'en')).toBe(
      'These choices make 2049 variants; a product can have at most 2048. Choose fewer values',
    );
    // An Arabic reader gets Arabic-Indic digits (the test loads only the English texts).
    expect(describeApiError(error, t, 'ar')).toContain('٢٠٤٩');
    expect(describeApiError(error, t, 'ar')).not.toContain('2049');
  });

  it('shows the server message for codes without a translation of their own', () => {
    expect(describeApiError(new ApiError(404, 'NOT_FOUND', 'Not found'), t, 'en')).toBe('Not found');
  });
});

describe('describeSaveFailure', () => {
  const fallback = 'The role could not be saved.';

  it("says the form's own words when the server failed, or the error is not the API's", () => {
    expect(describeSaveFailure(new ApiError(500, 'INTERNAL', 'boom'), t, 'en', fallback)).toBe(fallback);
    expect(describeSaveFailure(new Error('boom'), t, 'en', fallback)).toBe(fallback);
  });

  it('says why otherwise: offline, forbidden, a rule by its code', () => {
    expect(describeSaveFailure(new OfflineError(), t, 'en', fallback)).toBe(
      describeApiError(new OfflineError(), t, 'en'),
    );
    expect(describeSaveFailure(new OfflineError(), t, 'en', fallback)).not.toBe(fallback);
    expect(describeSaveFailure(new ApiError(403, 'FORBIDDEN', 'Forbidden'), t, 'en', fallback)).toBe(
      describeApiError(new ApiError(403, 'FORBIDDEN', 'Forbidden'), t, 'en'),
    );
    expect(
      describeSaveFailure(new ApiError(400, 'VALIDATION', 'CODE_MUST_BE_UNIQUE'), t, 'en', fallback),
    ).toBe('This code must be unique');
  });
});
