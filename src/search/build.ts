// The build step that completes the site search's index: after Astro has
// written every page, the entries of each page that is not a spec page
// (src/search/html.ts) are added to /search-index.json, which the endpoint
// (src/pages/search-index.json.ts) wrote with the spec's sections and
// examples. `astro dev` never runs it: there the index holds the spec only.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { htmlDocs } from './html.ts';
import type { SearchDoc } from './sections.ts';

/** Site paths (under the base) whose pages the spec's own entries already cover, or that are no page to find. */
const LEFT_OUT = [/^\/spec\//, /^\/search\//, /^\/404\//];

/** The order of the pages in the index (ties in a search keep it): the home page, then by path. */
function htmlPages(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === 'index.html') out.push(full);
    }
  };
  walk(dir);
  return out.sort();
}

/** Every built page's entries, for the pages the spec's entries do not cover, in path order. */
export function pageEntries(dist: string, base = ''): SearchDoc[] {
  const docs: SearchDoc[] = [];
  for (const file of htmlPages(dist)) {
    const rel = relative(dist, file).split(sep).slice(0, -1).join('/');
    const path = rel === '' ? '/' : `/${rel}/`;
    if (LEFT_OUT.some((re) => re.test(path))) continue;
    docs.push(...htmlDocs(`${base}${path}`, readFileSync(file, 'utf8')));
  }
  return docs;
}

/** The integration: adds every page's entries to dist/search-index.json once the build is done. */
export function searchIndex(): AstroIntegration {
  let base = '';
  return {
    name: 'ln-diff-search-index',
    hooks: {
      'astro:config:done': ({ config }) => {
        base = config.base.replace(/\/$/, '');
      },
      'astro:build:done': ({ dir, logger }) => {
        const dist = fileURLToPath(dir);
        const file = join(dist, 'search-index.json');
        const index = JSON.parse(readFileSync(file, 'utf8')) as { docs: SearchDoc[] };
        const pages = pageEntries(dist, base);
        index.docs.push(...pages);
        writeFileSync(file, JSON.stringify(index));
        logger.info(`search index: ${index.docs.length} entries, ${pages.length} from pages outside the spec`);
      },
    },
  };
}
