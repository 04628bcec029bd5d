// A project's viewer credentials over HTTP (an admin's): list (never the secret), create (the
// secret shown once), revoke; and the audit of every token and viewer credential created or revoked.
import type { Hono } from 'hono';
import * as v from 'valibot';
import { accessAudit } from '../accounts/access-audit.js';
import { createViewer, listViewers, revokeViewer } from '../accounts/viewer-credentials.js';
import { BadRequestError } from '../errors/errors.js';
import type { BodyCaps } from '../limits/body-caps.js';
import type { Database } from '../storage/database.js';
import { parseBody } from '../validation/parse-body.js';
import type { AppEnv } from './app-env.js';
import { authorizeAdmin } from './authorize.js';
import { optionalJsonBody, uuidParam } from './json-body.js';

const ViewerCreate = v.object({
  /** Whom it is for (a person or a team), so that it can be revoked alone. Default `viewer`. */
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters')), 'viewer'),
});

/** Adds GET/POST …/viewers, DELETE …/viewers/:viewerId and GET …/access-audit. */
export function viewerRoutes(api: Hono<AppEnv>, db: Database, caps: BodyCaps): void {
  api.get('/:project/viewers', async (c) => {
    authorizeAdmin(c.get('principal'), 'viewers.read');
    return c.json({ viewers: await listViewers(db, c.get('principal').project.projectId) });
  });
  api.post('/:project/viewers', async (c) => {
    const p = c.get('principal');
    authorizeAdmin(p, 'viewers.write');
    const body = parseBody(ViewerCreate, await optionalJsonBody(c, caps.small));
    return c.json({ project: p.project.handle, ...(await createViewer(db, p.project, body.name, p.actor)) }, 201);
  });
  api.delete('/:project/viewers/:viewerId', async (c) => {
    const p = c.get('principal');
    authorizeAdmin(p, 'viewers.write');
    return c.json(await revokeViewer(db, p.project.projectId, uuidParam(c.req.param('viewerId'), 'viewerId'), p.actor));
  });
  api.get('/:project/access-audit', async (c) => {
    authorizeAdmin(c.get('principal'), 'viewers.read');
    const kind = c.req.query('kind');
    if (kind !== undefined && kind !== 'token' && kind !== 'viewer') throw new BadRequestError('kind: must be token or viewer', 'kind');
    return c.json({ changes: await accessAudit(db, c.get('principal').project.projectId, kind) });
  });
}
