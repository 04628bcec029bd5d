// The project's search page: test cases by module, suite or name, runs by id, branch or commit.
// A GET form, so a search is a link to share; the text is shown back escaped, like every value.
import type { SearchResult } from '../search/search.js';
import { StatusBadge } from './badges.js';
import { Layout, type Frame } from './layout.js';
import { SearchForm } from './search-form.js';

/** The search page, with the form and, once asked, what it found (or why the text was refused). */
export function SearchPage({ frame, query, result, problem }: { frame: Frame; query: string; result: SearchResult | null; problem?: string }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  return (
    <Layout frame={frame}>
      <div class="search-page">
        <h1>Search {frame.project}</h1>
        <SearchForm base={base} query={query} />
        {problem && <p class="error" role="alert">{problem}</p>}
        {result && (
          <>
            <section aria-labelledby="found-tests">
              <h2 id="found-tests">Test cases ({result.testCases.length}{result.moreTestCases ? '+' : ''})</h2>
              {result.moreTestCases && <p class="notice">Showing the first {result.limit} test cases that match; make the text longer to narrow it.</p>}
              {result.testCases.length === 0 ? <p>No test case of this project has “{result.query}” in its module, suite or name.</p> : (
                <ul class="found">
                  {result.testCases.map((t) => (
                    <li><a href={`${base}/test-cases/${t.testCaseId}`}><code>{t.suite}.{t.name}</code></a> <span class="where">in <code>{t.module}</code></span></li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="found-runs">
              <h2 id="found-runs">Runs ({result.runs.length}{result.moreRuns ? '+' : ''})</h2>
              {result.moreRuns && <p class="notice">Showing the newest {result.limit} runs that match.</p>}
              {result.runs.length === 0 ? <p>No run of this project has “{result.query}” in its id, branch or commit.</p> : (
                <ul class="found">
                  {result.runs.map((r) => (
                    <li>
                      <a href={`${base}/runs/${encodeURIComponent(r.runId)}`}><code>{r.runId}</code></a> <StatusBadge status={r.status} />{' '}
                      <span class="where">on <code>{r.branch}</code> at <code>{r.commit.slice(0, 12)}</code>, {r.startedAt} UTC</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
      </div>
    </Layout>
  );
}
