import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { privateFolderMode } from '../platform/storage/private-files.ts';

/**
 * The running server's door for the operator's command line: a unix socket in the data folder,
 * `<DATA_DIR>/operator.sock`. The command line sends its arguments there and the server runs the
 * command itself, with its own database handle, mail driver and configuration (PGlite serves one
 * process, and the links follow the server's PUBLIC_URL). A unix socket is no network address,
 * and the file's mode 0600 lets only the server's own OS account connect.
 *
 * The wire: the client writes one JSON line, `{"argv":["approve","…"]}`; the server answers with
 * JSON lines as the command writes, `{"stdout":"…"}` or `{"stderr":"…"}`, then `{"exit":0}`, and
 * closes. Commands run one at a time, in the order they arrived.
 *
 * This module knows no command: the server passes in what runs one (main.ts: the CLI's runCli).
 */

const operatorSocketFile = 'operator.sock';

export function operatorSocketPath(dataDir: string): string {
  return join(dataDir, operatorSocketFile);
}

/** The longest path a unix socket can be bound or reached at (sun_path, less its final NUL). */
export const maxSocketPathBytes = process.platform === 'linux' ? 107 : 103;

/** Why no socket can be at that path, or undefined when it can. */
function socketPathProblem(path: string): string | undefined {
  const bytes = Buffer.byteLength(path);
  if (bytes <= maxSocketPathBytes) return undefined;
  return `the operator socket path ${path} is ${bytes} bytes, over the ${maxSocketPathBytes} a unix socket path may have (choose a shorter DATA_DIR)`;
}

/** Where a command writes. */
export interface OperatorOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs one command line and returns its exit code. */
type OperatorRunner = (argv: string[], output: OperatorOutput) => Promise<number>;

interface OperatorLog {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface OperatorSocket {
  readonly path: string;
  /** Refuses new connections, waits for the commands received, then removes the socket file. */
  close(): Promise<void>;
}

/** A request line longer than this is refused (an argv is a few hundred bytes). */
const maxRequestBytes = 64 * 1024;

/** What a server on the path answers to a connection: `served`, or why nothing answered. */
function probe(path: string): Promise<'served' | 'refused'> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve('served');
    });
    socket.once('error', () => resolve('refused'));
  });
}

/**
 * Clears the way for a new socket: a socket file nobody listens on (left by a killed server) is
 * removed. Returns why not, when a live server answers there or something else is in the way.
 */
async function clearStaleSocket(path: string): Promise<string | undefined> {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!stats.isSocket()) return `${path} exists and is not a socket; it was left alone`;
  if ((await probe(path)) === 'served') return `another process already answers on ${path}`;
  rmSync(path, { force: true });
  return undefined;
}

/** Binds with a umask that leaves the socket file rw for its owner only, from its first moment. */
function listenPrivately(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    let previous: number | undefined;
    try {
      // Not allowed in worker threads; the chmod below then closes the gap.
      previous = process.umask(0o177);
    } catch {}
    try {
      // The bind happens within listen(), before it returns.
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      if (previous !== undefined) process.umask(previous);
    }
  });
}

/**
 * Listens on `path` and runs each command received with `run`. Returns undefined (after a
 * warning) when it cannot: a path too long for a unix socket, or another live server on it.
 */
export async function startOperatorSocket(options: {
  path: string;
  run: OperatorRunner;
  log: OperatorLog;
}): Promise<OperatorSocket | undefined> {
  const { path, run, log } = options;
  const tooLong = socketPathProblem(path);
  if (tooLong) {
    log.warn({ path }, `no operator socket: ${tooLong}; operator commands cannot run beside this server`);
    return undefined;
  }
  mkdirSync(dirname(path), { recursive: true, mode: privateFolderMode });
  const inTheWay = await clearStaleSocket(path);
  if (inTheWay) {
    log.warn({ path }, `no operator socket: ${inTheWay}`);
    return undefined;
  }

  // Connections that have not sent their command yet (closing the socket drops them).
  const waiting = new Set<Socket>();
  // Commands run one after another: each waits for the one before it.
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  const drained: Array<() => void> = [];

  const server = createServer((connection) => {
    waiting.add(connection);
    connection.on('close', () => waiting.delete(connection));
    connection.on('error', () => {});
    let received = '';
    let taken = false;
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => {
      if (taken) return;
      received += chunk;
      const end = received.indexOf('\n');
      if (end === -1) {
        if (received.length > maxRequestBytes) answerRefusal(connection, 'request too long');
        return;
      }
      taken = true;
      waiting.delete(connection);
      const argv = parseRequest(received.slice(0, end));
      if (!argv) {
        answerRefusal(connection, 'expected one JSON line {"argv": [strings]}');
        return;
      }
      log.debug({ command: argv[0], before: pending }, 'operator command received');
      pending += 1;
      queue = queue
        .then(() => runOne(connection, argv))
        .finally(() => {
          pending -= 1;
          if (pending === 0) for (const resolve of drained.splice(0)) resolve();
        });
    });
  });

  const send = (connection: Socket, message: object) => {
    if (!connection.destroyed) connection.write(`${JSON.stringify(message)}\n`);
  };

  function answerRefusal(connection: Socket, reason: string) {
    send(connection, { stderr: `The server refused the operator request: ${reason}\n` });
    send(connection, { exit: 2 });
    connection.end();
  }

  async function runOne(connection: Socket, argv: string[]) {
    log.info({ command: argv[0] }, 'operator command');
    let code: number;
    try {
      code = await run(argv, {
        stdout: (text) => send(connection, { stdout: text }),
        stderr: (text) => send(connection, { stderr: text }),
      });
    } catch (error) {
      log.error({ err: error, command: argv[0] }, 'operator command failed');
      send(connection, { stderr: `Failed: ${error instanceof Error ? error.message : String(error)}\n` });
      code = 1;
    }
    if (connection.destroyed)
      log.warn({ command: argv[0], code }, 'operator command ended after its client left');
    send(connection, { exit: code });
    connection.end();
  }

  await listenPrivately(server, path);
  chmodSync(path, 0o600);
  log.info({ path }, 'operator commands are served on the socket');

  let closing: Promise<void> | undefined;
  return {
    path,
    close() {
      closing ??= (async () => {
        // No new connection; those that never sent a command are dropped, and the commands
        // received run to their end (the database they use closes after this).
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const connection of waiting) connection.destroy();
        if (pending > 0) await new Promise<void>((resolve) => drained.push(resolve));
        // Each answered connection was ended; closed once its client has read the answer.
        await closed;
        rmSync(path, { force: true });
      })();
      return closing;
    },
  };
}

function parseRequest(line: string): string[] | undefined {
  try {
    const request = JSON.parse(line) as { argv?: unknown };
    const argv = request?.argv;
    if (Array.isArray(argv) && argv.every((entry) => typeof entry === 'string')) return argv;
  } catch {}
  return undefined;
}

/** What the command line got from the socket: the command's exit code, or why no server answered. */
type OperatorAnswer = { served: true; code: number } | { served: false; reason: string };

/**
 * Sends a command line to the server on `path`, passing what it writes to `output` as it comes.
 * `served: false` when no server answered (no socket, a stale one, a path too long, or a socket
 * of another account): the caller then runs the command itself.
 */
export function askOperatorSocket(path: string, argv: readonly string[], output: OperatorOutput) {
  const tooLong = socketPathProblem(path);
  if (tooLong) return Promise.resolve<OperatorAnswer>({ served: false, reason: tooLong });
  return new Promise<OperatorAnswer>((resolve) => {
    const socket = createConnection(path);
    let connected = false;
    let code: number | undefined;
    let buffered = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ argv })}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end = buffered.indexOf('\n');
      while (end !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        end = buffered.indexOf('\n');
        let message: { stdout?: unknown; stderr?: unknown; exit?: unknown };
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (typeof message.stdout === 'string') output.stdout(message.stdout);
        if (typeof message.stderr === 'string') output.stderr(message.stderr);
        if (typeof message.exit === 'number') code = message.exit;
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected) resolve({ served: false, reason: describeConnectError(path, error) });
    });
    socket.on('close', () => {
      if (!connected) return;
      if (code === undefined) {
        output.stderr(
          `The server closed the operator socket ${path} before the command ended; whether it ran is unknown (see the server's log).\n`,
        );
      }
      resolve({ served: true, code: code ?? 1 });
    });
  });
}

function describeConnectError(path: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return `there is no operator socket ${path} (no server runs on this DATA_DIR, or it has not finished starting)`;
    case 'ECONNREFUSED':
      return `nothing listens on the operator socket ${path} (a server that stopped without removing it)`;
    case 'EACCES':
    case 'EPERM':
      return `the operator socket ${path} belongs to another OS account: run the command as the account that runs the server`;
    default:
      return `the operator socket ${path} could not be reached (${error.code ?? error.message})`;
  }
}
