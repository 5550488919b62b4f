/** The image formats an upload may be, told by their first bytes (never by the name or the sender's type). */
const signatures: { extension: string; mime: string; matches: (bytes: Uint8Array) => boolean }[] = [
  {
    extension: 'png',
    mime: 'image/png',
    matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte),
  },
  { extension: 'jpg', mime: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    extension: 'gif',
    mime: 'image/gif',
    matches: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a',
  },
  {
    extension: 'webp',
    mime: 'image/webp',
    matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
  },
  {
    extension: 'avif',
    mime: 'image/avif',
    matches: (b) => ascii(b, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(b, 8, 12)),
  },
];

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/**
 * The raster image format of a file's content, or null. SVG is refused on purpose: it can carry
 * script, and the files are served from the application's own origin.
 */
export function detectImageType(bytes: Uint8Array): { extension: string; mime: string } | null {
  const found = signatures.find((signature) => signature.matches(bytes));
  return found ? { extension: found.extension, mime: found.mime } : null;
}
