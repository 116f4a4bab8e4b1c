import { defineConfig } from 'astro/config';
import rehypeShikiFromHighlighter from '@shikijs/rehype/core';
import { createHighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { remarkSpecExamples } from './src/examples/remark.ts';
import { rehypeTableScroll } from './src/layouts/rehype-tables.ts';
import { searchIndex } from './src/search/build.ts';

// Highlight at build time with shiki's JavaScript regex engine: Astro's own
// highlighter loads the Oniguruma WebAssembly engine, which we never ship.
const highlighter = await createHighlighterCore({
  themes: [import('shiki/themes/github-light-default.mjs'), import('shiki/themes/github-dark-default.mjs')],
  langs: [
    import('shiki/langs/typescript.mjs'),
    import('shiki/langs/json.mjs'),
    import('shiki/langs/shellscript.mjs'),
    import('shiki/langs/python.mjs'),
    import('shiki/langs/diff.mjs'),
  ],
  engine: createJavaScriptRegexEngine(),
});

export default defineConfig({
  site: 'https://ln-diff.dev',
  // The port of `npm start` and `npm run preview` when none is given: the
  // scripts name none, so `npm run preview -- --port N` passes one port only.
  server: { port: 4321 },
  // The dev toolbar injects an inline script, which the pages' Content-Security-Policy refuses.
  devToolbar: { enabled: false },
  // The search index: the spec's entries from its endpoint, every other page's added from the built HTML.
  integrations: [searchIndex()],
  markdown: {
    syntaxHighlight: false,
    remarkPlugins: [[remarkSpecExamples, { base: '' }]],
    rehypePlugins: [
      () =>
        rehypeShikiFromHighlighter(highlighter, {
          themes: { light: 'github-light-default', dark: 'github-dark-default' },
          defaultColor: 'light',
        }),
      rehypeTableScroll,
    ],
  },
  vite: {
    // Scripts as files, never inlined: the pages' Content-Security-Policy forbids inline script.
    build: { assetsInlineLimit: 0 },
    worker: { format: 'es' },
    resolve: { dedupe: ['@codemirror/state', '@codemirror/view'] },
  },
});
