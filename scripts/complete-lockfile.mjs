// npm records no lockfile entry for an optional platform package its registry cannot serve (the
// registry this project is built with mirrors only linux-x64 builds), and `npm ci` then refuses
// the lockfile as out of sync. This adds the missing entries, marked optional, so `npm ci`
// works everywhere: on other platforms npm fetches the package it needs, here it skips the rest.
// Runs after every `npm install` (root `postinstall`); changes nothing when nothing is missing.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lockPath = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = path === '' ? `node_modules/${name}` : `${path}/node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) continue; // only exact versions can be pinned
    packages[`node_modules/${name}`] = { version, ...(entry.dev ? { dev: true } : {}), optional: true };
    added++;
  }
}
if (added > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: added ${added} optional platform entries to package-lock.json`);
}
