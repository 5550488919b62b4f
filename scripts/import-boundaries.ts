/**
 * The import layering of both apps, checked on resolved paths (`npm run lint` runs it).
 *
 * - A shared layer (server: http, db, platform, resource-engine; web: lib, components,
 *   resource-ui, i18n) never imports a feature or the app's composition (server: app.ts,
 *   resources.ts, bootstrap.ts, main.ts, cli.ts and its command groups in cli/; web: app/,
 *   main.tsx).
 * - A feature imports another feature only through the exceptions below.
 * - The platform services never import the HTTP layer (`beneath`).
 * - A feature's folder has the same name on both sides (`oneSided` lists the features that live on
 *   one side only, and why), so the server and web halves of a feature are found by one name.
 *
 * Biome's import patterns match the text of a specifier, so `../../features/x` slipped past a
 * pattern written for `../x`; here every relative specifier is resolved first, whatever its
 * spelling. `scripts/fixtures/boundaries` holds a tree that must fail, and
 * `import-boundaries.test.ts` keeps the rule itself tested.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The only files one feature may import from another (on either side, relative to `features/`):
 * a rule both features need, owned by the one it belongs to.
 */
export const featureExceptions: readonly string[] = [
  'applications/application-card.tsx',
  'applications/plan-dialog.tsx',
  'applications/use-applications.ts',
  'auth/current-user.ts',
  'auth/passwords.ts',
  'auth/step-up.tsx',
  'captcha/captcha-errors.ts',
  'roles/grant-rules.ts',
  'users/invitations.ts',
  'users/invitation-mail.ts',
  'workspaces/create-workspace.ts',
];

const sides = {
  'apps/server/src': {
    shared: ['http', 'db', 'platform', 'resource-engine'],
    composition: ['app.ts', 'resources.ts', 'bootstrap.ts', 'main.ts', 'cli.ts', 'cli'],
  },
  'apps/web/src': {
    shared: ['lib', 'components', 'resource-ui', 'i18n'],
    composition: ['app', 'main.tsx'],
  },
} as const;

/**
 * Shared layers that sit below another and never import it: platform services (mail, storage,
 * rate limits, captcha) raise `AppError` from `src/errors.ts`, not from the HTTP layer that
 * answers with it.
 */
const beneath: Readonly<Record<string, readonly string[]>> = {
  'apps/server/src/platform': ['apps/server/src/http'],
};

/** Feature folders that only one side has, each with why; every other feature is on both sides. */
export const oneSided: Readonly<Record<string, string>> = {
  'apps/server/src/features/files': 'uploads: the web sends files through the shared resource-ui',
  'apps/server/src/features/health': 'the readiness and liveness probes, for the operator',
  'apps/web/src/features/not-found': 'the page of an unknown address',
  'apps/web/src/features/placeholder': 'the coming-soon page of the menu entries not built yet',
};

/** The feature folders under `root` named on one side only and not listed in `oneSided`. */
export function unpairedFeatures(root: string): string[] {
  const folders = (side: string) => {
    try {
      return readdirSync(path.join(root, side, 'features')).filter((name) =>
        statSync(path.join(root, side, 'features', name)).isDirectory(),
      );
    } catch {
      return [];
    }
  };
  const [server, web] = Object.keys(sides).map(folders) as [string[], string[]];
  return [
    ...server.filter((name) => !web.includes(name)).map((name) => `apps/server/src/features/${name}`),
    ...web.filter((name) => !server.includes(name)).map((name) => `apps/web/src/features/${name}`),
  ].filter((folder) => !(folder in oneSided));
}

type Place =
  | { kind: 'shared'; side: string }
  | { kind: 'feature'; side: string; feature: string }
  | { kind: 'composition'; side: string }
  | { kind: 'elsewhere' };

/** Where a repository-relative path sits in the layering. */
export function placeOf(file: string): Place {
  const normal = file.split(path.sep).join('/');
  for (const [side, layout] of Object.entries(sides)) {
    if (!normal.startsWith(`${side}/`)) continue;
    const [top, next] = normal.slice(side.length + 1).split('/');
    if (top === 'features' && next) return { kind: 'feature', side, feature: next };
    if ((layout.shared as readonly string[]).includes(top!)) return { kind: 'shared', side };
    if ((layout.composition as readonly string[]).includes(top!)) return { kind: 'composition', side };
    return { kind: 'elsewhere' };
  }
  return { kind: 'elsewhere' };
}

export interface Violation {
  file: string;
  specifier: string;
  target: string;
  reason: string;
}

/** The violation of one import from `file` to `target` (both repository-relative), if any. */
export function judgeImport(file: string, target: string): string | null {
  const from = placeOf(file);
  const to = placeOf(target);
  if (from.kind === 'shared' && (to.kind === 'feature' || to.kind === 'composition')) {
    return 'A shared layer never imports a feature or the app composition: move what both need into the shared layer, or pass it in from the composition.';
  }
  const normalFile = file.split(path.sep).join('/');
  const normalTarget = target.split(path.sep).join('/');
  for (const [lower, uppers] of Object.entries(beneath)) {
    if (!normalFile.startsWith(`${lower}/`)) continue;
    const upper = uppers.find((dir) => normalTarget.startsWith(`${dir}/`));
    if (upper) return `${lower} sits below ${upper} and never imports it: move what both need below both.`;
  }
  if (
    from.kind === 'feature' &&
    to.kind === 'feature' &&
    to.feature !== from.feature &&
    !featureExceptions.includes(target.split(path.sep).join('/').slice(`${to.side}/features/`.length))
  ) {
    return 'A feature imports another feature only through the exceptions in scripts/import-boundaries.ts; move what both need into a shared layer.';
  }
  return null;
}

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) found.push(...sourceFiles(full));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

/** Every violation under `root` (the repository, or a fixture tree shaped like it). */
export function findViolations(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const side of Object.keys(sides)) {
    const dir = path.join(root, side);
    let files: string[];
    try {
      files = sourceFiles(dir);
    } catch {
      continue;
    }
    for (const full of files) {
      const file = path.relative(root, full);
      const { importedFiles } = ts.preProcessFile(readFileSync(full, 'utf8'), true, true);
      for (const { fileName: specifier } of importedFiles) {
        if (!specifier.startsWith('.')) continue;
        const target = path.relative(root, path.resolve(path.dirname(full), specifier));
        const reason = judgeImport(file, target);
        if (reason) violations.push({ file, specifier, target, reason });
      }
    }
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const violations = findViolations(root);
  for (const v of violations)
    console.error(`${v.file}: import '${v.specifier}' (${v.target})\n  ${v.reason}`);
  const unpaired = unpairedFeatures(root);
  for (const folder of unpaired)
    console.error(
      `${folder}: a feature folder the other side does not have; name it as the other side does, or list it in oneSided (scripts/import-boundaries.ts) with why`,
    );
  if (violations.length > 0 || unpaired.length > 0) process.exit(1);
}
