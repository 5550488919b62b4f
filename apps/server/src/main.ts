import { buildApp } from './app.ts';
import { bootstrapDemo } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';

/** Starts the server: configuration, database and migrations, first-start data, then listen. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  await database.migrate();
  const app = await buildApp({ config, db: database.db });
  app.addHook('onClose', () => database.close());

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

  await app.listen({ host: config.host, port: config.port });
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
