import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../src/config.ts';
import { mainEntry, serverDir, serverProcessEnv } from './helpers/server-process.ts';

/** The ConfigError a bad environment raises, checked to be one line naming the variable. */
function configErrorFor(environment: Record<string, string>, variable: string): string {
  let caught: unknown;
  try {
    loadConfig(environment);
  } catch (error) {
    caught = error;
  }
  expect(caught, `${JSON.stringify(environment)} should be refused`).toBeInstanceOf(ConfigError);
  const message = (caught as ConfigError).message;
  expect(message).not.toContain('\n');
  expect(message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
  return message;
}

describe('loadConfig defaults (README configuration table)', () => {
  it('an empty environment gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'production',
      host: '0.0.0.0',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: resolve('./data'),
      database: { kind: 'pglite', dataDir: resolve('./data') },
      logLevel: 'info',
      trustProxy: false,
      sessionTtlDays: 30,
      operatorEmail: 'operator@dukkan.localhost',
      mailFrom: 'Dukkan <no-reply@dukkan.localhost>',
      outboxDir: resolve('./data', 'outbox'),
      captcha: { difficulty: 50_000 },
      rateLimits: {
        perAddress: { points: 30, durationSeconds: 900 },
        perAccount: { points: 10, durationSeconds: 900 },
        accountSlowdown: { freeFailures: 5, firstDelayMs: 250, maxDelayMs: 2000, durationSeconds: 900 },
        changePassword: { points: 5, durationSeconds: 900 },
      },
    });
    expect(config.bootstrapAdmin).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.captcha.recaptcha).toBeUndefined();
    expect(config.webDistDir).toBeUndefined();
    expect(config.fileStore).toEqual({ kind: 'local', dir: resolve('./data', 'uploads') });
    expect(config.metrics).toEqual({ port: undefined, token: undefined });
    expect(config.uploads.cleanupIntervalMs).toBe(3_600_000);
    expect(loadConfig({ UPLOAD_CLEANUP_SECONDS: '5' }).uploads.cleanupIntervalMs).toBe(5000);
  });

  it('METRICS_PORT and METRICS_TOKEN: a port apart from PORT, a token of 32 characters or more, never printed', () => {
    const token = 'm'.repeat(32);
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: token }).metrics).toEqual({ port: 9464, token });
    expect(configErrorFor({ METRICS_PORT: '0' }, 'METRICS_PORT')).toContain('1 to 65535');
    expect(configErrorFor({ PORT: '9464', METRICS_PORT: '9464' }, 'METRICS_PORT')).toContain(
      'must differ from PORT',
    );
    const short = configErrorFor({ METRICS_TOKEN: 'too-short-token' }, 'METRICS_TOKEN');
    expect(short).toContain('at least 32');
    expect(short).not.toContain('too-short-token');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: '8080',
      PUBLIC_URL: 'https://shop.example.com/',
      DATA_DIR: '/tmp/dukkan-data',
      DATABASE_URL: 'postgresql://app:pw@db:5432/dukkan',
      DATABASE_POOL_SIZE: '4',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '1',
      SESSION_TTL_DAYS: '7',
      BOOTSTRAP_ADMIN_EMAIL: 'Admin@Shop.Example',
      BOOTSTRAP_ADMIN_PASSWORD: 'Admin#Pass1',
      OPERATOR_EMAIL: 'ops@shop.example',
      MAIL_FROM: 'Shop <shop@shop.example>',
      SMTP_URL: 'smtps://user:pass@mail.shop.example:465',
      CAPTCHA_DIFFICULTY: '1000',
      RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_SECRET_KEY: 'secret',
      REDIS_URL: 'redis://cache:6379',
      AUTH_RATE_LIMIT: '5',
      WEB_DIST_DIR: '/srv/web',
      S3_BUCKET: 'shop-files',
      S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com',
      S3_REGION: 'auto',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'key-id',
      AWS_SECRET_ACCESS_KEY: 'key-secret',
      AWS_SESSION_TOKEN: 'session',
    });
    expect(config.fileStore).toEqual({
      kind: 's3',
      bucket: 'shop-files',
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      region: 'auto',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'key-secret', sessionToken: 'session' },
    });
    expect(config).toMatchObject({
      env: 'development',
      host: '127.0.0.1',
      port: 8080,
      publicUrl: 'https://shop.example.com',
      dataDir: '/tmp/dukkan-data',
      database: { kind: 'postgres', url: 'postgresql://app:pw@db:5432/dukkan', poolSize: 4 },
      logLevel: 'debug',
      trustProxy: 1,
      sessionTtlDays: 7,
      bootstrapAdmin: { email: 'admin@shop.example', password: 'Admin#Pass1' },
      operatorEmail: 'ops@shop.example',
      mailFrom: 'Shop <shop@shop.example>',
      smtpUrl: 'smtps://user:pass@mail.shop.example:465',
      outboxDir: '/tmp/dukkan-data/outbox',
      captcha: { difficulty: 1000, recaptcha: { siteKey: 'site', secretKey: 'secret' } },
      redisUrl: 'redis://cache:6379',
      rateLimits: { perAddress: { points: 5, durationSeconds: 900 } },
      webDistDir: '/srv/web',
    });
  });

  it('TRUST_PROXY: false, a number of proxies, or their addresses and ranges', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 172.16.0.0/12,::1, fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '172.16.0.0/12',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('TRUST_PROXY=true is refused: it would let a client choose its own address', () => {
    const message = configErrorFor({ TRUST_PROXY: 'true' }, 'TRUST_PROXY');
    expect(message).toContain('1 for one reverse proxy');
    expect(message).toContain('X-Forwarded-For');
  });

  it('TRUST_PROXY=0.0.0.0/0 (or ::/0) is refused as true is: a /0 range is every address', () => {
    for (const value of ['0.0.0.0/0', '::/0', '10.0.0.5, 0.0.0.0/00']) {
      const message = configErrorFor({ TRUST_PROXY: value }, 'TRUST_PROXY');
      expect(message).toContain('(every address) would trust any X-Forwarded-For');
      expect(message).toContain('1 for one reverse proxy');
    }
  });

  it('every TRUST_PROXY value it accepts, Fastify accepts too (one Fastify refuses crashed the start)', () => {
    const entries = [
      ...['0.0.0.0/0', '::/0', '10.0.0.0/000', '10.0.0.1/1', '10.0.0.1/32', '10.0.0.1/33', '10.0.0.0/08'],
      ...['::1/128', '::1/129', '::ffff:10.0.0.0/104', '::ffff:10.0.0.1', 'fe80::1%eth0', '::', '0.0.0.0'],
      ...['255.255.255.255/1', '1.2.3.4/255.0.0.0', 'loopback', 'linklocal', 'uniquelocal', 'localhost'],
    ];
    for (const value of [...entries, entries.join(',')]) {
      let trustProxy: Config['trustProxy'];
      try {
        trustProxy = loadConfig({ TRUST_PROXY: value }).trustProxy;
      } catch (error) {
        expect(error, value).toBeInstanceOf(ConfigError);
        continue;
      }
      // A list goes to Fastify as it is (app.ts); proxy-addr compiles it when the app is made.
      expect(trustProxy, value).toBeInstanceOf(Array);
      expect(() => Fastify({ trustProxy: trustProxy as string[] }), value).not.toThrow();
    }
  });

  it('PUBLIC_URL defaults to the configured port', () => {
    expect(loadConfig({ PORT: '4100' }).publicUrl).toBe('http://localhost:4100');
  });

  it('an empty variable counts as unset (an env file with `PORT=`)', () => {
    const config = loadConfig({
      PORT: '',
      SMTP_URL: '',
      DATABASE_URL: ' ',
      PUBLIC_URL: '',
      RECAPTCHA_SITE_KEY: '',
    });
    expect(config.port).toBe(3000);
    expect(config.smtpUrl).toBeUndefined();
    expect(config.database.kind).toBe('pglite');
    expect(config.publicUrl).toBe('http://localhost:3000');
  });
});

describe('loadConfig refuses wrong values with one line naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '3.5'],
  ])('%s=%s', (variable, value) => {
    const message = configErrorFor({ [variable]: value }, variable);
    expect(message).toContain(`(got "${value}")`);
  });

  it.each([
    ['DATABASE_URL', 'mysql://db/dukkan'],
    ['DATABASE_URL', 'localhost:5432'],
    ['SMTP_URL', 'http://mail.example'],
    ['SMTP_URL', 'mail.example:25'],
    ['REDIS_URL', 'memcached://cache'],
    ['PUBLIC_URL', 'ftp://shop.example'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_POOL_SIZE', '0'],
    ['SESSION_TTL_DAYS', 'forever'],
    ['LOG_LEVEL', 'loud'],
    ['NODE_ENV', 'staging'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '0.0.0.0/0'],
    ['TRUST_PROXY', '10.0.0.1, proxy.internal'],
    ['TRUST_PROXY', '-1'],
    ['OPERATOR_EMAIL', 'operator'],
    ['CAPTCHA_DIFFICULTY', '999'],
    ['CAPTCHA_DIFFICULTY', '10000001'],
    ['AUTH_RATE_LIMIT', '0'],
    ['S3_BUCKET', 'Shop_Files'],
    ['S3_BUCKET', 'ab'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
  ])('%s=%s', (variable, value) => {
    configErrorFor({ [variable]: value }, variable);
  });

  it('the scheme each URL needs is named', () => {
    expect(configErrorFor({ DATABASE_URL: 'mysql://db' }, 'DATABASE_URL')).toContain('postgres://');
    expect(configErrorFor({ SMTP_URL: 'http://mail' }, 'SMTP_URL')).toContain('smtp://');
    expect(configErrorFor({ PORT: 'abc' }, 'PORT')).toContain('0 to 65535');
  });

  it('S3: a bucket with the AWS region and credential chain by default; an endpoint needs a bucket', () => {
    expect(loadConfig({ S3_BUCKET: 'shop-files' }).fileStore).toEqual({
      kind: 's3',
      bucket: 'shop-files',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
    });
    configErrorFor({ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_ENDPOINT');
    configErrorFor({ S3_BUCKET: 'shop-files', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT');
    configErrorFor({ S3_BUCKET: 'shop-files', AWS_ACCESS_KEY_ID: 'id' }, 'AWS_SECRET_ACCESS_KEY');
    // Without a bucket the AWS variables are someone else's: they are not judged.
    expect(loadConfig({ AWS_ACCESS_KEY_ID: 'id' }).fileStore.kind).toBe('local');
  });

  it('pairs must be set together', () => {
    configErrorFor({ RECAPTCHA_SITE_KEY: 'site' }, 'RECAPTCHA_SECRET_KEY');
    configErrorFor({ RECAPTCHA_SECRET_KEY: 'secret' }, 'RECAPTCHA_SECRET_KEY');
    configErrorFor({ BOOTSTRAP_ADMIN_EMAIL: 'admin@shop.example' }, 'BOOTSTRAP_ADMIN_PASSWORD');
    configErrorFor(
      { BOOTSTRAP_ADMIN_EMAIL: 'not-an-email', BOOTSTRAP_ADMIN_PASSWORD: 'Admin#Pass1' },
      'BOOTSTRAP_ADMIN_EMAIL',
    );
  });

  it('never prints a secret: passwords hidden, URL credentials masked', () => {
    const password = configErrorFor(
      { BOOTSTRAP_ADMIN_EMAIL: 'admin@shop.example', BOOTSTRAP_ADMIN_PASSWORD: 'short' },
      'BOOTSTRAP_ADMIN_PASSWORD',
    );
    expect(password).not.toContain('short');
    const database = configErrorFor({ DATABASE_URL: 'mysql://app:hunter2@db/dukkan' }, 'DATABASE_URL');
    expect(database).not.toContain('hunter2');
    expect(database).toContain('mysql://app:***@db/dukkan');
    const smtp = configErrorFor({ SMTP_URL: 'smtpx://mailer:s3cret@mail:25' }, 'SMTP_URL');
    expect(smtp).not.toContain('s3cret');
    const s3Secret = configErrorFor(
      { S3_BUCKET: 'shop-files', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI' },
      'AWS_SECRET_ACCESS_KEY',
    );
    expect(s3Secret).not.toContain('wJalrXUtnFEMI');
  });
});

describe('the server process', () => {
  it('refuses TRUST_PROXY=0.0.0.0/0 with the one-line configuration error (exit code 1), before it creates anything', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'dukkan-config-'));
    const dataDir = join(folder, 'data');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', mainEntry], {
        cwd: serverDir,
        env: serverProcessEnv({ DATA_DIR: dataDir, TRUST_PROXY: '0.0.0.0/0' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(/^Invalid configuration: TRUST_PROXY must be [^\n]+ \(got "0\.0\.0\.0\/0"\)\n$/);
      expect(existsSync(dataDir), 'no data folder was made').toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
