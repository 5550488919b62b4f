import { randomBytes } from 'node:crypto';
import { allPermissionTags, roleInputSchema } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { applications, appMeta, memberships, users, workspaces } from './db/schema/index.ts';
import { createApplication } from './features/applications/applications.ts';
import { demoApplicationInput } from './features/applications/demo-application.ts';
import type { PlatformFiles } from './features/applications/platform-files.ts';
import { hashPassword } from './features/auth/passwords.ts';
import { seedDemoCatalogue } from './features/catalogue/demo-catalogue.ts';
import { addStarterUnits } from './features/workspaces/starter-set.ts';
import { systemCaller } from './resource-engine/storage.ts';
import { createAppResources } from './resources.ts';

interface BootstrapResult {
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
 * On first start: the demo workspace, its admin, a role with every tag, the starter set and a
 * small catalogue. Guarded by an `app_meta` row inserted in the same transaction, so a restart (or
 * two at once) never repeats it.
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
      // Stated, not left to the column's default: the demo's rates are against it.
      .values({ name: 'Demo Store', baseCurrency: 'EGP' })
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
    // The starter set every new workspace has, then the demo's catalogue on top of it.
    const units = await addStarterUnits(tx as unknown as Database, engine, workspace.id);
    await seedDemoCatalogue(tx as unknown as Database, engine, workspace.id, units);
    return { created: true, email, generatedPassword: admin ? undefined : password };
  });
}

/**
 * The demo application (`dukkan-demo`), registered once: guarded by its own `app_meta` row, taken
 * in the same transaction, so a data folder made before applications existed gets it on its next
 * start, two instances starting at once register it once, and an operator who removes or changes
 * it is not overridden. A `dukkan-demo` the operator registered first is left as it is.
 */
export async function bootstrapDemoApplication(
  db: Database,
  files: PlatformFiles,
): Promise<{ created: boolean }> {
  return db.transaction(async (tx) => {
    const marker = await tx
      .insert(appMeta)
      .values({ key: 'demo_application', value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning({ key: appMeta.key });
    if (marker.length === 0) return { created: false };
    const input = demoApplicationInput();
    const [existing] = await tx
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.clientId, input.clientId))
      .limit(1);
    if (existing) return { created: false };
    await createApplication(tx, input, files);
    return { created: true };
  });
}
