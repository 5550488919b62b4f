import { randomBytes } from 'node:crypto';
import { allPermissionTags, roleInputSchema } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { appMeta, memberships, users, workspaces } from './db/schema/index.ts';
import { hashPassword } from './features/auth/passwords.ts';
import { seedDemoCatalogue } from './features/catalogue/demo-catalogue.ts';
import { systemCaller } from './resource-engine/storage.ts';
import { createAppResources } from './resources.ts';

export interface BootstrapResult {
  created: boolean;
  email?: string;
  /** Only when the password was generated: shown once, never stored in clear. */
  generatedPassword?: string;
}

/** A password that satisfies the strength rule of §5: lower, upper, digit and a special. */
function generatePassword(): string {
  return `${randomBytes(12).toString('base64url')}aZ9!`;
}

/**
 * On first start: the demo workspace, its admin, a role with every tag and a small catalogue. Guarded by an
 * `app_meta` row inserted in the same transaction, so a restart (or two at once) never repeats it.
 */
export async function bootstrapDemo(
  db: Database,
  admin?: { email: string; password: string },
): Promise<BootstrapResult> {
  const email = admin?.email ?? 'admin@dukkan.localhost';
  const password = admin?.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const marker = await tx
      .insert(appMeta)
      .values({ key: 'bootstrap', value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning({ key: appMeta.key });
    if (marker.length === 0) return { created: false };

    const [workspace] = await tx
      .insert(workspaces)
      .values({ name: 'Demo Store' })
      .returning({ id: workspaces.id });
    // The admin may already exist, e.g. invited by the operator's command line before the first
    // start: they become the demo admin, and get the bootstrap password only if they have none.
    await tx.insert(users).values({ email, name: 'Demo Admin', passwordHash }).onConflictDoNothing();
    const [user] = await tx
      .select({ id: users.id, passwordHash: users.passwordHash, name: users.name })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    if (!workspace || !user) throw new Error(`Bootstrap failed: the admin ${email} could not be stored`);
    if (!user.passwordHash) {
      await tx
        .update(users)
        .set({ passwordHash, name: user.name || 'Demo Admin' })
        .where(eq(users.id, user.id));
    }
    // The admin passes every check without a role; the full role is there to give to staff.
    await tx.insert(memberships).values({ workspaceId: workspace.id, userId: user.id, isAdmin: true });
    const engine = createAppResources();
    await engine
      .data('authorityRoles')
      .create(tx as unknown as Database, systemCaller(workspace.id), [
        roleInputSchema.parse({ code: 'manager', title: 'Manager', permissions: [...allPermissionTags] }),
      ]);
    await seedDemoCatalogue(tx as unknown as Database, engine, workspace.id);
    return { created: true, email, generatedPassword: admin ? undefined : password };
  });
}
