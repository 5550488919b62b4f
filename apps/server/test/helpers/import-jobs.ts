import type { ImportJob } from '@dukkan/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** An HTTP answer as the tests read it: its status, its body's text and its headers. */
export interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, string | number | string[] | undefined>;
}

/** A job of `POST {resource}/import`, read from its 202 answer. */
export function queuedJob(answer: Answer): ImportJob {
  expect(answer.statusCode, answer.body).toBe(202);
  return (JSON.parse(answer.body) as { data: ImportJob }).data;
}

/** `GET {resource}/import-jobs/{id}` of the import at `importUrl` (its path and workspace). */
export async function readJob(
  app: FastifyInstance,
  importUrl: string,
  id: string,
  cookie: string,
): Promise<ImportJob> {
  const [path, query = ''] = importUrl.split('?');
  const workspaceId = new URLSearchParams(query).get('workspaceId');
  const answer = await app.inject({
    method: 'GET',
    url: `${path}-jobs/${id}?workspaceId=${workspaceId}`,
    headers: { cookie },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return (JSON.parse(answer.body) as { data: ImportJob }).data;
}

/**
 * The answer an import's request gave before its job (decision 0042), from the job once this
 * process's worker is idle: 200 with the report of a job done, a failed job's error with its
 * status (and the request's id, as every error answer has); a refusal of the request itself
 * (the file's limits, a permission) as it came.
 */
export async function settledImport(
  app: FastifyInstance,
  importUrl: string,
  cookie: string,
  answer: Answer,
): Promise<Answer> {
  if (answer.statusCode !== 202) return answer;
  const job = queuedJob(answer);
  await app.importWorker.idle();
  const ended = await readJob(app, importUrl, job.id, cookie);
  if (ended.status === 'done')
    return { statusCode: 200, body: JSON.stringify({ data: ended.report }), headers: answer.headers };
  if (ended.status === 'failed' && ended.error)
    return {
      statusCode: ended.error.statusCode,
      body: JSON.stringify({ error: { ...ended.error, requestId: answer.headers['x-request-id'] } }),
      headers: answer.headers,
    };
  throw new Error(`The import's job ended ${ended.status}: ${JSON.stringify(ended)}`);
}

/** A CSV file as a spreadsheet saves it: UTF-8 with a byte-order mark, CRLF, cells quoted where needed, null as empty. */
export const csvFile = (rows: (string | null)[][]) =>
  Buffer.from(
    `\uFEFF${rows
      .map((row) =>
        row
          .map((cell) =>
            cell === null ? '' : /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell,
          )
          .join(','),
      )
      .join('\r\n')}\r\n`,
    'utf8',
  );
