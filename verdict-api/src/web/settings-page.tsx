// The project's settings: default branch, flaky policy, the gate's parameters, the account's
// entitlement, and the audit of every change.
import type { Project } from '../accounts/projects.js';
import type { SettingsAuditEntry } from '../settings/settings.js';
import { Csrf, Layout, type Frame } from './layout.js';

/** The settings page; `error` re-renders the form after a refused change. */
export function SettingsPage({ frame, project, entitled, audit, error, notice }: { frame: Frame; project: Project; entitled: boolean; audit: SettingsAuditEntry[]; error?: string; notice?: string }) {
  const f = project.flakyPolicy;
  const s = project.stress;
  return (
    <Layout frame={frame}>
      <h1>Settings of {project.handle}</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {notice && <p class="notice" role="status">{notice}</p>}
      <p>Stress gate entitlement of the account: {entitled ? <span class="badge ok">entitled</span> : <span class="badge muted">not entitled: the gate only uploads history</span>}</p>
      <form class="stack" method="post" action={`/projects/${encodeURIComponent(project.handle)}/settings`}>
        <Csrf token={frame.csrf!} />
        <label>Default branch <input name="defaultBranch" value={project.defaultBranch ?? ''} placeholder="main" /></label>
        <fieldset>
          <legend>Flaky policy (organic evidence only)</legend>
          <label><span><input type="checkbox" name="autoMarkFlaky" value="1" checked={f.autoMarkFlaky} /> Mark flaky tests automatically</span></label>
          <label>Mark threshold (distinct commits) <input name="autoMarkThreshold" type="number" min="1" value={String(f.autoMarkThreshold)} /></label>
          <label>Cooldown (days) <input name="cooldownDays" type="number" min="0" value={String(f.cooldownDays)} /></label>
          <label><span><input type="checkbox" name="autoQuarantine" value="1" checked={f.autoQuarantine} /> Auto-quarantine newly marked tests</span></label>
        </fieldset>
        <fieldset>
          <legend>The gate's parameters</legend>
          <label>Candidate cap <input name="candidateCap" type="number" min="1" value={String(s.candidateCap)} /></label>
          <label>Wall-clock ceiling (seconds) <input name="ceilingSeconds" type="number" min="1" value={String(s.ceilingSeconds)} /></label>
          <label>Bulk-change ratio (0–1] <input name="bulkChangeRatio" type="number" step="0.01" min="0.01" max="1" value={String(s.bulkChangeRatio)} /></label>
          <label>Bulk-change floor <input name="bulkChangeFloor" type="number" min="1" value={String(s.bulkChangeFloor)} /></label>
          <label><span><input type="checkbox" name="timingSensitiveBlocks" value="1" checked={s.timingSensitiveBlocks} aria-describedby="timing-sensitive-hint" /> Block on timing-sensitive tests</span></label>
          <p id="timing-sensitive-hint" class="hint">A new test that failed only while its repetitions ran side by side, and passed every one alone, fails the gate; unchecked, it is reported without blocking.</p>
          <label><span><input type="checkbox" name="orderFindingsBlock" value="1" checked={s.orderFindingsBlock} aria-describedby="order-findings-hint" /> Block on order-dependent tests</span></label>
          <p id="order-findings-hint" class="hint">A new test the order probe found order-dependent (it failed right after another test, or an existing test failed right after it) fails the gate in enforce mode; unchecked, its findings are reported without blocking. On by default.</p>
          <label><span><input type="checkbox" name="modifiedTestsBlock" value="1" checked={s.modifiedTestsBlock} aria-describedby="modified-tests-hint" /> Block on modified tests</span></label>
          <p id="modified-tests-hint" class="hint">A test the merge request modified that disagreed with itself blocks the merge in enforce; otherwise modified tests are stressed and reported only. Off by default.</p>
          <label>Repetition curve (JSON) <textarea name="curve" rows={6}>{JSON.stringify(s.curve, null, 1)}</textarea></label>
        </fieldset>
        <button type="submit">Save settings</button>
      </form>
      <h2>Changes</h2>
      {audit.length === 0 ? <p>No change yet.</p> : (
        <table>
          <thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What changed</th></tr></thead>
          <tbody>{audit.map((a) => <tr><td>{a.changedAt}</td><td><code>{a.actor}</code></td><td>{diff(a.before, a.after)}</td></tr>)}</tbody>
        </table>
      )}
    </Layout>
  );
}

function diff(before: unknown, after: unknown): string {
  const flat = (o: unknown, prefix = ''): Record<string, string> =>
    o !== null && typeof o === 'object' && !Array.isArray(o)
      ? Object.assign({}, ...Object.entries(o).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)))
      : { [prefix]: JSON.stringify(o) };
  const a = flat(before);
  const b = flat(after);
  const changes = Object.keys(b).filter((k) => a[k] !== b[k]).map((k) => `${k}: ${a[k]} → ${b[k]}`);
  return changes.length ? changes.join('; ') : 'no change';
}
