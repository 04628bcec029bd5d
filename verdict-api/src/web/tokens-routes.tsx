// A project's CI tokens: the list (never a secret), issuing one (its secret shown on that answer
// only), revoking one, and the audit of both. An admin's pages only.
import type { Context } from 'hono';
import { accessAudit } from '../accounts/access-audit.js';
import type { Principal } from '../accounts/principal.js';
import { createToken, listTokens, revokeToken } from '../accounts/tokens.js';
import { VerdictApiError } from '../errors/errors.js';
import { isUuid } from '../identity/uuid.js';
import { formOf, text } from './forms.js';
import { frame, html, notFound, projectOf, projectPath } from './respond.js';
import type { SignedInPages } from './signed-in.js';
import { TokensPage } from './tokens-page.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Adds GET/POST /projects/:project/tokens and POST …/tokens/:tokenId/revoke. */
export function tokensRoutes(pages: SignedInPages, { db }: DashboardDeps): void {
  const tokensView = async (c: Context<WebEnv>, p: Principal, extra: Pick<Parameters<typeof TokensPage>[0], 'created' | 'error'> = {}, status: 200 | 400 = 200) => {
    const [tokens, audit] = await Promise.all([listTokens(db, p.project.projectId), accessAudit(db, p.project.projectId, 'token')]);
    return html(c, <TokensPage frame={frame(c, 'Tokens', p.project.handle)} tokens={tokens} audit={audit} {...extra} />, status);
  };

  pages.get('/projects/:project/tokens', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    return tokensView(c, p);
  });

  pages.post('/projects/:project/tokens', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    const f = await formOf(c);
    const name = text(f, 'name').slice(0, 256) || 'ci';
    const scope = text(f, 'scope');
    if (scope !== 'default-branch' && scope !== 'merge-request') return tokensView(c, p, { error: 'scope: choose what the token is for: merge requests or the default branch.' }, 400);
    let created: Awaited<ReturnType<typeof createToken>>;
    try {
      created = await createToken(db, p.project.projectId, name, scope, p.actor);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'CONFLICT') return tokensView(c, p, { error: `Not created: ${e.message}` }, 400);
      throw e;
    }
    // Shown once, on this response; never again.
    return tokensView(c, p, { created });
  });

  pages.post('/projects/:project/tokens/:tokenId/revoke', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    const id = c.req.param('tokenId');
    if (!isUuid(id)) return notFound(c, 'No such token.');
    try {
      await revokeToken(db, p.project.projectId, id, p.actor);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, 'No such token in this project.');
      throw e;
    }
    return c.redirect(`${projectPath(p)}/tokens`, 303);
  });
}
