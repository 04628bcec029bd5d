// The run page's table of the gate's candidates: one row a candidate with its strip of repetitions
// and why it failed, except the new invocations of one parameterised method, which are one row
// (as in the CLI's report): the method, its invocation count and outcomes, each invocation that
// failed (or was timing-sensitive, order-dependent, or not stressed) with its own strip and
// evidence, the passing ones listed behind a <details>. An order-dependent candidate shows its
// findings below its strip (order-probe-view.tsx). Test text is only ever JSX text, which Hono escapes.
import type { GateCandidate } from '../run-page/run-page.js';
import { gateRows, groupLine, invocationFailed, type InvocationGroup } from '../run-page/invocation-groups.js';
import { candidateTiming, timingSensitiveLine, timingSensitiveVerdict } from '../run-page/timing-sensitive.js';
import { findingsCount, isOrderDependent, orderBlocking, orderVerdict } from '../run-page/order-probe.js';
import { candidateAnchor, CandidateEvidenceView, StripItem } from './failure-evidence.js';
import { OrderProbeView } from './order-probe-view.js';
import { originLabel } from '../run-page/read-diff.js';

type Link = (id: string, label: string) => unknown;

/** The candidates' table. */
export function GateCandidatesTable({ candidates, mode, link }: { candidates: GateCandidate[]; mode: string; link: Link }) {
  return (
    <table class="candidates">
      <thead><tr><th scope="col">Candidate</th><th scope="col">Outcome</th><th scope="col">Repetitions (pass or fail each, with duration; open a failure to see why)</th></tr></thead>
      <tbody>{gateRows(candidates).map((row) => (row.group ? <GroupRow g={row.group} mode={mode} link={link} /> : <CandidateRow c={row.candidate} mode={mode} link={link} />))}</tbody>
    </table>
  );
}

function CandidateRow({ c, mode, link }: { c: GateCandidate; mode: string; link: Link }) {
  return (
    <tr data-candidate={c.name} id={candidateAnchor(c.testCaseId)}>
      <td data-label="Candidate">{link(c.testCaseId, `${c.suite}.${c.name}`)}<OriginBadge c={c} /> {c.muted && <span class="badge muted">muted</span>}</td>
      <td data-label="Outcome"><CandidateOutcome c={c} mode={mode} /></td>
      <td data-label="Repetitions"><Strip c={c} link={link} /></td>
    </tr>
  );
}

/**
 * A candidate's outcome: its badge, how many repetitions failed, and for a timing-sensitive one how
 * it did side by side and alone. The badge says what the candidate did under stress, never the
 * run's verdict (the headline's): a muted failure is grey, a timing-sensitive pass "passed alone".
 */
function CandidateOutcome({ c, mode }: { c: GateCandidate; mode: string }) {
  const timing = candidateTiming(c);
  const failed = c.repetitions.filter((r) => r.status === 'failure').length;
  return (
    <span class="candidate-outcome">
      <OutcomeBadge c={c} />
      {timing ? (
        <>
          {` ${timingSensitiveLine(timing)} `}
          <span class={`badge ${timing.blocking ? 'bad' : 'warn'}`}>{timingSensitiveVerdict(timing, mode)}</span>
        </>
      ) : isOrderDependent(c) ? (
        <>
          {` passed ${c.repetitions.length} of ${c.repetitions.length} repetitions alone; ${findingsCount(c.orderProbe!)} `}
          <span class={`badge ${orderBlocking(c) ? 'bad' : 'warn'}`}>{orderVerdict(c, mode)}</span>
        </>
      ) : (
        c.repetitions.length > 0 && ` ${failed} of ${c.repetitions.length} failed`
      )}
    </span>
  );
}

/** Why it is a candidate, when it is not simply new: "modified", "new (from the diff)". */
function OriginBadge({ c }: { c: GateCandidate }) {
  const label = originLabel(c.origin);
  // With its own leading space, so that a new test's line reads as before.
  return label === null ? null : <> <span class="badge info" data-origin={c.origin}>{label}</span></>;
}

const OUTCOME: Record<string, [string, string]> = { passed: ['passed', 'ok'], failed: ['failed', 'bad'], not_stressed: ['not stressed', 'muted'], error: ['not stressed (gate error)', 'warn'], order_dependent: ['order-dependent', 'bad'] };

function OutcomeBadge({ c }: { c: GateCandidate }) {
  const [words, tone] = OUTCOME[c.outcome] ?? [c.outcome.replaceAll('_', ' '), 'info'];
  if (c.outcome === 'order_dependent' && !orderBlocking(c)) return <span class="badge warn">order-dependent{c.muted && ' (muted: cannot fail the gate)'}</span>;
  if (c.outcome === 'failed' && c.muted) return <span class="badge muted">failed (muted: cannot fail the gate)</span>;
  if (c.outcome === 'passed' && c.timingSensitive !== null) return <span class="badge ok">passed alone</span>;
  return <span class={`badge ${tone}`}>{words}</span>;
}

/** A candidate's strip of repetitions, and below it why it failed and what its order probe did. */
function Strip({ c, link }: { c: GateCandidate; link: Link }) {
  return (
    <>
      <ol class="strip" aria-label={`repetitions of ${c.name}`}>
        {c.repetitions.map((r) => <StripItem c={c} r={r} />)}
      </ol>
      <CandidateEvidenceView c={c} />
      <OrderProbeView c={c} link={link} />
    </>
  );
}

/** The new invocations of one method: one row. */
function GroupRow({ g, mode, link }: { g: InvocationGroup; mode: string; link: Link }) {
  const notable = g.invocations.filter((c) => invocationFailed(c) || c.timingSensitive !== null || c.outcome !== 'passed');
  const passed = g.invocations.filter((c) => !notable.includes(c));
  return (
    <tr data-group={g.method}>
      <td data-label="Candidate">{g.suite}.{g.method} <span class="badge info">{g.invocations.length} invocations</span></td>
      <td data-label="Outcome">{groupLine(g, (index) => index)}</td>
      <td data-label="Repetitions">
        {notable.map((c) => (
          <div class="invocation" data-candidate={c.name} id={candidateAnchor(c.testCaseId)}>
            <p>{link(c.testCaseId, c.name)}<OriginBadge c={c} /> {c.muted && <span class="badge muted">muted</span>} <CandidateOutcome c={c} mode={mode} /></p>
            <Strip c={c} link={link} />
          </div>
        ))}
        {passed.length > 0 && (
          <details class="invocations">
            <summary>{notable.length > 0 ? `The other ${passed.length} invocations: passed` : `All ${passed.length} invocations: passed`}</summary>
            <ul>
              {passed.map((c) => (
                <li>{link(c.testCaseId, c.name)}<OriginBadge c={c} /> {c.muted && <span class="badge muted">muted</span>} passed {c.repetitions.length} of {c.repetitions.length}</li>
              ))}
            </ul>
          </details>
        )}
      </td>
    </tr>
  );
}
