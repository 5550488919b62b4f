import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isAcceptableRequestId, requestIdGenerator, trustedProxy } from './request-id.ts';

const requestFrom = (remoteAddress: string, id?: string) =>
  ({
    headers: id === undefined ? {} : { 'x-request-id': id },
    socket: { remoteAddress },
  }) as unknown as IncomingMessage;

describe('trustedProxy', () => {
  it('trusts no one with TRUST_PROXY=false, whoever connects with a hop count', () => {
    expect(trustedProxy(false)('127.0.0.1')).toBe(false);
    expect(trustedProxy(1)('203.0.113.9')).toBe(true);
  });

  it('trusts the listed addresses, ranges and range names only, IPv4 seen through IPv6 included', () => {
    const trusted = trustedProxy(['10.0.0.5', '172.16.0.0/12', 'loopback', 'fd00::/8']);
    expect(trusted('10.0.0.5')).toBe(true);
    expect(trusted('::ffff:10.0.0.5')).toBe(true);
    expect(trusted('10.0.0.6')).toBe(false);
    expect(trusted('172.31.255.1')).toBe(true);
    expect(trusted('172.32.0.1')).toBe(false);
    expect(trusted('127.0.0.1')).toBe(true);
    expect(trusted('::1')).toBe(true);
    expect(trusted('fd12::1')).toBe(true);
    expect(trusted('2001:db8::1')).toBe(false);
    expect(trusted(undefined)).toBe(false);
    expect(trusted('not an address')).toBe(false);
  });
});

describe('request ids', () => {
  it('accepts the shapes proxies give, up to 128 characters, nothing that could forge a log line', () => {
    for (const id of [
      '3f1c0e4a-8b0d-4c53-9a57-2b9b1f0f8f1e',
      'a'.repeat(128),
      'Root=1-5e1b4151-5ac6c58f;Parent=53995c3f',
    ])
      expect(isAcceptableRequestId(id), id).toBe(true);
    for (const id of ['', 'a'.repeat(129), 'a b', 'a\nb', 'a"b', 'é'])
      expect(isAcceptableRequestId(id), id).toBe(false);
  });

  it("takes a trusted proxy's id, and makes a new UUID for anyone else, every time another", () => {
    const generate = requestIdGenerator(['10.0.0.5']);
    expect(generate(requestFrom('10.0.0.5', 'edge-42'))).toBe('edge-42');
    const mine = generate(requestFrom('203.0.113.9', 'edge-42'));
    expect(mine).toMatch(/^[0-9a-f-]{36}$/);
    expect(generate(requestFrom('203.0.113.9'))).not.toBe(mine);
    expect(generate(requestFrom('10.0.0.5', 'bad id'))).toMatch(/^[0-9a-f-]{36}$/);
  });
});
