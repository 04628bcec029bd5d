// The search box: a GET form to the project's search page (no script, no CSRF token: it reads).
// In the header of every project page, compact, and on the search page itself, labelled.
import { SEARCH_MAX_LENGTH } from '../search/search.js';

/** The search form of a project whose pages are at `base`; `compact`: the header's, its label for screen readers only. */
export function SearchForm({ base, query, compact }: { base: string; query?: string; compact?: boolean }) {
  const id = compact ? 'top-search-q' : 'search-q';
  return (
    <form class={compact ? 'search compact' : 'search'} method="get" action={`${base}/search`} role="search">
      <label for={id}>Search tests and runs</label>
      <input id={id} name="q" type="search" maxlength={SEARCH_MAX_LENGTH} value={query ?? ''} placeholder={compact ? 'Search tests and runs' : 'test name, suite, module, run id, branch or commit'} />
      <button type="submit">Search</button>
    </form>
  );
}
