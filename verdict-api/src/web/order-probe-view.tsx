// A gate candidate's order probe on the run page, below its strip: what the probe did (a cut or a
// probe that did not run says so: the bound that bit), and each order dependence it found with its
// role, the other test, the order the pair failed in, whether the other test passes alone, the
// replays, the seed, the failing test's evidence (as a failed repetition's) and the command that
// runs the pair in that order. Test text is only ever JSX text, which Hono escapes.
import { findingLine, orderWords, probeLine, shortName } from '../run-page/order-probe.js';
import type { ShownOrderFinding } from '../run-page/read-order-probes.js';
import type { GateCandidate } from '../run-page/run-page.js';
import { FailureView } from './failure-evidence.js';

type Link = (id: string, label: string) => unknown;

/** The probe of `c`, or nothing when none was uploaded. */
export function OrderProbeView({ c, link }: { c: GateCandidate; link: Link }) {
  const p = c.orderProbe;
  if (!p) return null;
  return (
    <div class="order-probe" data-order-probe={p.status}>
      <p class={p.status === 'probed' ? 'hint' : 'bound'}>{probeLine(p)}.</p>
      {p.findings.map((f, i) => <FindingView c={c} f={f} i={i} seed={p.seed} link={link} />)}
      {p.findingsNotShown > 0 && <p class="bound">{p.findingsNotShown} more order {p.findingsNotShown === 1 ? 'finding' : 'findings'} stored, not shown (the page shows {p.findings.length}).</p>}
      {p.findingsOmitted > 0 && <p class="bound">{p.findingsOmitted} more order {p.findingsOmitted === 1 ? 'finding was' : 'findings were'} left out by the CLI's bound ({p.findings.length} kept).</p>}
    </div>
  );
}

function FindingView({ c, f, i, seed, link }: { c: GateCandidate; f: ShownOrderFinding; i: number; seed: string; link: Link }) {
  const failing = f.role === 'victim' ? shortName(c) : shortName(f.other);
  return (
    <div class="order-finding" data-role={f.role} id={`order-${c.testCaseId}-${i + 1}`}>
      <p><span class={`badge ${f.role === 'victim' ? 'bad' : 'warn'}`}>{f.role}</span> {findingLine(f)}.</p>
      <dl class="why">
        <dt>Other test</dt>
        <dd>{link(f.other.testCaseId, `${f.other.suite}.${f.other.name}`)} <code>{f.other.module}</code></dd>
        <dt>Order</dt>
        <dd>{f.order.length ? orderWords(f) : f.role === 'victim' ? `${shortName(f.other)}, then this test` : `this test, then ${shortName(f.other)}`} (one JVM)</dd>
        {f.role === 'polluter' && (
          <>
            <dt>Other test alone</dt>
            <dd>{f.otherPassesAlone ? 'passes in a fresh JVM of its own' : 'also failed in a fresh JVM of its own'}</dd>
          </>
        )}
        <dt>Replays</dt>
        <dd>{f.replayFailures} of {f.replays} failed</dd>
        <dt>Seed</dt>
        <dd><code>{seed}</code></dd>
      </dl>
      <details class="failure">
        <summary>Why {failing} failed (last replay)</summary>
        <FailureView f={f.failure} />
      </details>
      {f.reproduceCommand !== null && (
        <div class="reproduce">
          <p>Run the pair in that order:</p>
          <pre><code>{f.reproduceCommand}</code></pre>
        </div>
      )}
    </div>
  );
}
