import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Every request's id, in its log lines, its `X-Request-Id` answer header and any error answer's
 * `requestId`: a random UUID, unique across processes (Fastify's own is a counter per process),
 * or the `X-Request-Id` a trusted proxy set, so that the proxy's log and ours name the request
 * alike. A proxy is trusted as `TRUST_PROXY` says (config.ts): the header of any other client is
 * ignored, or a client could give its requests another's id.
 */

export const requestIdHeader = 'x-request-id';

/** What a proxy's id may look like: a UUID, hex, base64 or `Root=1-…;Parent=…` forms, at most 128 characters. */
const acceptedId = /^[A-Za-z0-9._:=;+/@-]{1,128}$/;

export function isAcceptableRequestId(value: string): boolean {
  return acceptedId.test(value);
}

/** proxy-addr's range names (accepted in TRUST_PROXY) as the ranges they stand for. */
const namedRanges: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An IPv4 address a dual-stack socket reports as IPv6 (`::ffff:10.0.0.5`), as IPv4. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped?.[1] ?? address;
}

/**
 * Whether the peer that connected is a proxy `TRUST_PROXY` trusts: `false` none, a hop count any
 * peer (the configuration already believes whoever connects), a list the addresses and ranges in it.
 */
export function trustedProxy(trustProxy: false | number | string[]): (peer: string | undefined) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return () => true;
  const list = new BlockList();
  for (const entry of trustProxy.flatMap((item) => namedRanges[item] ?? [item])) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (peer) => {
    if (!peer) return false;
    const address = plainAddress(peer);
    const family = isIP(address);
    if (family === 0) return false;
    return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** Fastify's `genReqId`: the trusted proxy's `X-Request-Id` when acceptable, else a random UUID. */
export function requestIdGenerator(trustProxy: false | number | string[]) {
  const trusted = trustedProxy(trustProxy);
  return (request: IncomingMessage): string => {
    const given = request.headers[requestIdHeader];
    if (typeof given === 'string' && isAcceptableRequestId(given) && trusted(request.socket?.remoteAddress)) {
      return given;
    }
    return randomUUID();
  };
}

/**
 * Every answer carries its request's id, also those written past Fastify's reply (the
 * authorization server's): set on the raw response before anything else runs.
 */
export function registerRequestIdHeader(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader(requestIdHeader, request.id);
  });
}
