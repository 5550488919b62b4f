/**
 * A setting the server cannot start with: its message is one line naming the variable, which
 * `main.ts` and the command line print alone. Apart from `config.ts` so that a platform driver
 * that checks its own setting at start (`openFileStore`) can throw it without importing the
 * configuration it is part of.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
