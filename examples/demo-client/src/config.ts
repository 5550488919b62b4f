/** What the demo client needs to know to sign its users in through Dukkan. */
export interface DemoClientOptions {
  /** Where Dukkan runs, e.g. `http://localhost:3000`. Its OpenID Connect issuer is `${dukkanUrl}/oidc`. */
  dukkanUrl: string;
  /** The client_id Dukkan registered this application under. */
  clientId: string;
  /**
   * Where Dukkan sends the user back to after signing in; it must be registered at Dukkan exactly.
   * Left out, it is `http://localhost:<the port the server listens on>/callback`.
   */
  redirectUri?: string;
}

export interface DemoClientConfig extends Required<DemoClientOptions> {
  port: number;
}

/** Reads `PORT`, `DUKKAN_URL`, `CLIENT_ID` and `REDIRECT_URI`, with the defaults the README lists. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): DemoClientConfig {
  const port = Number(env.PORT || 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT is not a port: ${env.PORT}`);
  return {
    port,
    dukkanUrl: env.DUKKAN_URL || 'http://localhost:3000',
    clientId: env.CLIENT_ID || 'dukkan-demo',
    redirectUri: env.REDIRECT_URI || `http://localhost:${port}/callback`,
  };
}

/** Dukkan's issuer identifier: discovery is at `<issuer>/.well-known/openid-configuration`. */
export function issuerUrl(dukkanUrl: string): URL {
  return new URL(`${dukkanUrl.replace(/\/+$/, '')}/oidc`);
}

/** Plain http is acceptable only while Dukkan runs on this machine. */
export function isLocalHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** The application's home page, where Dukkan sends the user back after signing out. */
export function homeUrl(redirectUri: string): string {
  return new URL('/', redirectUri).href;
}
