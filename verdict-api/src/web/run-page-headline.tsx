// The run page's headline, first on the page: the verdict in words and colour, what it means and
// what to do now, then each test that decided it with its failure signature, its message (bounded)
// and the command that reruns it, and a link down to its strip and whole evidence. Test text is
// only ever JSX text, which Hono escapes.
import type { HeadlineTest, RunHeadline } from '../run-page/run-headline.js';
import { candidateAnchor } from './failure-evidence.js';

/** The headline section. */
export function RunHeadlineView({ h, testLink }: { h: RunHeadline; testLink: (id: string) => string }) {
  return (
    <section class={`headline tone-${h.tone}`} aria-labelledby="verdict">
      <h2 id="verdict"><span class="verdict">{h.verdict}:</span> {h.summary}</h2>
      {h.notes.map((n) => <p>{n}</p>)}
      {h.tests.map((t) => <HeadlineTestView t={t} testLink={testLink} />)}
      {h.moreTests > 0 && <p>And {h.moreTests} more, in the candidates table below.</p>}
      {h.firstPassFailures.length > 0 && h.tests.length === 0 && (
        <p class="first-pass-failures">Failed in the build: {h.firstPassFailures.map((name, i) => <>{i > 0 && ', '}<code>{name}</code></>)}</p>
      )}
    </section>
  );
}

function HeadlineTestView({ t, testLink }: { t: HeadlineTest; testLink: (id: string) => string }) {
  return (
    <article class="blocking-test" aria-label={t.title}>
      <h3><a href={testLink(t.testCaseId)}>{t.title}</a></h3>
      <p class="where">Class <code>{t.suite}</code>, module <code>{t.module}</code></p>
      <p>It {t.line}.</p>
      <dl class="why">
        {t.signatures.length > 0 && (
          <>
            <dt>Failure</dt>
            <dd>
              {t.signatures.map((s, i) => <>{i > 0 && '; '}<code title={s.signature}>{s.short}</code> ({s.count}x)</>)}
              {t.moreSignatures > 0 && `; and ${t.moreSignatures} more`}
            </dd>
          </>
        )}
        {t.message && (
          <>
            <dt>Message</dt>
            <dd><pre class="message">{t.message.text}</pre>{t.message.cut && <p class="hint">Cut here; repetition {t.message.repetition}'s evidence below has it whole.</p>}</dd>
          </>
        )}
        {t.reproduceCommand !== null && (
          <>
            <dt>Reproduce</dt>
            <dd><pre class="command"><code>{t.reproduceCommand}</code></pre></dd>
          </>
        )}
      </dl>
      <p><a href={`#${candidateAnchor(t.testCaseId)}`}>Every repetition and the whole evidence</a></p>
    </article>
  );
}
