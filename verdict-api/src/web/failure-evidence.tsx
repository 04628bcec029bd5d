// Why a gate candidate failed, on the run page: each failed repetition of its strip opens its
// failure in place (a <details>, so no JavaScript is needed), and below the strip its failures
// grouped by signature and the command that reruns it (for a timing-sensitive candidate, its
// side-by-side failures, each opened below the strip). The evidence is bounded (evidence-bounds.ts)
// and every bound says so where it bites. Test text is hostile: it is only ever a JSX text child
// or attribute, which Hono escapes; nothing here writes raw HTML.
import { cutWords, GROUP_REPETITIONS_LISTED, type TextCut } from '../run-page/evidence-bounds.js';
import type { ShownFailure } from '../run-page/read-evidence.js';
import type { GateCandidate } from '../run-page/run-page.js';
import { ms } from './badges.js';

/** The anchor of a candidate's row (or invocation) in the candidates table. */
export const candidateAnchor = (testCaseId: string): string => `candidate-${testCaseId}`;

/** The anchor of a candidate's failed repetition (test case ids are UUIDs: safe in an id). */
export const failureAnchor = (testCaseId: string, repetition: number): string => `failure-${testCaseId}-${repetition}`;

/** One repetition of a strip: a pass or fail, and for a failure with evidence the failure itself, opened on click. */
export function StripItem({ c, r }: { c: GateCandidate; r: GateCandidate['repetitions'][number] }) {
  const label = `#${r.repetition} ${r.status === 'success' ? 'pass' : 'fail'} ${ms(r.durationMs)}`;
  // A timing-sensitive candidate's strip is its alone run, which passed; its failures are side by side.
  const failure = c.timingSensitive === null ? c.failures.find((f) => f.repetition === r.repetition) : undefined;
  return (
    <li class={r.status === 'success' ? 'ok' : 'bad'} title={`repetition ${r.repetition}: ${r.status === 'success' ? 'pass' : 'fail'}, ${ms(r.durationMs)}`}>
      {failure ? (
        <details class="failure" id={failureAnchor(c.testCaseId, r.repetition)}>
          <summary>{label}</summary>
          <FailureView f={failure} />
        </details>
      ) : (
        label
      )}
    </li>
  );
}

/**
 * Below a candidate's strip: its failures grouped, evidence the strip has no place for, and the
 * reproduce command. A timing-sensitive candidate's failures are all of its side-by-side
 * repetitions, none of its strip (the alone run).
 */
export function CandidateEvidenceView({ c }: { c: GateCandidate }) {
  const sideBySide = c.timingSensitive !== null;
  const failed = sideBySide ? c.timingSensitive!.failures : c.repetitions.filter((r) => r.status === 'failure').length;
  const inStrip = new Set(sideBySide ? [] : c.repetitions.map((r) => r.repetition));
  const elsewhere = c.failures.filter((f) => !inStrip.has(f.repetition));
  const notShown = c.failuresNotShown ?? 0;
  const groupsNotShown = c.failureGroupsNotShown ?? 0;
  // An order-dependent candidate passed its repetitions: rerunning them shows nothing; its findings carry the commands that do.
  const command = c.orderProbe?.orderDependent ? null : c.reproduceCommand;
  if (c.failureGroups.length === 0 && elsewhere.length === 0 && c.failuresOmitted === 0 && notShown === 0 && command === null) return null;
  return (
    <div class="candidate-evidence">
      {c.failureGroups.length > 0 && (
        <p class="groups">
          {failed} failed{sideBySide && ' side by side'}, {c.failureGroups.length} distinct:{' '}
          {c.failureGroups.map((g, i) => (
            <span class="group">
              {i > 0 && '; '}
              {g.type !== null && g.location !== null ? <span><code title={g.signature}>{g.type.slice(g.type.lastIndexOf('.') + 1)}</code> at <code>{g.location}</code></span> : <code>{g.signature}</code>}
              {` (${g.count}x: `}
              {g.repetitions.slice(0, GROUP_REPETITIONS_LISTED).map((n, k) => (
                <span>{k > 0 && ' '}{c.failures.some((f) => f.repetition === n) ? <a href={`#${failureAnchor(c.testCaseId, n)}`}>#{n}</a> : `#${n}`}</span>
              ))}
              {g.repetitions.length > GROUP_REPETITIONS_LISTED && ` and ${g.repetitions.length - GROUP_REPETITIONS_LISTED} more`}
              {')'}
            </span>
          ))}
        </p>
      )}
      {groupsNotShown > 0 && <p class="bound">{groupsNotShown} more {groupsNotShown === 1 ? 'signature' : 'signatures'} not shown (the page shows {c.failureGroups.length}).</p>}
      {notShown > 0 && (
        <p class="bound">
          Evidence shown for {c.failures.length} of the {c.failures.length + notShown} failures stored, the first of each signature first: {notShown} more {notShown === 1 ? 'failure' : 'failures'} like {c.failures.length === 1 ? 'this' : 'these'}, counted in the signatures above.
        </p>
      )}
      {c.failuresOmitted > 0 && <p>Evidence of {c.failuresOmitted} more failed {c.failuresOmitted === 1 ? 'repetition' : 'repetitions'} was left out by the bound ({c.failures.length} kept).</p>}
      {elsewhere.map((f) => (
        <details class="failure" id={failureAnchor(c.testCaseId, f.repetition)}>
          <summary>#{f.repetition} {f.kind} {ms(f.durationMs)} {sideBySide ? '(side by side)' : '(not in the strip)'}</summary>
          <FailureView f={f} />
        </details>
      ))}
      {command !== null && (
        <div class="reproduce">
          <p>Rerun it as the gate did:</p>
          <pre><code>{command}</code></pre>
        </div>
      )}
    </div>
  );
}

/** Everything the CLI sent about one failed repetition. */
export function FailureView({ f }: { f: ShownFailure }) {
  const cut = f.cut ?? {};
  return (
    <div class="failure-panel">
      <p>
        <strong>{f.kind === 'crash' ? 'The test JVM crashed' : 'The test failed'}</strong> in repetition {f.repetition}, after {ms(f.durationMs)}.
        {f.truncated && ' Some of its text was cut to the bounds by the CLI.'}
      </p>
      <dl class="evidence">
        <dt>Type</dt>
        <dd>{f.type !== null ? <code>{f.type}</code> : 'none'}</dd>
        {f.kind === 'crash' && (
          <>
            <dt>Exit code</dt>
            <dd>{f.exitCode ?? 'unknown'}</dd>
            <dt>Signal</dt>
            <dd>{f.signal ?? 'none'}</dd>
            <dt>hs_err file</dt>
            <dd>{f.hsErrFile !== null ? <code>{f.hsErrFile}</code> : 'none written'}<Cut cut={cut.hsErrFile} what="the start" /></dd>
          </>
        )}
        <dt>Message</dt>
        <dd>{f.message === null ? 'none' : f.message === '' ? 'empty' : <pre class="message">{f.message}</pre>}<Cut cut={cut.message} what="the start" /></dd>
        <dt>Stack trace</dt>
        <dd>
          {f.stackTrace === null || f.stackTrace === '' ? 'none' : <pre>{f.stackTrace}</pre>}
          <Cut cut={cut.stackTrace} what="the top" />
          {f.framesOmitted > 0 && <p>{f.framesOmitted} frames beyond the test's own left out.</p>}
        </dd>
        <Tail label="stdout (last lines)" text={f.stdoutTail} cut={cut.stdoutTail} />
        <Tail label="stderr (last lines)" text={f.stderrTail} cut={cut.stderrTail} />
      </dl>
    </div>
  );
}

function Tail({ label, text, cut }: { label: string; text: string | null; cut: TextCut | undefined }) {
  if (text === null || text === '') return null;
  return (
    <>
      <dt>{label}</dt>
      <dd><pre>{text}</pre><Cut cut={cut} what="the end" /></dd>
    </>
  );
}

/** Where the page's bound cut a text: "truncated: the top 4,000 of 16,384 characters shown". */
function Cut({ cut, what }: { cut: TextCut | undefined; what: string }) {
  return cut ? <p class="bound">truncated: {what}, {cutWords(cut)}, shown.</p> : null;
}
