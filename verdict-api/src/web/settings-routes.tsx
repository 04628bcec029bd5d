// A project's settings: the form (default branch, flaky policy, stress parameters) and its audit.
import type { Context } from 'hono';
import type { Principal } from '../accounts/principal.js';
import { VerdictApiError } from '../errors/errors.js';
import { settingsAudit, writeSettings } from '../settings/settings.js';
import { parseSettingsPatch } from '../validation/parse-body.js';
import { formOf, text } from './forms.js';
import { frame, html, projectOf } from './respond.js';
import { SettingsPage } from './settings-page.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Adds GET/POST /projects/:project/settings. */
export function settingsRoutes(pages: SignedInPages, { db, clock }: DashboardDeps): void {
  const settingsView = async (c: Context<WebEnv>, p: Principal, extra: { error?: string; notice?: string } = {}, status: 200 | 400 = 200) =>
    html(c, <SettingsPage frame={frame(c, 'Settings', p.project.handle)} project={p.project} entitled={p.account.stressGateEntitled} audit={await settingsAudit(db, p.project.projectId)} {...extra} />, status);

  pages.get('/projects/:project/settings', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    return settingsView(c, p);
  });

  pages.post('/projects/:project/settings', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    const f = await formOf(c);
    const number = (k: string) => (text(f, k) === '' ? undefined : Number(text(f, k)));
    try {
      let curve: unknown;
      try {
        curve = JSON.parse(text(f, 'curve') || 'null') ?? undefined;
      } catch {
        throw new VerdictApiError('BAD_REQUEST', 'stress.curve: not valid JSON', 'stress.curve');
      }
      const patch = parseSettingsPatch({
        defaultBranch: text(f, 'defaultBranch') || null,
        flakyPolicy: { autoMarkFlaky: f['autoMarkFlaky'] === '1', autoMarkThreshold: number('autoMarkThreshold'), cooldownDays: number('cooldownDays'), autoQuarantine: f['autoQuarantine'] === '1' },
        stress: { candidateCap: number('candidateCap'), ceilingSeconds: number('ceilingSeconds'), bulkChangeRatio: number('bulkChangeRatio'), bulkChangeFloor: number('bulkChangeFloor'), timingSensitiveBlocks: f['timingSensitiveBlocks'] === '1', orderFindingsBlock: f['orderFindingsBlock'] === '1', modifiedTestsBlock: f['modifiedTestsBlock'] === '1', curve },
      });
      const next = await writeSettings(db, p.project, patch, p.actor, clock());
      return settingsView(c, { ...p, project: next }, { notice: 'Settings saved.' });
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'BAD_REQUEST') return settingsView(c, p, { error: `Not saved: ${e.message}` }, 400);
      throw e;
    }
  });
}
