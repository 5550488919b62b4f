import { eq, getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { auditEntry, redacted } from '../src/db/audit-log.ts';
import * as schema from '../src/db/schema/index.ts';
import {
  applications,
  auditLog,
  auditSecretColumns,
  invites,
  signInEvents,
  users,
} from '../src/db/schema/index.ts';
import { api, createUser, login, strongPassword } from './helpers/api.ts';
import { insertApplication, insertSubscription } from './helpers/applications.ts';
import { runCliOn } from './helpers/cli.ts';
import { type TestApp, useTestApp } from './helpers/test-app.ts';
import { addInvitedMember, addMember, createWorkspace } from './helpers/workspaces.ts';

/**
 * Secrets never reach the audit log: a column named like one must be declared one
 * (`auditSecretColumns`), and a declared secret's change is on record without its values.
 */

const secretLike = /password|secret|token|seed|hash/i;

/** Each column named like a secret that is not declared one, as `table.column`. */
function undeclaredSecrets(tables: readonly PgTable[]): string[] {
  return tables.flatMap((table) => {
    const name = getTableName(table);
    const declared = new Set(auditSecretColumns[name] ?? []);
    return getTableConfig(table)
      .columns.filter((column) => secretLike.test(column.name) && !declared.has(column.name))
      .map((column) => `${name}.${column.name}`);
  });
}

const schemaTables = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable =>
  is(value, PgTable),
);

describe('every column named like a secret is declared one', () => {
  it('holds over the schema', () => {
    expect(undeclaredSecrets(schemaTables)).toEqual([]);
  });

  it('fails a table with a second-factor seed and an API token left undeclared', () => {
    const twoFactor = pgTable('two_factor', {
      userId: uuid('user_id'),
      totpSeed: text('totp_seed'),
      apiToken: text('api_token'),
      label: text('label'),
    });
    expect(undeclaredSecrets([...schemaTables, twoFactor])).toEqual([
      'two_factor.totp_seed',
      'two_factor.api_token',
    ]);
  });

  it("every declared secret's change is redacted, whatever the table", () => {
    for (const table of schemaTables) {
      const secrets = new Set(auditSecretColumns[getTableName(table)] ?? []);
      for (const [property, column] of Object.entries(getTableColumns(table))) {
        if (!secrets.has(column.name)) continue;
        const entry = auditEntry(
          table,
          'w',
          'r',
          'id',
          { [property]: 'before-value' },
          { [property]: 'after-value' },
        );
        expect(entry.changes, `${getTableName(table)}.${column.name}`).toEqual({
          [property]: [redacted, redacted],
        });
      }
    }
  });
});

let t: TestApp;
useTestApp((app) => {
  t = app;
});

describe('a secret never reaches a row', () => {
  it("a password change, an invitation's new link and an OAuth client's new secret leave no hash behind", async () => {
    const shop = await createWorkspace(t.db, 'Secret Shop');
    const admin = await addMember(t.db, shop.id, { isAdmin: true });

    // A password changed by its owner.
    const user = await createUser(t.db);
    const cookie = await login(t.app, user);
    const changed = await api(t.app, {
      method: 'POST',
      url: '/api/auth/change-password',
      body: { currentPassword: strongPassword, newPassword: 'Another#Sesame2' },
      cookie,
    });
    expect(changed.status, changed.text).toBe(200);

    // An invitation's link sent again: a new token hash.
    const invited = await addInvitedMember(t.db, shop.id);
    const resent = await api(t.app, {
      method: 'POST',
      url: `/api/workspaces/users/resend-invite?workspaceId=${shop.id}`,
      body: { userId: invited.userId },
      cookie: admin.cookie,
    });
    expect(resent.status, resent.text).toBe(200);

    // A confidential client's secret rotated by the operator, in a workspace that subscribed to it.
    const application = await insertApplication(t.db, {
      clientType: 'confidential',
      secretHash: 'a'.repeat(64),
    });
    await insertSubscription(t.db, shop.id, application.id, 'approved');
    const rotated = await runCliOn(t, ['app', 'secret', application.clientId]);
    expect(rotated.code, rotated.stderr).toBe(0);

    const hashes = [
      ...(await t.db.select({ value: users.passwordHash }).from(users).where(eq(users.id, user.id))),
      ...(await t.db
        .select({ value: invites.tokenHash })
        .from(invites)
        .where(eq(invites.userId, invited.userId))),
      ...(await t.db
        .select({ value: applications.secretHash })
        .from(applications)
        .where(eq(applications.id, application.id))),
      { value: 'a'.repeat(64) },
    ].map((row) => row.value!);
    expect(hashes).toHaveLength(4);

    const logged = JSON.stringify([
      ...(await t.db.select().from(auditLog)),
      ...(await t.db.select().from(signInEvents)),
    ]);
    for (const hash of hashes) expect(logged).not.toContain(hash);
    expect(logged).not.toContain('$argon2');

    // The changes are on record all the same, their secrets redacted.
    const [secretRow] = await t.db.select().from(auditLog).where(eq(auditLog.resource, 'oauth-clients'));
    expect(secretRow).toMatchObject({
      workspaceId: shop.id,
      actorKind: 'operator',
      recordId: application.id,
      changes: { secretHash: [redacted, redacted] },
    });
    const [invitationRow] = await t.db
      .select()
      .from(auditLog)
      .where(
        sql`${auditLog.resource} = 'invitations' and ${auditLog.requestId} = ${resent.headers['x-request-id']}`,
      );
    expect(invitationRow!.changes.tokenHash).toEqual([redacted, redacted]);
    const [passwordEvent] = await t.db
      .select()
      .from(signInEvents)
      .where(sql`${signInEvents.userId} = ${user.id} and ${signInEvents.kind} = 'password-change'`);
    expect(passwordEvent).toMatchObject({ success: true, requestId: changed.headers['x-request-id'] });
  });
});
