/**
 * `npm run bench`: the identity endpoints under load (auth.ts), `GET auth/user` for a user in 50
 * workspaces against one (auth-user-workspaces.ts), the sign-in portal's flows, browser leg and
 * token exchange (oauth-portal.ts), a catalogue list of 100,000 customers against a bare baseline
 * (catalogue-list.ts), saving a product of 2,048 variants against plain inserts (products-save.ts),
 * a products list of 100,000 products against a bare baseline (products-list.ts), the product page
 * of 2,048 variants in Chromium (products-page.ts), then the size and paint timings of /login
 * (bundle-size.ts); the two browser benchmarks need `npm run build -w @dukkan/web` first.
 * BENCH_ONLY=auth, workspaces, oauth, catalogue, products-save, products-list, products-page or
 * bundle runs one of them. Prints the Markdown tables at the end; exit code 1 if a load test saw
 * errors, the 50-workspace user is over 2× slower, a sign-in flow misses its targets or errs among
 * 50 concurrent flows, a list misses its targets against its baseline, a product save or the
 * product page misses its targets, the JavaScript budget is exceeded, or a benchmark could not run.
 */
import { authMarkdown, runAuthBench } from './auth.ts';
import { runWorkspacesBench, workspacesMarkdown } from './auth-user-workspaces.ts';
import { bundleMarkdown, runBundleSize, WebBuildMissingError } from './bundle-size.ts';
import { catalogueMarkdown, runCatalogueBench } from './catalogue-list.ts';
import { oauthPortalMarkdown, runOauthPortalBench } from './oauth-portal.ts';
import { productsListMarkdown, runProductsListBench } from './products-list.ts';
import { ProductPageMissingError, productsPageMarkdown, runProductsPageBench } from './products-page.ts';
import { productsSaveMarkdown, runProductsSaveBench } from './products-save.ts';
import { machineFacts } from './support/machine.ts';

async function main() {
  const only = process.env.BENCH_ONLY;
  const machine = machineFacts();
  const sections: string[] = [];
  const problems: string[] = [];

  if (!only || only === 'auth') {
    try {
      const { report, ok } = await runAuthBench();
      sections.push(authMarkdown(report));
      if (!ok) problems.push('the auth load test saw errors or non-2xx answers');
    } catch (error) {
      problems.push(`auth benchmark failed: ${(error as Error).message}`);
    }
  }

  if (!only || only === 'workspaces') {
    try {
      const { report, ok } = await runWorkspacesBench();
      sections.push(workspacesMarkdown(report));
      if (!ok)
        problems.push('GET /api/auth/user for 50 workspaces saw errors or was over 2× slower than for one');
    } catch (error) {
      problems.push(`auth/user workspaces benchmark failed: ${(error as Error).message}`);
    }
  }

  if (!only || only === 'oauth') {
    try {
      const { report, ok } = await runOauthPortalBench();
      sections.push(oauthPortalMarkdown(report));
      if (!ok)
        problems.push(
          'the sign-in portal missed a target (p95 at concurrency 1: browser leg ≤ 60 ms and token exchange ≤ 30 ms on PGlite, ≤ 40 and ≤ 20 ms on PostgreSQL; no errors at 50 concurrent flows)',
        );
    } catch (error) {
      problems.push(`oauth portal benchmark failed: ${(error as Error).message}`);
    }
  }

  if (!only || only === 'catalogue') {
    try {
      const { report, ok } = await runCatalogueBench();
      sections.push(catalogueMarkdown(report));
      if (!ok)
        problems.push(
          'GET /api/customers saw errors, answered unlike the baseline, or missed its targets on PostgreSQL (medians of the rounds: ≥ 0.93 of the baseline req/s, p99 ≤ 1.2×, server CPU per request ≤ 1.5× the baseline CPU)',
        );
    } catch (error) {
      problems.push(`catalogue benchmark failed: ${(error as Error).message}`);
    }
  }

  if (!only || only === 'products-save') {
    try {
      const { report, ok } = await runProductsSaveBench();
      sections.push(productsSaveMarkdown(report));
      if (!ok)
        problems.push(
          'saving a product of 2,048 variants missed its targets (p95: save < 600 ms on PGlite, < 400 ms on PostgreSQL; bulk edit < 500 ms)',
        );
    } catch (error) {
      problems.push(`products save benchmark failed: ${(error as Error).message}`);
    }
  }

  if (!only || only === 'products-list') {
    try {
      const { report, ok } = await runProductsListBench();
      sections.push(productsListMarkdown(report));
      if (!ok)
        problems.push(
          'GET /api/products saw errors, answered unlike the baseline, or missed its targets on PostgreSQL (medians of the rounds: ≥ 0.9 of the baseline req/s, p99 ≤ 1.5×)',
        );
    } catch (error) {
      problems.push(`products list benchmark failed: ${(error as Error).message}`);
    }
  }

  if (!only || only === 'products-page') {
    try {
      const { report, ok } = await runProductsPageBench();
      sections.push(productsPageMarkdown(report));
      if (!ok)
        problems.push(
          'the product page of 2,048 variants missed a target (ready ≤ 1.5 s, < 200 rows, longest scroll task < 100 ms, heap < 300 MB)',
        );
    } catch (error) {
      if (error instanceof ProductPageMissingError)
        problems.push(`products page benchmark skipped: ${error.message}`);
      else problems.push(`products page benchmark failed: ${(error as Error).message}`);
    }
  }

  if (!only || only === 'bundle') {
    try {
      const { report, ok } = await runBundleSize();
      sections.push(bundleMarkdown(report));
      if (!ok) problems.push('the initial JavaScript of /login is over its budget');
    } catch (error) {
      if (error instanceof WebBuildMissingError) problems.push(`bundle benchmark skipped: ${error.message}`);
      else problems.push(`bundle benchmark failed: ${(error as Error).message}`);
    }
  }

  process.stdout.write(
    `\n## Benchmarks (${machine.cpus} cores, ${machine.memoryGiB} GiB, ${machine.cpuModel}, Node ${machine.node}, ${machine.date.slice(0, 10)})\n\n${sections.join('\n\n')}\n`,
  );
  if (problems.length) {
    process.stdout.write(`\nProblems:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n`);
    process.exit(1);
  }
  process.exit(0);
}

void main();
