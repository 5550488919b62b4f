import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  changePasswordInputSchema,
  loginInputSchema,
  requestAccessInputSchema,
  updateProfileInputSchema,
} from './auth/schemas.ts';
import { countryField } from './resource-kit/fields.ts';
import { listQuerySchema } from './resource-kit/list-query.ts';
import { resources } from './resources/index.ts';
import { inviteUserInputSchema, setProfileInputSchema } from './resources/workspace-users.ts';
import { validationCodes } from './validation-codes.ts';

/** Inputs that pass, and the paths of their text fields: each gets a U+0000. */
const textInputs: [string, z.ZodType, Record<string, unknown>, (string | number)[][]][] = [
  ['login', loginInputSchema, { email: 'a@b.co', password: 'Sesame#Open1' }, [['email'], ['password']]],
  [
    'request access',
    requestAccessInputSchema,
    {
      name: 'Sara',
      email: 'sara@shop.example',
      phone: '+20 100 1234567',
      companyName: 'Sara Foods',
      businessCategory: 'food',
      howDidYouHearAboutUs: 'google',
      reCaptchaToken: 'x',
    },
    [['name'], ['email'], ['phone'], ['companyName'], ['reCaptchaToken']],
  ],
  [
    'change password',
    changePasswordInputSchema,
    { currentPassword: 'Sesame#Open1', newPassword: 'Brand#New2025' },
    [['currentPassword'], ['newPassword']],
  ],
  ['profile', updateProfileInputSchema, { name: 'Layla', phone: '0123456789' }, [['name'], ['phone']]],
  [
    'set profile',
    setProfileInputSchema,
    { name: 'Layla', phone: '0123456789', password: 'Brand#New2025', passwordResetToken: 'abc' },
    [['name'], ['passwordResetToken']],
  ],
  [
    'invite',
    inviteUserInputSchema,
    { email: 'a@b.co', roleId: '4f8b7c1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b', code: 'S1', applications: ['pos'] },
    [['email'], ['code'], ['applications', 0]],
  ],
];

const withNul = (value: unknown, path: (string | number)[]): unknown => {
  const [head, ...rest] = path;
  if (head === undefined) return `${String(value)}\u0000`;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = withNul(copy[head], rest);
  return copy;
};

describe('text fields refuse U+0000 (PostgreSQL cannot store it)', () => {
  it.each(textInputs)('%s', (_, schema, valid, paths) => {
    expect(schema.safeParse(valid).success).toBe(true);
    for (const path of paths) {
      const result = schema.safeParse(withNul(valid, path));
      expect(result.success, path.join('.')).toBe(false);
      // A union (an optional phone: '' or a number) reports its own code at the same path.
      expect(result.error?.issues).toContainEqual(expect.objectContaining({ path }));
    }
  });

  it("every resource's text fields, and its list's search", () => {
    const samples: Record<string, Record<string, unknown>> = {
      code: { code: 'A1' },
      title: { title: 'T' },
      name: { name: [{ locale: 'en', value: 'N' }] },
      plainName: { name: 'N' },
      description: { description: 'D' },
      symbol: { symbol: 'kg' },
      address: { address: 'Road 1' },
    };
    let checked = 0;
    for (const definition of resources) {
      const shape = (definition.schemas.create as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      for (const sample of Object.values(samples)) {
        const [field = ''] = Object.keys(sample);
        if (!(field in shape)) continue;
        const path = Array.isArray(sample[field]) ? [field, 0, 'value'] : [field];
        const fits = definition.schemas.create.safeParse(sample);
        if (fits.error?.issues.some((issue) => issue.path[0] === field)) continue;
        const result = definition.schemas.create.safeParse(withNul(sample, path));
        expect(result.error?.issues, `${definition.key}.${field}`).toContainEqual(
          expect.objectContaining({ path, message: validationCodes.TEXT_IS_INVALID }),
        );
        checked += 1;
      }
      const query = listQuerySchema(definition).safeParse({
        workspaceId: '4f8b7c1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b',
        search: 'a\u0000b',
      });
      expect(query.error?.issues[0]).toMatchObject({
        path: ['search'],
        message: validationCodes.TEXT_IS_INVALID,
      });
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('country codes', () => {
  it('anything but two capital letters is refused without reaching Intl.DisplayNames (which throws)', () => {
    for (const value of ['', '1', 'S', 'abc', 'SA1', 'ÄÄ', 'a b', '\u0000', 'sa', 'XX']) {
      const result = countryField.safeParse(value);
      expect(result.success, JSON.stringify(value)).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        validationCodes.COUNTRY_IS_INVALID,
      ]);
    }
    expect(countryField.safeParse('SA').success).toBe(true);
  });
});
