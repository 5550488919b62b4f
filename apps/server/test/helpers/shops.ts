import { afterAll, beforeAll } from 'vitest';
import { type ApiRequest, api } from './api.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { addMember, createWorkspace, type TestMember } from './workspaces.ts';

/** A test app with two workspaces and an admin of each: the shop under test, and another. */
export interface TwoShops {
  t: TestApp;
  shop: { id: string; name: string };
  /** Another workspace, to show that one workspace's records stay out of the other's reach. */
  other: { id: string; name: string };
  admin: TestMember;
  otherAdmin: TestMember;
}

/**
 * Before the file's tests, a test app with the workspaces `<name>` and `Other <name>` and an admin
 * of each, handed to `receive`; the app is closed after them.
 */
export function useTwoShops(name: string, receive: (shops: TwoShops) => void) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp();
    const shop = await createWorkspace(app.db, name);
    const other = await createWorkspace(app.db, `Other ${name}`);
    receive({
      t: app,
      shop,
      other,
      admin: await addMember(app.db, shop.id, { isAdmin: true }),
      otherAdmin: await addMember(app.db, other.id, { isAdmin: true }),
    });
  });
  afterAll(async () => {
    await app?.close();
  });
}

interface WorkspaceCall {
  method?: ApiRequest['method'];
  body?: unknown;
  /** The `Cookie` of this member; none: signed out. */
  member?: TestMember | null;
  /** The `Accept-Language` header, when one is sent. */
  language?: string;
}

/** A call to `/api/<path>` in a workspace: its `workspaceId` is added to the query. */
export function callInWorkspace(
  t: TestApp,
  workspace: { id: string },
  path: string,
  { method, body, member, language }: WorkspaceCall = {},
) {
  return api(t.app, {
    method,
    url: `/api/${path}${path.includes('?') ? '&' : '?'}workspaceId=${workspace.id}`,
    body,
    cookie: member?.cookie,
    headers: language ? { 'accept-language': language } : undefined,
  });
}
