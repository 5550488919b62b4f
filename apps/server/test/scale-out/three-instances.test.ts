import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maxFilesPerUpload } from '@dukkan/contract';
import { inArray, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import {
  memberships,
  productTags,
  subscriptions,
  uploads,
  users,
  workspaces,
} from '../../src/db/schema/index.ts';
import { appFetchHeaders, createUser, multipart, strongPassword, tinyPng } from '../helpers/api.ts';
import { insertApplication, insertSubscription } from '../helpers/applications.ts';
import { startTestBucket, type TestBucket } from '../helpers/file-stores.ts';
import { freePort } from '../helpers/free-port.ts';
import { authorizationRequest, httpInjector, signInThroughPortal, TestBrowser } from '../helpers/oauth.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';
import { addMember, createWorkspace, unique } from '../helpers/workspaces.ts';
import { type Instance, instance, killAll, until } from './instances.ts';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.ts';

/**
 * Three server processes on one PostgreSQL database, one Redis and one SMTP sink, each with a
 * DATA_DIR of its own, behind a round-robin proxy with no affinity (`round-robin-proxy.ts`). What
 * one process does, the others see; background work runs in all three and happens once; a rolling
 * restart under load fails no request and loses no write. `.ci/run` runs it (`SCALE_OUT_TEST=1`
 * with DATABASE_URL and REDIS_URL); `npm test` skips it.
 */
const enabled = Boolean(process.env.SCALE_OUT_TEST && process.env.DATABASE_URL && process.env.REDIS_URL);
const readinessPath = '/readyz';

/** Figures printed at the end, one line each (CI's log keeps them). */
const figures: string[] = [];

describe.runIf(enabled)('three instances behind a proxy (three processes)', { timeout: 600_000 }, () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let proxy: RoundRobinProxy;
  let smtp: SMTPServer;
  let bucket: TestBucket;
  const mails: { to: string[]; subject: string }[] = [];
  const instances: Instance[] = [];
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dukkan-scale-out-'));
    database = await createTestDatabase({ migrated: false });
    bucket = await startTestBucket();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, done) {
        done();
      },
      onData(stream, session, done) {
        let text = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          text += chunk;
        });
        stream.on('end', () => {
          const subject = /^Subject: (.*)$/im.exec(text)?.[1]?.trim() ?? '';
          mails.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: decodeSubject(subject),
          });
          done();
        });
      },
    });
    const smtpPort = await freePort();
    await new Promise<void>((resolveListen) => smtp.listen(smtpPort, '127.0.0.1', resolveListen));

    const ports = await Promise.all([1, 2, 3].map(() => freePort()));
    proxy = await startRoundRobinProxy(
      ports.map((port) => ({ port })),
      { readinessPath },
    );
    const variables = {
      DATABASE_URL: database.url!,
      REDIS_URL: process.env.REDIS_URL!,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      PUBLIC_URL: proxy.url,
      TRUST_PROXY: 'loopback',
      AUTH_RATE_LIMIT: '100000',
      SUBSCRIPTION_CLOCK_SECONDS: '1',
      UPLOAD_CLEANUP_SECONDS: '1',
      ...bucket.env,
      LOG_LEVEL: 'info',
    };
    for (const [index, port] of ports.entries())
      instances.push(instance(index, port, join(root, `instance-${index}`), variables, readinessPath));
    await Promise.all(instances.map((one) => one.start()));
    handle = await openDatabase({ kind: 'postgres', url: database.url!, poolSize: 4 });
    // Every process in the proxy's rotation before the first request.
    await until(() => proxy.inRotation().every(Boolean), 'the proxy sees all three processes ready', 10_000);
  }, 300_000);

  afterAll(async () => {
    killAll(instances);
    await Promise.all(instances.map((one) => one.stop()));
    await proxy?.close();
    await new Promise<void>((resolveClose) => (smtp ? smtp.close(resolveClose) : resolveClose()));
    await handle?.close();
    await database?.close();
    await bucket?.close();
    if (root) rmSync(root, { recursive: true, force: true });
    figures.push(
      `proxy: ${proxy?.stats.retries} retries, ${proxy?.stats.failures} failures, served ${proxy?.stats.served.join(' / ')}`,
    );
    process.stdout.write(`\nThree instances:\n${figures.map((line) => `  ${line}`).join('\n')}\n`);
  }, 120_000);

  /** A request through the proxy as the app's own fetch, with a session cookie. */
  async function call(method: string, path: string, cookie: string, body?: unknown) {
    const response = await fetch(`${proxy.url}${path}`, {
      method,
      headers: {
        ...appFetchHeaders,
        origin: proxy.url,
        cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = (text.startsWith('{') ? JSON.parse(text) : {}) as Record<string, unknown>;
    return { status: response.status, text, json };
  }

  /** Logs in through the proxy; the session cookie. */
  async function logIn(email: string, password: string) {
    const response = await fetch(`${proxy.url}/api/auth/login`, {
      method: 'POST',
      headers: { ...appFetchHeaders, origin: proxy.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
    return { status: response.status, cookie };
  }

  it('signs in 100 times through the portal, every step on another process than the one before', async () => {
    const workspace = await createWorkspace(handle.db);
    const member = await addMember(handle.db, workspace.id, { isAdmin: true });
    const application = await insertApplication(handle.db);
    await insertSubscription(handle.db, workspace.id, application.id, 'freeTrial', {
      startDate: new Date(),
      endDate: new Date(Date.now() + 14 * 24 * 60 * 60 * 1000),
    });
    const config = await client.discovery(
      new URL(`${proxy.url}/oidc`),
      application.clientId,
      undefined,
      undefined,
      {
        execute: [client.allowInsecureRequests],
      },
    );
    let signedIn = 0;
    let sameProcessTwice = 0;
    for (let round = 0; round < 100; round++) {
      const from = proxy.servedBy.length;
      const login = await logIn(member.user.email, member.user.password);
      expect(login.status).toBe(200);
      const browser = new TestBrowser(httpInjector(proxy.url), proxy.url);
      browser.setCookie(login.cookie!);
      const request = await authorizationRequest({ config, redirectUri: application.redirectUris[0]! });
      const callback = await signInThroughPortal(browser, request.url, workspace.id);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
      const claims = tokens.claims()!;
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(userinfo.email).toBe(member.user.email);
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      await client.tokenRevocation(config, refreshed.refresh_token!);
      await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      const path = proxy.servedBy.slice(from);
      sameProcessTwice += path.filter((index, step) => step > 0 && path[step - 1] === index).length;
      signedIn += 1;
    }
    figures.push(
      `sign-ins: ${signedIn} of 100, ${sameProcessTwice} steps on the same process as the one before`,
    );
    expect([signedIn, sameProcessTwice]).toEqual([100, 0]);
  });

  it("holds one account's login limit exactly across the three processes", async () => {
    const { points } = loadConfig({ DATA_DIR: root }).rateLimits.perAccount;
    const user = await createUser(handle.db);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < points + 6; attempt++)
      statuses.push((await logIn(user.email, `${strongPassword}-wrong`)).status);
    const refused = statuses.filter((status) => status === 401).length;
    const limited = statuses.filter((status) => status === 429).length;
    figures.push(
      `login limit: ${refused} wrong passwords answered, then ${limited} refused (limit ${points}, not ${3 * points})`,
    );
    expect({ refused, limited }).toEqual({ refused: points, limited: 6 });
  });

  it('serves an upload from the other two processes; the clean-up in all three removes each file once', async () => {
    const workspace = await createWorkspace(handle.db);
    const member = await addMember(handle.db, workspace.id, { isAdmin: true });
    const count = maxFilesPerUpload;
    const { body, headers } = multipart(
      Array.from({ length: count }, (_, index) => ({
        field: 'files',
        filename: `${index}.png`,
        type: 'image/png',
        content: tinyPng,
      })),
    );
    const uploaded = await fetch(`${proxy.url}/api/files/bulk?workspaceId=${workspace.id}`, {
      method: 'POST',
      headers: { ...appFetchHeaders, origin: proxy.url, cookie: member.cookie, ...headers },
      body,
    });
    expect(uploaded.status).toBe(201);
    const uploadedBy = proxy.servedBy.at(-1);
    const { urls } = ((await uploaded.json()) as { data: { urls: string[] } }).data;
    const servedBy = new Set<number>();
    for (let read = 0; read < 3; read++) {
      const file = await fetch(`${proxy.url}${urls[0]}`);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(tinyPng)).toBe(true);
      servedBy.add(proxy.servedBy.at(-1)!);
    }
    expect(servedBy.size).toBe(3);

    // Nothing refers to them and they are past the grace period: the clean-ups (every second in
    // each process) remove them, one instance at a time.
    await handle.db
      .update(uploads)
      .set({ createdAt: new Date(Date.now() - 48 * 60 * 60 * 1000) })
      .where(inArray(uploads.path, urls));
    // Removed: every process answers 404, no row is left, and the runs that removed them have
    // logged their counts (after deleting the files).
    const removals = () =>
      instances.reduce(
        (sum, one) => sum + logCounts(one.dataDir, 'removed unreferenced uploads', 'removed').sum,
        0,
      );
    await until(
      async () => {
        const answers = await Promise.all(
          [0, 1, 2].map(() => fetch(`${proxy.url}${urls[0]}`).then((file) => file.status)),
        );
        const [left] = await handle.db
          .select({ count: sql<number>`count(*)::int` })
          .from(uploads)
          .where(inArray(uploads.path, urls));
        return answers.every((status) => status === 404) && left!.count === 0 && removals() >= count;
      },
      'the uploads removed everywhere',
      60_000,
      200,
    );
    const byProcess = instances.map((one) =>
      logCounts(one.dataDir, 'removed unreferenced uploads', 'removed'),
    );
    const failedRuns = instances.reduce(
      (sum, one) => sum + logCounts(one.dataDir, 'upload clean-up failed').lines,
      0,
    );
    const stillStored = (await bucket.keys()).filter((key) =>
      urls.some((url) => url.endsWith(key.split('/').slice(-2).join('/'))),
    );
    figures.push(
      `files: ${count} uploaded through process ${uploadedBy}, read from ${[...servedBy].sort().join(', ')}; removed ${byProcess.map((counts) => counts.sum).join(' / ')} by process (${stillStored.length} left in the bucket), ${failedRuns} failed runs`,
    );
    expect({
      removed: byProcess.reduce((sum, counts) => sum + counts.sum, 0),
      failedRuns,
      stillStored: stillStored.length,
    }).toEqual({
      removed: count,
      failedRuns: 0,
      stillStored: 0,
    });
  });

  it('runs the subscription clock in all three: 1,000 trials ended, each event applied and mailed once', async () => {
    // 1,000 free trials that ended an hour ago, each in a workspace of its own with one admin.
    const application = await insertApplication(handle.db);
    const count = 1000;
    const owners = await handle.db
      .insert(workspaces)
      .values(Array.from({ length: count }, () => ({ name: unique('Trial ') })))
      .returning({ id: workspaces.id });
    const admins = await handle.db
      .insert(users)
      .values(
        owners.map(() => ({
          email: `${unique('admin')}@example.com`,
          name: 'Admin',
          language: 'en' as const,
        })),
      )
      .returning({ id: users.id, email: users.email });
    await handle.db.insert(memberships).values(
      owners.map((owner, index) => ({
        workspaceId: owner.id,
        userId: admins[index]!.id,
        isAdmin: true,
        status: 'active' as const,
      })),
    );
    const ended = new Date(Date.now() - 60 * 60 * 1000);
    await handle.db.insert(subscriptions).values(
      owners.map((owner) => ({
        workspaceId: owner.id,
        applicationId: application.id,
        status: 'freeTrial' as const,
        startDate: new Date(ended.getTime() - 14 * 24 * 60 * 60 * 1000),
        endDate: ended,
      })),
    );
    const subject = `Your free trial of ${application.nameEn} has ended`;
    const adminEmails = new Set(admins.map((admin) => admin.email));
    const trialMails = () =>
      mails.filter((mail) => mail.subject === subject && mail.to.some((to) => adminEmails.has(to)));
    // Done: no trial left, and the clock runs have logged every event they applied, which they do
    // once the event's mails are sent, so a mail sent twice would be in by then.
    const appliedEvents = () =>
      instances.reduce((sum, one) => sum + logCounts(one.dataDir, 'subscription clock', 'applied').sum, 0);
    await until(
      async () => {
        const [left] = await handle.db
          .select({ count: sql<number>`count(*)::int` })
          .from(subscriptions)
          .where(
            sql`${subscriptions.applicationId} = ${application.id} and ${subscriptions.status} = 'freeTrial'`,
          );
        return left!.count === 0 && appliedEvents() >= count;
      },
      'every trial ended and its events logged',
      180_000,
      200,
    );
    const expired = await handle.db
      .select({ count: sql<number>`count(*)::int` })
      .from(subscriptions)
      .where(
        sql`${subscriptions.applicationId} = ${application.id} and ${subscriptions.status} = 'expiredFreeTrial'`,
      );
    const recipients = trialMails().flatMap((mail) => mail.to.filter((to) => adminEmails.has(to)));
    const byProcess = instances.map((one) => ({
      applied: logCounts(one.dataDir, 'subscription clock', 'applied').sum,
      failed:
        logCounts(one.dataDir, 'subscription clock run failed').lines +
        logCounts(one.dataDir, 'subscription clock event failed').lines,
    }));
    figures.push(
      `subscription clock: ${expired[0]!.count} of ${count} trials ended, ${recipients.length} mails to ${new Set(recipients).size} admins (events by process: ${byProcess.map((lines) => lines.applied).join(' / ')}; failed runs ${byProcess.reduce((sum, lines) => sum + lines.failed, 0)})`,
    );
    expect({
      expired: expired[0]!.count,
      mails: recipients.length,
      distinct: new Set(recipients).size,
    }).toEqual({
      expired: count,
      mails: count,
      distinct: count,
    });
    expect(byProcess.reduce((sum, lines) => sum + lines.failed, 0)).toBe(0);
    expect(byProcess.filter((lines) => lines.applied > 0).length).toBeGreaterThan(1);
  });

  it('restarts all three in turn under 50 connections of list and write traffic: no failed request, no lost write', async () => {
    const workspace = await createWorkspace(handle.db);
    const member = await addMember(handle.db, workspace.id, { isAdmin: true });
    const failuresBefore = proxy.stats.failures;
    const created: string[] = [];
    const failed: string[] = [];
    let requests = 0;
    let running = true;
    const worker = async (index: number) => {
      for (let round = 0; running; round++) {
        requests += 1;
        try {
          const answer =
            round % 2 === 0
              ? await call('POST', `/api/product-tags?workspaceId=${workspace.id}`, member.cookie, {
                  code: `T${index}-${round}`,
                  name: [{ locale: 'en', value: `Tag ${index}-${round}` }],
                })
              : await call('GET', `/api/product-tags?workspaceId=${workspace.id}&pageSize=20`, member.cookie);
          if (answer.status === 201) created.push((answer.json.data as { id: string }).id);
          else if (answer.status !== 200) failed.push(`${answer.status} ${answer.text}`);
        } catch (error) {
          failed.push(String(error));
        }
      }
    };
    const workers = Array.from({ length: 50 }, (_, index) => worker(index));
    await until(() => requests >= 500, 'the traffic under way');
    for (const one of instances) {
      await one.restart();
      // Back in rotation and taking its share before the next one stops.
      await until(() => proxy.inRotation()[one.index]!, `instance ${one.index} back in rotation`, 10_000);
      const servedBefore = proxy.stats.served[one.index]!;
      await until(
        () => proxy.stats.served[one.index]! >= servedBefore + 100,
        `instance ${one.index} serving again`,
      );
    }
    running = false;
    await Promise.all(workers);
    const stored = await handle.db
      .select({ id: productTags.id })
      .from(productTags)
      .where(
        inArray(productTags.id, created.length > 0 ? created : ['00000000-0000-4000-8000-000000000000']),
      );
    figures.push(
      `rolling restart: ${requests} requests, ${failed.length} failed, ${created.length} writes answered, ${created.length - stored.length} lost, ${proxy.stats.failures - failuresBefore} proxy failures`,
    );
    expect({ failed: failed.slice(0, 5), lost: created.length - stored.length }).toEqual({
      failed: [],
      lost: 0,
    });
    expect(created.length).toBeGreaterThan(100);
  });
});

/** A subject in RFC 2047 encoded words (nodemailer encodes non-ASCII ones) as its text. */
function decodeSubject(subject: string): string {
  return subject.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_match, encoding: string, text: string) =>
    encoding.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : text
          .replace(/_/g, ' ')
          .replace(/=([0-9a-f]{2})/gi, (_hex, code: string) =>
            String.fromCharCode(Number.parseInt(code, 16)),
          ),
  );
}

/** A process's log lines with the message `msg`: how many, and the sum of their `field`. */
function logCounts(dataDir: string, msg: string, field?: string): { lines: number; sum: number } {
  let lines = 0;
  let sum = 0;
  for (const line of readFileSync(`${dataDir}.log`, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry.msg !== msg) continue;
    lines += 1;
    if (field) sum += Number(entry[field] ?? 0);
  }
  return { lines, sum };
}
