import { PassThrough, type Readable } from 'node:stream';
import { type ImportJobEvent, importJobEventName } from '@dukkan/contract';

/*
 * An import job's progress pushed to the pages of its list (decision 0052). The worker that runs
 * a job publishes where it is — its start, its rows done at most four times a second, its end —
 * to this process's hub, which writes it to every event stream of the job's workspace and list.
 * A stream is opened by `GET {resource}/import-jobs/events`, authenticated and authorised when it
 * opens, before any job runs: it needs no database afterwards, so a page sees a run's progress
 * even while the run's transaction holds the embedded database's one connection. A job run by
 * another process is not seen here; the page's poll of the job shows it (PostgreSQL).
 */

/** An event as the worker publishes it: the job's workspace and list say which streams it goes to. */
export interface PublishedImportJobEvent extends ImportJobEvent {
  workspaceId: string;
  resource: string;
}

export interface ImportEventStreamOptions {
  /** How long a stream stays open at most; the browser opens it again (a new check of its access). */
  maxMs: number;
  /** How often a comment line is written when nothing else is, so proxies keep the connection. */
  heartbeatMs?: number;
}

export interface ImportJobEvents {
  /** Writes the event to every stream open on its workspace and list (none: nothing happens). */
  publish(event: PublishedImportJobEvent): void;
  /**
   * A stream of the events of one workspace's list, as the body of a `text/event-stream` answer.
   * It ends after `maxMs`, when `close()` is called, or when its reader goes (destroyed).
   */
  stream(workspaceId: string, resource: string, options: ImportEventStreamOptions): Readable;
  /** Streams open now. */
  readonly open: number;
  /**
   * Ends every open stream, and each one opened after it at once (its reader opens it again
   * after `retry`, on an instance that is up): the server's drain begins, or the app closes.
   */
  close(): void;
}

/** How long the browser waits before it opens a stream again once one ended (the `retry` field). */
export const importEventsRetryMs = 2000;
/** Under most proxies' idle timeouts (60 s for nginx's `proxy_read_timeout`). */
const defaultHeartbeatMs = 20_000;
/**
 * A reader that falls this far behind misses events rather than having them kept for it: each
 * event says the whole of where its job is, so the next one replaces what was missed.
 */
const maxBufferedBytes = 16 * 1024;

const streamKey = (workspaceId: string, resource: string) => `${workspaceId}\u0000${resource}`;

/** This process's hub of import job events; one per app (no module state, decision 0052). */
export function createImportJobEvents(): ImportJobEvents {
  const listeners = new Map<string, Set<(event: ImportJobEvent) => void>>();
  const enders = new Set<() => void>();
  let closed = false;

  function subscribe(key: string, listener: (event: ImportJobEvent) => void) {
    let set = listeners.get(key);
    if (!set) {
      set = new Set();
      listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
    };
  }

  return {
    publish({ workspaceId, resource, jobId, status, rowsDone, rowsTotal }) {
      const set = listeners.get(streamKey(workspaceId, resource));
      if (!set) return;
      // Only the contract's fields: nothing of the job's row beyond them reaches a page.
      const event: ImportJobEvent = { jobId, status, rowsDone, rowsTotal };
      for (const listener of [...set]) listener(event);
    },
    stream(workspaceId, resource, options) {
      const body = new PassThrough();
      const write = (text: string) => {
        if (body.destroyed || body.writableEnded || body.writableLength > maxBufferedBytes) return;
        body.write(text);
      };
      // The first bytes send the answer's headers at once: the browser's `open` comes now.
      write(`retry: ${importEventsRetryMs}\n\n`);
      const unsubscribe = subscribe(streamKey(workspaceId, resource), (event) =>
        write(`event: ${importJobEventName}\ndata: ${JSON.stringify(event)}\n\n`),
      );
      const heartbeat = setInterval(() => write(':\n\n'), options.heartbeatMs ?? defaultHeartbeatMs);
      const bound = setTimeout(() => end(), options.maxMs);
      heartbeat.unref();
      bound.unref();
      let ended = false;
      const cleanUp = () => {
        if (ended) return;
        ended = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(bound);
        enders.delete(end);
      };
      function end() {
        cleanUp();
        if (!body.destroyed && !body.writableEnded) body.end();
      }
      if (closed) end();
      else enders.add(end);
      // The reader went (Fastify destroys the body when the connection closes) or it ended.
      body.once('close', cleanUp);
      return body;
    },
    get open() {
      return enders.size;
    },
    close() {
      closed = true;
      for (const end of [...enders]) end();
    },
  };
}
