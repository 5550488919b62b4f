import { clientIdPattern } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { applications } from '../../db/schema/index.ts';

/**
 * An application as the authorization server's client: its exact redirect URIs, the authorization
 * code grant with refresh tokens, PKCE for everyone (configured on the provider), and either no
 * secret (a public client) or its secret's SHA-256 in place of the secret (compared by
 * `provider.ts`, which hashes what the client presents).
 */
export async function findClientMetadata(
  db: Database,
  clientId: string,
): Promise<AdapterPayload | undefined> {
  if (!clientIdPattern.test(clientId)) return undefined;
  const [row] = await db
    .select({
      clientId: applications.clientId,
      nameEn: applications.nameEn,
      homeUrl: applications.homeUrl,
      redirectUris: applications.redirectUris,
      clientType: applications.clientType,
      secretHash: applications.secretHash,
    })
    .from(applications)
    .where(eq(applications.clientId, clientId))
    .limit(1);
  if (!row) return undefined;
  return {
    client_id: row.clientId,
    client_name: row.nameEn,
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: [row.homeUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(row.clientType === 'public' || !row.secretHash
      ? { token_endpoint_auth_method: 'none' }
      : { token_endpoint_auth_method: 'client_secret_basic', client_secret: row.secretHash }),
  };
}
