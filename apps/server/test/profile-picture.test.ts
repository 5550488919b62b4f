import { type CurrentUser, validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads, users } from '../src/db/schema/index.ts';
import { api, dataOf, errorOf, expectValidation, multipart, tinyPng } from './helpers/api.ts';
import { portalFixture, signIn } from './helpers/oauth.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from './helpers/workspaces.ts';

/**
 * A person's profile picture (`PUT` / `DELETE /api/auth/profile/picture`): set from /profile by any
 * member of the workspace named, with no permission, under the image upload rules; it is the
 * current user's `profilePicture` and the OIDC `picture` claim, as an absolute address.
 */
let t: TestApp;
let shop: { id: string };
let member: TestMember;

beforeAll(async () => {
  t = await createTestApp({ env: { UPLOAD_MAX_BYTES: '4096' } });
  shop = await createWorkspace(t.db, 'Picture Shop');
  // A member whose role grants nothing: the profile needs no permission.
  member = await addMember(t.db, shop.id, { tags: [] });
});
afterAll(async () => {
  await t?.close();
});

const png = { field: 'file', filename: 'me.png', type: 'image/png', content: tinyPng };
const setPicture = (parts: (typeof png)[], options: { cookie?: string; workspaceId?: string } = {}) =>
  api(t.app, {
    method: 'PUT',
    url: `/api/auth/profile/picture?workspaceId=${options.workspaceId ?? shop.id}`,
    ...multipart(parts),
    cookie: 'cookie' in options ? options.cookie : member.cookie,
  });
const clearPicture = (cookie: string | null = member.cookie) =>
  api(t.app, { method: 'DELETE', url: '/api/auth/profile/picture', cookie: cookie ?? undefined });
const storedPicture = async (userId = member.user.id) =>
  (await t.db.select({ picture: users.profilePicture }).from(users).where(eq(users.id, userId)))[0]?.picture;

describe('PUT /api/auth/profile/picture', () => {
  it('stores the image as an upload of the workspace and answers the current user with it', async () => {
    const response = await setPicture([png]);
    expect(response.status, response.text).toBe(200);
    const user = dataOf<CurrentUser>(response);
    expect(user.id).toBe(member.user.id);
    expect(user.profilePicture).toMatch(new RegExp(`^/files/${shop.id}/[0-9a-f-]{36}\\.png$`));
    expect(await storedPicture()).toBe(user.profilePicture);
    // Counted against the workspace's quota like any upload, and served back.
    const rows = await t.db.select().from(uploads).where(eq(uploads.path, user.profilePicture!));
    expect(rows).toHaveLength(1);
    const served = await t.app.inject({ url: user.profilePicture! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');

    const current = dataOf<CurrentUser>(await api(t.app, { url: '/api/auth/user', cookie: member.cookie }));
    expect(current.profilePicture).toBe(user.profilePicture);
  });

  it('a new picture replaces the old one', async () => {
    const first = dataOf<CurrentUser>(await setPicture([png])).profilePicture;
    const second = dataOf<CurrentUser>(await setPicture([png])).profilePicture;
    expect(second).not.toBe(first);
    expect(await storedPicture()).toBe(second);
  });

  it('refuses a file that is not an image, one too large, two files and none, keeping the picture', async () => {
    const kept = dataOf<CurrentUser>(await setPicture([png])).profilePicture;
    const script = { ...png, content: Buffer.from('<svg><script>alert(1)</script></svg>') };
    expectValidation(await setPicture([script]), 'file.0', validationCodes.FILE_TYPE_NOT_ALLOWED);
    const big = { ...png, content: Buffer.concat([tinyPng, Buffer.alloc(4096)]) };
    expectValidation(await setPicture([big]), 'file.0', validationCodes.FILE_TOO_LARGE);
    expectValidation(await setPicture([png, png]), 'file', validationCodes.TOO_MANY_FILES);
    expectValidation(await setPicture([]), 'file', validationCodes.FILE_IS_REQUIRED);
    expect(await storedPicture()).toBe(kept);
  });

  it('refuses a visitor (401) and a workspace the person is not a member of (403)', async () => {
    const before = await storedPicture();
    const visitor = await setPicture([png], { cookie: undefined });
    expect(visitor.status).toBe(401);
    expect(errorOf(visitor).code).toBe('UNAUTHORIZED');

    const other = await createWorkspace(t.db, 'Not Theirs');
    const foreign = await setPicture([png], { workspaceId: other.id });
    expect(foreign.status).toBe(403);
    expect(errorOf(foreign).code).toBe('FORBIDDEN');
    expect(await t.db.select().from(uploads).where(eq(uploads.workspaceId, other.id))).toHaveLength(0);
    expect(await storedPicture()).toBe(before);
  });
});

describe('DELETE /api/auth/profile/picture', () => {
  it('removes the picture: the current user has none', async () => {
    expect(dataOf<CurrentUser>(await setPicture([png])).profilePicture).not.toBeNull();
    const response = await clearPicture();
    expect(response.status, response.text).toBe(200);
    expect(dataOf<CurrentUser>(response).profilePicture).toBeNull();
    expect(await storedPicture()).toBeNull();
  });

  it('refuses a visitor (401)', async () => {
    const response = await clearPicture(null);
    expect(response.status).toBe(401);
    expect(errorOf(response).code).toBe('UNAUTHORIZED');
  });
});

describe('the OIDC picture claim', () => {
  it('is the absolute address of the picture, and absent once it is removed', async () => {
    const fixture = await portalFixture(t);
    const set = await api(t.app, {
      method: 'PUT',
      url: `/api/auth/profile/picture?workspaceId=${fixture.workspace.id}`,
      ...multipart([png]),
      cookie: fixture.member.cookie,
    });
    const path = dataOf<CurrentUser>(set).profilePicture!;
    const tokens = await signIn(fixture);
    const userinfo = await client.fetchUserInfo(fixture.config, tokens.access_token, fixture.member.user.id);
    expect(userinfo.picture).toBe(`${t.config.publicUrl}${path}`);

    await clearPicture(fixture.member.cookie);
    const after = await client.fetchUserInfo(fixture.config, tokens.access_token, fixture.member.user.id);
    expect(after.picture).toBeUndefined();
  });
});
