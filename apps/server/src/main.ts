import { buildApp } from './app.ts';
import { bootstrapDemo, bootstrapDemoApplication } from './bootstrap.ts';
import { runCli } from './cli.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, pgliteDataPath } from './db/client.ts';
import { DataDirLockedError, dataDirLockPath } from './db/lock.ts';
import { startMetricsServer } from './http/metrics.ts';
import { type OperatorSocket, operatorSocketPath, startOperatorSocket } from './http/operator-socket.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { tightenDataDir, usePrivateUmask } from './platform/storage/private-files.ts';
import { checkStoredCodesOnce, describeCodeCollisions } from './resource-engine/code-collisions.ts';
import { createAppResources } from './resources.ts';

/** Starts the server: configuration, database and migrations, first-start data, then listen. */
async function main() {
  // Before anything is created: DATA_DIR is for the server's OS account only (private-files.ts).
  usePrivateUmask();
  const config = loadConfig();
  // What an older version, another umask or a copy left open, shut before the database opens;
  // on the embedded database once its lock is held, so a second server changes nothing here.
  let tightened = { changed: 0, failed: 0 };
  const tightenOwnEntries = () => {
    tightened = tightenDataDir(config.dataDir, [
      pgliteDataPath(config.dataDir),
      config.uploads.dir,
      config.outboxDir,
      dataDirLockPath(config.dataDir),
      operatorSocketPath(config.dataDir),
    ]);
  };
  const embedded = config.database.kind === 'pglite' && config.database.dataDir !== undefined;
  if (!embedded) tightenOwnEntries();
  const database = await openDatabase(
    config.database.kind === 'pglite'
      ? { ...config.database, whileLocked: tightenOwnEntries }
      : config.database,
  );
  await database.migrate();
  const app = await buildApp({ config, db: database.db, poolStats: database.poolStats });
  app.addHook('onClose', () => database.close());
  if (tightened.changed > 0) {
    app.log.warn(
      { dataDir: config.dataDir, entries: tightened.changed },
      `DATA_DIR was open to other local accounts: removed group and other permissions from ${tightened.changed} entries`,
    );
  }
  if (tightened.failed > 0) {
    app.log.warn(
      { dataDir: config.dataDir, entries: tightened.failed },
      `${tightened.failed} entries in DATA_DIR could not be made private to the server's account (owned by another account?)`,
    );
  }

  // Once per database: the codes stored before codes were normalized that collide under the rule
  // (migration 0013 left them as they were). They stay listed by `check-codes` until renamed.
  const collisions = await checkStoredCodesOnce(database.db, createAppResources(), new Date());
  if (collisions && collisions.length > 0) {
    app.log.warn(
      { groups: collisions.length, collisions: describeCodeCollisions(collisions) },
      `${collisions.length} groups of stored codes are one code under the rule but stored apart: rename all but one of each (npm run dukkan -- check-codes lists them)`,
    );
  }

  const bootstrap = await bootstrapDemo(database.db, config.bootstrapAdmin);
  if (bootstrap.created) {
    app.log.info({ email: bootstrap.email }, 'created the demo workspace and its admin');
    if (bootstrap.generatedPassword) {
      // Printed once, to the terminal only: it is not logged and never stored in clear.
      process.stdout.write(
        `\n  Demo admin created. Sign in at ${config.publicUrl}/login with\n    email:    ${bootstrap.email}\n    password: ${bootstrap.generatedPassword}\n  (shown once; set BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD to choose them)\n\n`,
      );
    }
  }

  // The demo application (a public client of the demo client at localhost:3001): once, also on
  // a data folder made before applications existed.
  const demoApplication = await bootstrapDemoApplication(database.db, app.fileStore);
  if (demoApplication.created) app.log.info('registered the demo application');

  // SIGTERM (a rolling restart) or Ctrl-C: stop without dropping what was accepted (see
  // app.shutdown); a second signal skips what is left of SHUTDOWN_DELAY_SECONDS.
  const stop = (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    app.shutdown().then(
      ({ cut }) => process.exit(cut === 0 ? 0 : 1),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  // The operator's commands (cli.ts) run in this process, sent over a unix socket in DATA_DIR:
  // with this database handle (PGlite serves one process), this configuration (links follow
  // PUBLIC_URL) and a mail driver of the server's, logging as it does.
  let operatorSocket: OperatorSocket | undefined;
  const operatorMailer = createMailer({
    from: config.mailFrom,
    smtpUrl: config.smtpUrl,
    outboxDir: config.outboxDir,
    log: app.log,
  });
  // Before the onClose hooks close the database: the commands received finish first.
  app.addHook('preClose', async () => {
    await operatorSocket?.close();
    operatorMailer.close();
  });

  // Prometheus metrics on a port of their own (METRICS_PORT): closed with the app, after the drain.
  if (app.metrics && config.metrics.port !== undefined) {
    const metricsServer = await startMetricsServer(app.metrics, config.host, config.metrics.port);
    app.addHook('onClose', () => {
      metricsServer.close();
    });
    app.log.info({ port: config.metrics.port }, 'metrics listening');
  }
  await app.listen({ host: config.host, port: config.port });
  operatorSocket = await startOperatorSocket({
    path: operatorSocketPath(config.dataDir),
    log: app.log,
    run: (argv, output) =>
      runCli(argv, {
        env: process.env,
        config,
        database,
        mailer: operatorMailer,
        now: () => new Date(),
        stdout: output.stdout,
        stderr: output.stderr,
      }),
  });
  app.log.info({ url: config.publicUrl, database: database.kind }, 'Dukkan is ready');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Dukkan could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
