// A project's CI tokens over HTTP: list (never the secret), create (the secret shown once, with
// its scope: default-branch or merge-request), revoke.
import type { Hono } from 'hono';
import * as v from 'valibot';
import { createToken, listTokens, revokeToken, TOKEN_SCOPES } from '../accounts/tokens.js';
import type { Database } from '../storage/database.js';
import { parseBody } from '../validation/parse-body.js';
import type { AppEnv } from './app-env.js';
import type { BodyCaps } from '../limits/body-caps.js';
import { authorizeAdmin } from './authorize.js';
import { optionalJsonBody, uuidParam } from './json-body.js';

const TokenCreate = v.object({
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters')), 'ci'),
  /** default-branch (protected-branch jobs: their runs are history) or merge-request. Default default-branch, what every token was before scopes. */
  scope: v.optional(v.picklist(TOKEN_SCOPES, `must be one of ${TOKEN_SCOPES.join(', ')}`), 'merge-request'),
});

/** Adds GET/POST …/tokens and DELETE …/tokens/:tokenId. */
export function tokenRoutes(api: Hono<AppEnv>, db: Database, caps: BodyCaps): void {
  api.get('/:project/tokens', async (c) => {
    authorizeAdmin(c.get('principal'), 'tokens.read');
    return c.json({ tokens: await listTokens(db, c.get('principal').project.projectId) });
  });
  api.post('/:project/tokens', async (c) => {
    authorizeAdmin(c.get('principal'), 'tokens.write');
    const body = parseBody(TokenCreate, await optionalJsonBody(c, caps.small));
    return c.json(await createToken(db, c.get('principal').project.projectId, body.name, body.scope, c.get('principal').actor), 201);
  });
  api.delete('/:project/tokens/:tokenId', async (c) => {
    authorizeAdmin(c.get('principal'), 'tokens.write');
    return c.json(await revokeToken(db, c.get('principal').project.projectId, uuidParam(c.req.param('tokenId'), 'tokenId'), c.get('principal').actor));
  });
}
