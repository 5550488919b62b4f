import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/*
 * A local stand-in of the part of Stripe's HTTP API that Dukkan's Stripe Checkout driver calls,
 * for the server's tests and the browser tests (decision 0044). The SDK is pointed at it with its
 * `host`, `port` and `protocol` options (STRIPE_API_URL). It creates Checkout Sessions (checking
 * the secret key), hosts a "checkout page" whose Pay button sends the signed
 * `checkout.session.completed` event to Dukkan's webhook (signed with the SDK's own
 * `webhooks.generateTestHeaderString`) and then goes back to the session's success URL, and lets a
 * test send any event itself, signed rightly or not.
 */

export const standInSecretKey = 'sk_test_standin0000000000000000';
export const standInWebhookSecret = 'whsec_standin0000000000000000000';

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string;
  /** The line's product name, as the page shows it. */
  description: string;
}

export interface StandInWebhookAnswer {
  status: number;
  body: string;
}

export interface StripeStandIn {
  /** The stand-in's base address (http://127.0.0.1:port): STRIPE_API_URL. */
  url: string;
  sessions: Map<string, StandInSession>;
  /** The API calls received (method, path, whether the key was right). */
  requests: { method: string; path: string; authorized: boolean }[];
  /** Sends an event to the webhook, signed with `secret` (the right one by default). */
  sendEvent(
    type: string,
    session: StandInSession,
    options?: { id?: string; secret?: string; object?: Partial<StandInSession> },
  ): Promise<StandInWebhookAnswer & { eventId: string }>;
  /** Sends a raw payload with a given signature header (a replay, a forged body). */
  sendRaw(payload: string, signature: string | null): Promise<StandInWebhookAnswer>;
  /** A payload and its signature header as Stripe would send it. */
  signed(
    type: string,
    session: StandInSession,
    options?: { id?: string; secret?: string; object?: Partial<StandInSession> },
  ): {
    eventId: string;
    payload: string;
    signature: string;
  };
  close(): Promise<void>;
}

const sdk = new Stripe(standInSecretKey);

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function checkoutPage(session: StandInSession): string {
  const amount = `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout (test stand-in)</title></head>
<body><main>
<h1>Checkout</h1>
<p>${escapeHtml(session.description)}</p>
<p>Total: <strong>${escapeHtml(amount)}</strong></p>
<form method="post" action="/pay/${session.id}"><button type="submit">Pay ${escapeHtml(amount)}</button></form>
<p><a href="${escapeHtml(session.cancel_url)}">Back without paying</a></p>
</main></body></html>`;
}

/**
 * Starts the stand-in on a free port of 127.0.0.1. `webhookUrl` is Dukkan's webhook
 * (`…/api/payments/webhooks/stripe`); it may be given later (`setWebhookUrl`) when the app's port
 * is known after the stand-in's.
 */
export async function startStripeStandIn(
  options: { webhookUrl?: string; secretKey?: string; webhookSecret?: string } = {},
): Promise<StripeStandIn & { setWebhookUrl(url: string): void }> {
  const secretKey = options.secretKey ?? standInSecretKey;
  const webhookSecret = options.webhookSecret ?? standInWebhookSecret;
  let webhookUrl = options.webhookUrl ?? '';
  const sessions = new Map<string, StandInSession>();
  const requests: StripeStandIn['requests'] = [];
  let base = '';

  const signed: StripeStandIn['signed'] = (type, session, eventOptions = {}) => {
    const eventId = eventOptions.id ?? `evt_${randomBytes(12).toString('hex')}`;
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: { ...session, ...eventOptions.object } },
    });
    const signature = sdk.webhooks.generateTestHeaderString({
      payload,
      secret: eventOptions.secret ?? webhookSecret,
    });
    return { eventId, payload, signature };
  };

  const sendRaw = async (payload: string, signature: string | null): Promise<StandInWebhookAnswer> => {
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature === null ? {} : { 'stripe-signature': signature }),
      },
      body: payload,
    });
    return { status: response.status, body: await response.text() };
  };

  const sendEvent: StripeStandIn['sendEvent'] = async (type, session, eventOptions) => {
    const { eventId, payload, signature } = signed(type, session, eventOptions);
    return { ...(await sendRaw(payload, signature)), eventId };
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', base);
      if (url.pathname.startsWith('/v1/')) {
        const authorized = request.headers.authorization === `Bearer ${secretKey}`;
        requests.push({ method: request.method ?? '', path: url.pathname, authorized });
        if (!authorized)
          return sendJson(response, 401, {
            error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
          });
        if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
          const form = new URLSearchParams(await readBody(request));
          const amount = Number(form.get('line_items[0][price_data][unit_amount]'));
          const currency = form.get('line_items[0][price_data][currency]') ?? '';
          if (!Number.isInteger(amount) || amount < 1 || !/^[a-z]{3}$/.test(currency))
            return sendJson(response, 400, {
              error: { type: 'invalid_request_error', message: 'Invalid amount or currency' },
            });
          const metadata: Record<string, string> = {};
          for (const [key, value] of form) {
            const match = /^metadata\[(\w+)\]$/.exec(key);
            if (match) metadata[match[1]!] = value;
          }
          const id = `cs_test_${randomBytes(12).toString('hex')}`;
          const session: StandInSession = {
            id,
            object: 'checkout.session',
            mode: 'payment',
            status: 'open',
            payment_status: 'unpaid',
            amount_total: amount,
            currency,
            client_reference_id: form.get('client_reference_id'),
            metadata,
            success_url: form.get('success_url') ?? '',
            cancel_url: form.get('cancel_url') ?? '',
            url: `${base}/pay/${id}`,
            description: form.get('line_items[0][price_data][product_data][name]') ?? '',
          };
          sessions.set(id, session);
          return sendJson(response, 200, session);
        }
        return sendJson(response, 404, {
          error: { type: 'invalid_request_error', message: 'Unrecognized request URL' },
        });
      }
      const page = /^\/pay\/(cs_test_\w+)$/.exec(url.pathname);
      const session = page ? sessions.get(page[1]!) : undefined;
      if (!session) {
        response.writeHead(404, { 'content-type': 'text/plain' });
        return response.end('No such checkout');
      }
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end(checkoutPage(session));
      }
      if (request.method === 'POST') {
        session.status = 'complete';
        session.payment_status = 'paid';
        const answer = await sendEvent('checkout.session.completed', session);
        if (answer.status >= 300) {
          response.writeHead(502, { 'content-type': 'text/plain' });
          return response.end(`The webhook answered ${answer.status}: ${answer.body}`);
        }
        response.writeHead(303, { location: session.success_url });
        return response.end();
      }
      response.writeHead(405);
      response.end();
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    sessions,
    requests,
    sendEvent,
    sendRaw,
    signed,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
