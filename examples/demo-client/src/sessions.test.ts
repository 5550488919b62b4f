import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, readCookie, SessionStore, sessionCookie } from './sessions.ts';

describe('SessionStore', () => {
  it('creates sessions with distinct, unguessable ids and finds them by id', () => {
    const sessions = new SessionStore();
    const first = sessions.create();
    const second = sessions.create();
    expect(first.id).toMatch(/^[\w-]{43}$/);
    expect(second.id).not.toBe(first.id);
    expect(sessions.get(first.id)).toBe(first);
    expect(sessions.get('unknown')).toBeUndefined();
    expect(sessions.get(undefined)).toBeUndefined();
  });

  it('forgets a destroyed session', () => {
    const sessions = new SessionStore();
    const session = sessions.create();
    sessions.destroy(session.id);
    expect(sessions.get(session.id)).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('forgets a session left idle too long, and keeps one in use', () => {
    let now = 0;
    const sessions = new SessionStore(1000, () => now);
    const idle = sessions.create();
    const used = sessions.create();
    now = 800;
    expect(sessions.get(used.id)).toBe(used);
    now = 1500;
    expect(sessions.get(idle.id)).toBeUndefined();
    expect(sessions.get(used.id)).toBe(used);
    now = 5000;
    sessions.create(); // Creating sweeps the idle ones.
    expect(sessions.size).toBe(1);
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, and Secure only over https', () => {
    expect(sessionCookie('abc', false)).toBe('demo_session=abc; Path=/; HttpOnly; SameSite=Lax');
    expect(sessionCookie('abc', true)).toBe('demo_session=abc; Path=/; HttpOnly; SameSite=Lax; Secure');
    expect(clearedSessionCookie(false)).toContain('demo_session=;');
    expect(clearedSessionCookie(false)).toContain('Max-Age=0');
  });

  it('is read from a Cookie header among others', () => {
    expect(readCookie('a=1; demo_session=xyz; b=2', 'demo_session')).toBe('xyz');
    expect(readCookie('demo_session_old=1', 'demo_session')).toBeUndefined();
    expect(readCookie(undefined, 'demo_session')).toBeUndefined();
  });
});
