// A project's settings over HTTP (default branch, flaky policy, stress parameters) and their audit.
import type { Hono } from 'hono';
import type { Clock } from '../clock/clock.js';
import type { BodyCaps } from '../limits/body-caps.js';
import { settingsAudit, settingsOf, writeSettings } from '../settings/settings.js';
import type { Database } from '../storage/database.js';
import { parseSettingsPatch } from '../validation/parse-body.js';
import type { AppEnv } from './app-env.js';
import { authorizeAdmin } from './authorize.js';
import { jsonBody } from './json-body.js';

/** Adds GET/PATCH …/settings and GET …/settings/audit. */
export function settingsRoutes(api: Hono<AppEnv>, db: Database, clock: Clock, caps: BodyCaps): void {
  api.get('/:project/settings', (c) => {
    authorizeAdmin(c.get('principal'), 'settings.read');
    return c.json(settingsOf(c.get('principal').project));
  });
  api.patch('/:project/settings', async (c) => {
    authorizeAdmin(c.get('principal'), 'settings.write');
    const patch = parseSettingsPatch(await jsonBody(c, caps.small));
    const principal = c.get('principal');
    return c.json(settingsOf(await writeSettings(db, principal.project, patch, principal.actor, clock())));
  });
  api.get('/:project/settings/audit', async (c) => {
    authorizeAdmin(c.get('principal'), 'settings.read');
    return c.json({ changes: await settingsAudit(db, c.get('principal').project.projectId) });
  });
}
