// The search page's route: GET /projects/:project/search?q=, for admins and viewers alike.
import { VerdictApiError } from '../errors/errors.js';
import { search, searchText } from '../search/search.js';
import { frame, html, projectOf } from './respond.js';
import { SearchPage } from './search-page.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps } from './web-env.js';

/** Adds GET /projects/:project/search. */
export function searchRoutes(pages: SignedInPages, { db }: DashboardDeps): void {
  pages.get('/projects/:project/search', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    const raw = c.req.query('q');
    const show = (query: string, result: Awaited<ReturnType<typeof search>> | null, problem?: string) =>
      html(c, <SearchPage frame={frame(c, query ? `Search: ${query}` : 'Search', p.project.handle)} query={query} result={result} {...(problem ? { problem } : {})} />, problem ? 400 : 200);
    if (raw === undefined || raw.trim() === '') return show('', null);
    try {
      const text = searchText(raw);
      return show(text, await search(db, p.project, text));
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'BAD_REQUEST') return show(raw.isWellFormed() ? raw.slice(0, 200) : '', null, `Not searched: ${e.message.replace(/^q: /, '')}.`);
      throw e;
    }
  });
}
