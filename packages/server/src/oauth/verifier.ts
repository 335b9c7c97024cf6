import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { nowIso } from '../kernel/ids.ts';
import type { AccessTokenVerifier } from '../mcp/auth.ts';
import { mcpResourceUrl } from '../mcp/metadata.ts';
import { ACCESS_LEVELS } from './access.ts';
import type { AccountGateway } from './accounts.ts';
import { sameResource } from './resource.ts';
import { PREFIX } from './secrets.ts';
import { findToken } from './store.ts';

/**
 * Access tokens of this authorization server, for /mcp: live, unrevoked, issued for this
 * resource (audience), and only while the account still reaches the project. The scopes are
 * those stored with the token (never more than its grant's), cut to what the account's role
 * still allows.
 */
export function oauthTokenVerifier(db: Database, config: Config, accounts: AccountGateway): AccessTokenVerifier {
  return {
    async verify(token) {
      if (!token.startsWith(PREFIX.accessToken)) return undefined;
      const found = await findToken(db, token);
      if (found?.kind !== 'access' || found.revoked_at || found.grant.revoked_at || found.expires_at <= nowIso())
        return undefined;
      if (!sameResource(found.grant.resource, mcpResourceUrl(config))) return undefined;
      const project = (await accounts.accessibleProjects(found.grant.account_id)).find(
        (candidate) => candidate.id === found.grant.project_id,
      );
      if (!project) return undefined;
      const allowed = new Set<string>(project.canWrite ? ACCESS_LEVELS.write : ACCESS_LEVELS.read);
      return {
        kind: 'oauth',
        projectId: found.grant.project_id,
        environment: 'live',
        scopes: new Set(found.scopes.split(' ').filter((scope) => allowed.has(scope))),
        callerId: found.grant.id,
        accountId: found.grant.account_id,
      };
    },
  };
}
