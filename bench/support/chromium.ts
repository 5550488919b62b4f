/** The Chromium of the browser benchmarks. */

/** The Chromium of the browser benchmarks (BENCH_CHROMIUM, default Debian's), headless. */
export const chromiumPath = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
