// Runs after every install (root `postinstall`), on the `node` that npm scripts will use: the
// project's own Node binary (an optional dependency, linked as node_modules/.bin/node, which npm
// puts first on the PATH of every script), or the system's when no binary package was installed
// for this platform or optional dependencies were omitted. Fails the install with one clear
// message when that Node is older than package.json's `engines.node` (a minimum, `>=X.Y.Z`).
// Written to run on old Node versions too (nothing newer than Node 16).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = pkg.engines.node;
const match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(wanted);
if (!match) throw new Error(`check-node: engines.node must read ">=X.Y.Z", not ${JSON.stringify(wanted)}`);
const minimum = match.slice(1).map(Number);
const current = process.versions.node.split('.').map(Number);
const compare = current.map((part, i) => part - minimum[i]).find((difference) => difference !== 0) || 0;
if (compare < 0) {
  const binary = `${root}node_modules/.bin/node`;
  const platform = `${process.platform}-${process.arch}`;
  const pinned = Object.keys(pkg.optionalDependencies || {}).filter((name) => /^node-/.test(name));
  console.error(
    [
      `check-node: this project needs Node ${wanted}; npm scripts here would run Node ${process.version} (${process.execPath}).`,
      existsSync(binary)
        ? `  ${binary} exists but is not first on the PATH of npm scripts.`
        : `  No Node binary package was installed for ${platform} (the project pins ${pinned.join(', ')} as optional dependencies; ` +
          'the registry may have none for this platform, or optional dependencies were omitted).',
      `  Install Node ${wanted} yourself (it is then used as is) and run npm ci again.`,
    ].join('\n'),
  );
  process.exit(1);
}
