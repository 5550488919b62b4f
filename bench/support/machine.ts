/** The machine a benchmark ran on, as its report records it and its first lines print it. */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.ts';

interface MachineFacts {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  date: string;
}

export function machineFacts(): MachineFacts {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

/** The machine of a benchmark on the databases: with the PGlite installed and PostgreSQL's version. */
export type DatabaseMachine = MachineFacts & { postgres?: string; pglite: string };

export function databaseMachine(): DatabaseMachine {
  return { ...machineFacts(), pglite: installedPgliteVersion() };
}

/** The machine as the reports' first lines describe it: cores, Node and the database versions. */
export const machineLine = (machine: DatabaseMachine) =>
  `${machine.cpus} cores (${machine.cpuModel}), Node ${machine.node}, PGlite ${machine.pglite}${machine.postgres ? `, PostgreSQL ${machine.postgres}` : ''}`;

/** The PGlite version installed, for the report's machine facts. */
function installedPgliteVersion(): string {
  const manifest = join(repoRoot, 'node_modules/@electric-sql/pglite/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
