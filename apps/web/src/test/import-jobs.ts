import type { ImportJob, ImportMapping, ImportPreview, ImportReport } from '@dukkan/contract';
import { vi } from 'vitest';

/** The import routes' answers as the web's tests mock them, shared by the lists' tests. */

/** A dry run's report: 3 rows, one to add and two to change, no errors. */
export const importReport = (over: Partial<ImportReport> = {}): ImportReport => ({
  dryRun: true,
  committed: false,
  rows: 3,
  counts: { create: 1, update: 2, unchanged: 0 },
  errors: [],
  ...over,
});

/** A queued dry run of a 3-row CSV file of `resource`. */
export const importJob = (resource: string, over: Partial<ImportJob> = {}): ImportJob => ({
  id: 'j1',
  resource,
  dryRun: true,
  status: 'queued',
  fileName: `${resource}.csv`,
  format: 'csv',
  rowsTotal: 3,
  rowsDone: 0,
  report: null,
  error: null,
  createdAt: '2026-11-30T00:00:00.000Z',
  updatedAt: '2026-11-30T00:00:00.000Z',
  ...over,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export interface ImportCalls {
  /** Each upload: its query, file, column mapping (null when none was sent) and language. */
  imports: { query: URLSearchParams; file: unknown; mapping: ImportMapping | null; language: string }[];
  /** Each file sent for its preview, with the language asked. */
  previews: { file: unknown; language: string }[];
  cancels: string[];
  /** Polls of a job held unanswered (`holdPolls`), by job id: answering one lets it through. */
  heldPolls: { id: string; answer(): void }[];
}

/**
 * The server's import routes as a list page's Import dialog calls them (decision 0042): each
 * upload queues a job, `j1`, `j2`… in turn, which a poll finds done with the next of `answers`
 * (after `running` polls finding it running with a row done); the list's latest jobs are
 * `latest`, and a cancel ends the job cancelled. A file's preview answers `preview` when given;
 * an upload is refused with `refuse` (a 400's body) when given. With `holdPolls`, a poll of a
 * job waits until the test answers it (as on the embedded database while a run holds it). Any
 * other call goes to `fallback` (a `mockFetch`'s). The uploads, the previews asked and the
 * cancelled jobs' ids are kept.
 */
export function mockImportJobs(
  resourcePath: string,
  answers: ImportReport[],
  fallback: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
  {
    running = 0,
    latest = [] as ImportJob[],
    preview = undefined as ImportPreview | undefined,
    refuse = undefined as unknown,
    holdPolls = false,
  } = {},
): ImportCalls {
  const calls: ImportCalls = { imports: [], previews: [], cancels: [], heldPolls: [] };
  const polls = new Map<string, number>();
  const job = (over: Partial<ImportJob>) => importJob(resourcePath, over);
  const base = `/${resourcePath}`;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const [path = '', rawQuery = ''] = url.split('?');
    const language = new Headers(init?.headers).get('accept-language') ?? '';
    if (preview && path.endsWith(`${base}/import/preview`)) {
      calls.previews.push({ file: (init!.body as FormData).get('file'), language });
      return json({ data: preview });
    }
    if (path.endsWith(`${base}/import`)) {
      const query = new URLSearchParams(rawQuery);
      const form = init!.body as FormData;
      const mapping = form.get('mapping');
      calls.imports.push({
        query,
        file: form.get('file'),
        mapping: typeof mapping === 'string' ? (JSON.parse(mapping) as ImportMapping) : null,
        language,
      });
      if (refuse) return json(refuse, 400);
      const dryRun = query.get('dryRun') === 'true';
      return json({ data: job({ id: `j${calls.imports.length}`, dryRun }) }, 202);
    }
    if (path.endsWith(`${base}/import-jobs`)) return json({ data: latest });
    const cancel = new RegExp(`${base}/import-jobs/([^/]+)/cancel$`).exec(path);
    if (cancel) {
      calls.cancels.push(cancel[1]!);
      return json({ data: job({ id: cancel[1]!, status: 'cancelled', rowsDone: 1 }) });
    }
    const polled = new RegExp(`${base}/import-jobs/j(\\d+)$`).exec(path);
    if (polled) {
      const id = `j${polled[1]}`;
      if (holdPolls) await new Promise<void>((answer) => calls.heldPolls.push({ id, answer }));
      const count = (polls.get(id) ?? 0) + 1;
      polls.set(id, count);
      if (count <= running) return json({ data: job({ id, status: 'running', rowsDone: 1 }) });
      const report = answers[Number(polled[1]) - 1]!;
      return json({ data: job({ id, status: 'done', rowsDone: 3, report }) });
    }
    return fallback(input, init);
  });
  return calls;
}

/** An `EventSource` the test drives: its events are sent with `emit`, never over the network. */
export class FakeEventSource {
  readonly url: string;
  closed = false;
  private readonly listeners = new Map<string, Set<(event: MessageEvent<string>) => void>>();
  constructor(url: string | URL) {
    this.url = String(url);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  removeEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  close() {
    this.closed = true;
  }
  /** A server-sent event of `type` whose data is `data` as JSON (nothing once closed). */
  emit(type: string, data: unknown) {
    if (this.closed) return;
    for (const listener of this.listeners.get(type) ?? [])
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

/** Replaces the browser's `EventSource` (until `vi.unstubAllGlobals`); returns the sources opened. */
export function stubEventSource(): FakeEventSource[] {
  const opened: FakeEventSource[] = [];
  vi.stubGlobal(
    'EventSource',
    class extends FakeEventSource {
      constructor(url: string | URL) {
        super(url);
        opened.push(this);
      }
    },
  );
  return opened;
}
