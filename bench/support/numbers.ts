/** Numbers: rounding, medians, milliseconds as the reports print them, and a process's CPU time. */
import { readFileSync } from 'node:fs';

export const round1 = (value: number) => Math.round(value * 10) / 10;
export const round2 = (value: number) => Math.round(value * 100) / 100;

/** The median (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds of each round of a measurement, and their median, to 0.1 ms. */
export interface Rounds {
  rounds: number[];
  median: number;
}

export const roundsOf = (samples: number[]): Rounds => ({
  rounds: samples.map(round1),
  median: round1(median(samples)),
});

/** The median of values some runs could not measure: undefined unless every one is known. */
export function knownMedian(values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === 0 || known.length < values.length ? undefined : median(known);
}

/**
 * User + system CPU time of a process in ms, from `/proc/<pid>/stat` (clock ticks of 10 ms);
 * undefined if there is none, or (with `command`) if it runs something else.
 */
export function cpuMs(pid: number, command?: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (command !== undefined && stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== command)
      return undefined;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5) are utime and stime; the slice starts at field 3.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export const ms = (value: number | undefined) => (value === undefined ? '?' : `${value} ms`);
