import { describe, expect, it } from 'vitest';
import { validationCodes } from '../validation-codes.ts';
import { imageUrlField, parseStoredFileUrl, singleImageFormField, storedImageExtensions } from './fields.ts';

const workspaceId = '0b0c1c9e-2f7a-4c35-9f0a-2c1e3d4b5a69';
const fileId = '6f1d2c3b-4a5e-4f60-8b7a-9c8d7e6f5a4b';
const stored = (extension = 'png') => `/files/${workspaceId}/${fileId}.${extension}`;

const refused = (url: unknown) => {
  const result = imageUrlField.safeParse(url);
  return (
    !result.success && result.error.issues.every((issue) => issue.message === validationCodes.URL_IS_INVALID)
  );
};

describe('imageUrlField: only the URL of a file Dukkan stored', () => {
  it.each(storedImageExtensions)('accepts the upload route’s shape, .%s', (extension) => {
    expect(imageUrlField.parse(stored(extension))).toBe(stored(extension));
    expect(parseStoredFileUrl(stored(extension))).toEqual({ workspaceId, name: `${fileId}.${extension}` });
  });

  it.each([
    ['the logout route through a dot-segment', '/files/../api/auth/logout'],
    ['a dot-segment inside the shape', `/files/${workspaceId}/../${workspaceId}/${fileId}.png`],
    ['a current-directory segment', `/files/./${workspaceId}/${fileId}.png`],
    ['a percent-encoded dot-segment', '/files/%2e%2e/api/auth/logout'],
    ['a percent-encoded slash', `/files/..%2fapi%2fauth%2flogout`],
    ['an upper-case percent-encoded dot', '/files/%2E%2E/api/auth/logout'],
    ['a backslash', `/files/${workspaceId}\\..\\..\\api\\auth\\logout`],
    ['another origin', `https://evil.invalid/files/${workspaceId}/${fileId}.png`],
    ['a protocol-relative URL', `//evil.invalid/files/${workspaceId}/${fileId}.png`],
    ['this app at an absolute address', `http://localhost:3000/files/${workspaceId}/${fileId}.png`],
    ['a data URL', 'data:image/png;base64,iVBORw0KGgo='],
    ['a javascript URL', 'javascript:alert(1)'],
    ['a query string', `${stored()}?logout=1`],
    ['a fragment', `${stored()}#x`],
    ['an API path', '/api/auth/logout'],
    ['a path outside the files', `/${workspaceId}/${fileId}.png`],
    ['an extension that is not an image', stored('svg')],
    ['a second extension', `${stored()}.html`],
    ['a name that is not a random id', `/files/${workspaceId}/logo.png`],
    ['upper-case hex', stored().toUpperCase().replace('/FILES/', '/files/').replace('.PNG', '.png')],
    ['a leading space', ` ${stored()}`],
    ['a trailing line break', `${stored()}\n`],
    ['an empty string', ''],
  ])('refuses %s', (_label, url) => {
    expect(refused(url), url).toBe(true);
    expect(parseStoredFileUrl(url)).toBeNull();
  });

  it('refuses non-strings', () => {
    for (const value of [1, true, {}, [], null]) expect(refused(value)).toBe(true);
  });

  it('refuses every one-character change of a stored URL that could move it (property over all positions)', () => {
    const url = stored();
    const inserted = [
      '.',
      '/',
      '\\',
      '%',
      '?',
      '#',
      '@',
      ':',
      ' ',
      '\t',
      '\u0000',
      '..',
      '%2e',
      '%2f',
      '/..',
    ];
    let checked = 0;
    for (let position = 0; position <= url.length; position++) {
      for (const text of inserted) {
        const mutated = url.slice(0, position) + text + url.slice(position);
        expect(refused(mutated), mutated).toBe(true);
        checked++;
      }
      if (position < url.length) {
        const removed = url.slice(0, position) + url.slice(position + 1);
        expect(refused(removed), removed).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("a form's single image takes the same rule", () => {
    expect(singleImageFormField.parse([stored()])).toBe(stored());
    expect(singleImageFormField.parse([])).toBeNull();
    expect(singleImageFormField.safeParse(['/files/../api/auth/logout']).success).toBe(false);
  });
});
