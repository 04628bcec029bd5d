// Webhook settings and the delivery log.
import type { DeliveryAttempt } from '../alerts/delivery-log.js';
import type { WebhookInfo } from '../alerts/webhooks-store.js';
import { Csrf, Layout, type Frame } from './layout.js';

/** The webhooks page. */
export function WebhooksPage({ frame, webhooks, deliveries, error }: { frame: Frame; webhooks: WebhookInfo[]; deliveries: DeliveryAttempt[]; error?: string }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  return (
    <Layout frame={frame}>
      <h1>Webhooks</h1>
      {error && <p class="error" role="alert">{error}</p>}
      <p>Alerts (<code>test.marked_flaky</code>, <code>test.quarantined</code>, <code>test.quarantine_expired</code>) are POSTed as JSON, signed with HMAC-SHA256 of the body in <code>X-Stress-Gate-Signature</code>.</p>
      {webhooks.length === 0 ? <p>No webhook.</p> : (
        <table>
          <thead><tr><th scope="col">URL</th><th scope="col">Created (UTC)</th><th scope="col">Action</th></tr></thead>
          <tbody>
            {webhooks.map((w) => (
              <tr><td><code>{w.url}</code></td><td>{w.createdAt}</td>
                <td><form class="inline" method="post" action={`${base}/webhooks/${w.webhookId}/delete`}><Csrf token={frame.csrf!} /><button type="submit">Delete</button></form></td></tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Add a webhook</h2>
      <form class="stack" method="post" action={`${base}/webhooks`}>
        <Csrf token={frame.csrf!} />
        <label>URL <input name="url" type="url" required /></label>
        <label>Secret (16–256 characters, never shown again) <input name="secret" type="password" required minlength={16} maxlength={256} /></label>
        <button type="submit">Add webhook</button>
      </form>
      <h2>Delivery log</h2>
      {deliveries.length === 0 ? <p>No delivery yet.</p> : (
        <table>
          <thead><tr><th scope="col">When (UTC)</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">Status</th><th scope="col">Error</th><th scope="col">Retry</th></tr></thead>
          <tbody>
            {deliveries.map((d) => (
              <tr><td>{d.attemptedAt}</td><td><code>{d.event}</code></td><td>{d.attempt}</td>
                <td><span class={`badge ${d.outcome === 'delivered' ? 'ok' : 'bad'}`}>{d.outcome}</span></td>
                <td>{d.statusCode ?? '—'}</td><td>{d.error ?? ''}</td><td>{d.willRetry ? 'will retry' : 'no'}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
