// The site search's index (src/search/sections.ts), written once at build
// time: every heading and every numbered example of the spec pages. The
// /search/ page fetches it; no server is involved.
import type { APIRoute } from 'astro';
import { getCollection, render } from 'astro:content';
import { pageDocs } from '../search/sections.ts';

export const GET: APIRoute = async () => {
  const base = import.meta.env.BASE_URL.replace(/\/$/, '');
  const entries = (await getCollection('spec'))
    .filter((e) => !e.id.startsWith('prompts/'))
    .sort((a, b) => (a.id === 'ln-diff' ? -1 : b.id === 'ln-diff' ? 1 : a.id.localeCompare(b.id)));
  const docs = [];
  for (const entry of entries) {
    const { headings } = await render(entry);
    docs.push(...pageDocs(`${base}/spec/${entry.id}/`, entry.body ?? '', headings, entry.data.format ?? 'ln-diff'));
  }
  return new Response(JSON.stringify({ docs }), { headers: { 'content-type': 'application/json' } });
};
