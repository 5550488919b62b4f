import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findViolations, judgeImport, unpairedFeatures } from './import-boundaries.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('import boundaries', () => {
  it('the fixture tree fails exactly where it says it must, whatever the spelling', () => {
    const found = findViolations(path.join(here, 'fixtures/boundaries')).map(
      (v) => `${v.file} -> ${v.specifier}`,
    );
    expect(found.sort()).toEqual(
      [
        'apps/server/src/features/a/a.ts -> ../../features/b/b.ts',
        'apps/server/src/features/a/a.ts -> ../b/b.ts',
        'apps/server/src/http/h.ts -> ../features/a/a.ts',
        'apps/server/src/platform/p.ts -> ../http/h.ts',
        'apps/web/src/lib/l.ts -> ../app/routes.ts',
        'apps/web/src/lib/l.ts -> ../features/c/c.ts',
      ].sort(),
    );
  });

  it('judges resolved paths: a feature reaching itself the long way is fine, another is not', () => {
    expect(judgeImport('apps/web/src/features/x/a.ts', 'apps/web/src/features/x/b.ts')).toBeNull();
    expect(judgeImport('apps/web/src/features/x/a.ts', 'apps/web/src/features/y/b.ts')).toMatch(/exceptions/);
    expect(
      judgeImport('apps/web/src/features/x/a.ts', 'apps/web/src/features/captcha/captcha-errors.ts'),
    ).toBeNull();
    expect(judgeImport('apps/server/src/resource-engine/a.ts', 'apps/server/src/resources.ts')).toMatch(
      /shared/,
    );
    expect(judgeImport('apps/server/src/resource-engine/a.ts', 'apps/server/src/config.ts')).toBeNull();
  });

  it('finds the feature folders named on one side only', () => {
    expect(unpairedFeatures(path.join(here, 'fixtures/boundaries')).sort()).toEqual([
      'apps/server/src/features/a',
      'apps/server/src/features/auth',
      'apps/server/src/features/b',
      'apps/web/src/features/c',
    ]);
  });

  it('the repository keeps them', () => {
    expect(findViolations(path.join(here, '..'))).toEqual([]);
    expect(unpairedFeatures(path.join(here, '..'))).toEqual([]);
  });
});
