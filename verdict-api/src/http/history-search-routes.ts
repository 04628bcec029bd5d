// A test case's outcome history and the project's search, over HTTP: reads, authenticated and
// project-scoped by projectAuth like every project route; an admin or a viewer reads them, a CI
// token does not.
import type { Hono } from 'hono';
import { search, searchLimit, searchText } from '../search/search.js';
import type { Database } from '../storage/database.js';
import { historyLimit, outcomeHistory } from '../test-case/outcome-history.js';
import type { AppEnv } from './app-env.js';
import { authorizeAdmin } from './authorize.js';
import { uuidParam } from './json-body.js';

/** Adds GET …/test-cases/:testCaseId/history and GET …/search. */
export function historySearchRoutes(api: Hono<AppEnv>, db: Database): void {
  api.get('/:project/test-cases/:testCaseId/history', async (c) => {
    authorizeAdmin(c.get('principal'), 'test-cases.read');
    const id = uuidParam(c.req.param('testCaseId'), 'testCaseId');
    return c.json(await outcomeHistory(db, c.get('principal').project, id, historyLimit(c.req.query('limit'))));
  });

  api.get('/:project/search', async (c) => {
    const principal = c.get('principal');
    authorizeAdmin(principal, 'test-cases.read');
    authorizeAdmin(principal, 'runs.list');
    const limit = searchLimit(c.req.query('limit'));
    return c.json(await search(db, principal.project, searchText(c.req.query('q')), limit));
  });
}
