// Quarantine routes: the CI token reads the list; writes go through authorizeAdmin.
import type { Hono } from 'hono';
import type { Project } from '../accounts/projects.js';
import { identitiesOf } from '../catalogue/test-case-identities.js';
import type { Clock } from '../clock/clock.js';
import type { DomainDeps } from '../domain/deps.js';
import { VerdictApiError } from '../errors/errors.js';
import { rememberedTestCaseId } from '../identity/remembered-ids.js';
import { listQuarantine, pageParams } from '../quarantine/list-quarantine.js';
import { quarantineOf, type QuarantineRecord } from '../quarantine/quarantine-store.js';
import { setQuarantine } from '../quarantine/set-quarantine.js';
import { unquarantine } from '../quarantine/unquarantine.js';
import { testCasePage } from '../test-case/test-case-page.js';
import { UnquarantineBody as Unquarantine } from '../contract.js';
import { parseBody, parseQuarantineWrite, parseQuarantineWriteByIdentity } from '../validation/parse-body.js';
import { authorizeAdmin } from './authorize.js';
import type { AppEnv } from './app-env.js';
import type { BodyCaps } from '../limits/body-caps.js';
import { jsonBody, optionalJsonBody, uuidParam } from './json-body.js';

/** Adds GET/POST …/quarantine, PUT/DELETE …/quarantine/:testCaseId and GET …/test-cases/:testCaseId. */
export function quarantineRoutes(api: Hono<AppEnv>, deps: DomainDeps, clock: Clock, caps: BodyCaps): void {
  const { db } = deps;

  api.get('/:project/quarantine', async (c) => {
    const page = pageParams(c.req.query('limit'), c.req.query('cursor'));
    // The CLI reads it before every build: on a cluster, from the project's shard only (database.ts forProject).
    const { projectId } = c.get('principal').project;
    return c.json(await listQuarantine(await db.forProject(projectId), projectId, clock(), page));
  });

  api.post('/:project/quarantine', async (c) => {
    const principal = c.get('principal');
    authorizeAdmin(principal, 'quarantine.write');
    const body = parseQuarantineWriteByIdentity(await jsonBody(c, caps.small));
    const identity = { module: body.module, suite: body.suite, name: body.name };
    const id = rememberedTestCaseId(principal.project.projectId, identity);
    const { record, from } = await setQuarantine(deps, principal.project, { ...identity, testCaseId: id, ...fields(body) }, principal.actor, clock());
    return c.json(view(record, from), from === 'enabled' && record.state !== 'enabled' ? 201 : 200);
  });

  api.put('/:project/quarantine/:testCaseId', async (c) => {
    const principal = c.get('principal');
    authorizeAdmin(principal, 'quarantine.write');
    const id = uuidParam(c.req.param('testCaseId'), 'testCaseId');
    const body = parseQuarantineWrite(await jsonBody(c, caps.small));
    const identity = await knownIdentity(principal.project, id);
    const { record, from } = await setQuarantine(deps, principal.project, { ...identity, testCaseId: id, ...fields(body) }, principal.actor, clock());
    return c.json(view(record, from));
  });

  api.delete('/:project/quarantine/:testCaseId', async (c) => {
    const principal = c.get('principal');
    authorizeAdmin(principal, 'quarantine.write');
    const id = uuidParam(c.req.param('testCaseId'), 'testCaseId');
    const body = parseBody(Unquarantine, await optionalJsonBody(c, caps.small));
    const { record, from } = await unquarantine(deps, principal.project, id, body.reason, principal.actor, clock());
    return c.json(view(record, from));
  });

  api.get('/:project/test-cases/:testCaseId', async (c) => {
    authorizeAdmin(c.get('principal'), 'test-cases.read');
    const id = uuidParam(c.req.param('testCaseId'), 'testCaseId');
    return c.json(await testCasePage(db, c.get('principal').project, id, clock()));
  });

  async function knownIdentity(project: Project, id: string) {
    const identity = (await identitiesOf(db, project.projectId, [id])).get(id) ?? (await quarantineOf(db, project.projectId, id));
    if (!identity) throw new VerdictApiError('NOT_FOUND', `no test case ${id} in this project; quarantine it by identity with POST …/quarantine`, 'testCaseId');
    return { module: identity.module, suite: identity.suite, name: identity.name };
  }
}

function fields(body: { state: 'enabled' | 'muted' | 'skipped'; owner: string; reason: string; issueUrl: string | null; expiresAt: string | null }) {
  return { state: body.state, owner: body.owner, reason: body.reason, issueUrl: body.issueUrl, expiresAt: body.expiresAt === null ? null : new Date(body.expiresAt) };
}

function view(r: QuarantineRecord, from: string) {
  const { projectId: _p, ...rest } = r;
  return { ...rest, previousState: from };
}
