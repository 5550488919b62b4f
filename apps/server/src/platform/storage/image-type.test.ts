import { describe, expect, it } from 'vitest';
import { detectImageType } from './image-type.ts';

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(
    values.flatMap((value) => (typeof value === 'string' ? [...value].map((c) => c.charCodeAt(0)) : [value])),
  );

describe('detectImageType', () => {
  it.each([
    ['png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0)],
    ['jpg', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10)],
    ['gif', bytes('GIF89a', 1, 0)],
    ['webp', bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 ')],
    ['avif', bytes(0, 0, 0, 0x1c, 'ftypavif')],
  ])('knows %s by its first bytes', (extension, content) => {
    expect(detectImageType(content)?.extension).toBe(extension);
  });

  it.each([
    ['SVG (can carry script)', bytes('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>')],
    ['HTML', bytes('<!doctype html><p>hi')],
    ['a PDF', bytes('%PDF-1.7')],
    ['nothing', bytes()],
    ['a truncated PNG signature', bytes(0x89, 'PNG')],
  ])('refuses %s', (_label, content) => {
    expect(detectImageType(content)).toBeNull();
  });
});
