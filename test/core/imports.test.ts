// The core's modules import each other without a cycle, and so do all of
// src/'s: type-only imports and re-exports count too, since a cycle of types
// is still two modules that cannot be read one without the other. The layers
// below the pages (the engine, the bench run module, the workers, the CLI and
// the shared logic they call) import nothing from the page folders.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'src');
const core = join(src, 'core');

/** Every `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')` specifier of a source. */
export function specifiers(source: string): string[] {
  const out: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gms,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) out.push(m[1]);
  return out;
}

/** The graph of relative imports among the `.ts` (and `.astro`) files under `dir`: file → files it imports. */
function importGraph(dir: string, astro = false): Map<string, string[]> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') || (astro && f.endsWith('.astro')))
    .map((f) => join(dir, f));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s.replace(/\?.*$/, '')))
      .filter((t) => t.startsWith(dir + '/'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The cycles of a graph, one per strongly connected component of more than one node (or a self-import). */
function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the import graph of src/core', () => {
  it('reads every kind of import, type-only ones too', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import {\n  c,\n  type D,\n} from './c.ts';",
      "export { e } from './e.ts';",
      "export type { F } from './f.ts';",
      "import './g.css';",
      "const h = await import('./h.ts');",
    ].join('\n');
    assert.deepEqual(specifiers(source).sort(), ['./a.ts', './b.ts', './c.ts', './e.ts', './f.ts', './g.css', './h.ts']);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    assert.deepEqual(cycles(graph), [['a', 'b', 'c']]);
  });

  it('has no cycle', () => {
    const graph = importGraph(core);
    assert.ok(graph.size > 10, `${graph.size} modules`);
    const found = cycles(graph).map((c) => c.map((f) => relative(root, f)).join(' ↔ '));
    assert.deepEqual(found, []);
  });
});

/** The page folders: what draws and listens. Nothing below them imports them. */
const pages = ['src/playground', 'src/components', 'src/pages', 'src/layouts'];
/** The layers below the pages: the engine, the bench run module, the workers, the CLI, and the logic they share with the pages. */
const below = [
  'src/core', 'src/formats', 'src/bench', 'src/worker', 'src/cli', 'src/examples', 'src/tokens',
  'src/chat', 'src/prompt', 'src/share', 'src/session', 'src/digest', 'src/text-delta', 'src/shrink',
  'src/replay', 'src/compare', 'src/patch', 'src/search', 'src/index.ts',
];

describe('the import graph of src', () => {
  const graph = importGraph(src, true);
  const inside = (file: string, folders: string[]) =>
    folders.some((f) => file === join(root, f) || file.startsWith(join(root, f) + '/'));

  it('reads the whole tree, pages too', () => {
    assert.ok(graph.size > 200, `${graph.size} modules`);
    assert.ok([...graph.keys()].some((f) => f.endsWith('.astro')));
  });

  it('has no cycle', () => {
    const found = cycles(graph).map((c) => c.map((f) => relative(root, f)).join(' ↔ '));
    assert.deepEqual(found, []);
  });

  it('has no import from a layer below the pages up into a page folder', () => {
    const up: string[] = [];
    for (const [file, targets] of graph) {
      if (!inside(file, below)) continue;
      for (const t of targets) if (inside(t, pages)) up.push(`${relative(root, file)} → ${relative(root, t)}`);
    }
    assert.deepEqual(up, []);
  });

  it('names every folder of src as a page folder or a layer below the pages', () => {
    const top = readdirSync(src, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'styles' && e.name !== 'content')
      .map((e) => `src/${e.name}`);
    assert.deepEqual(top.filter((d) => !pages.includes(d) && !below.includes(d)), []);
  });
});

/**
 * The engine's stages in the order a request flows through them
 * (src/README.md draws them): no stage reaches a later one through its
 * imports (type-only ones too), and no module below the registry reaches
 * the stages after the plan: the formats read, the core places.
 */
const STAGES = [
  'src/core/request.ts', // check
  'src/core/reply.ts', // lex
  'src/formats/read.ts', // detect, read
  'src/formats/resolve.ts', // resolve
  'src/core/place.ts', // gather, place
  'src/core/verdict.ts', // verdict
  'src/core/splice.ts', // splice
  'src/core/report.ts', // report
  'src/core/run.ts', // place to report, composed
  'src/formats/index.ts', // the registry: every stage, composed
];

describe("the engine's stages", () => {
  const graph = importGraph(src);
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    const todo = [join(root, from)];
    while (todo.length) {
      const f = todo.pop()!;
      for (const t of graph.get(f) ?? []) if (!seen.has(t)) seen.add(t), todo.push(t);
    }
    return seen;
  };

  it('exist', () => {
    for (const s of STAGES) assert.ok(graph.has(join(root, s)), s);
  });

  it('reach no later stage', () => {
    const back: string[] = [];
    STAGES.forEach((s, i) => {
      const r = reach(s);
      for (const later of STAGES.slice(i + 1)) if (r.has(join(root, later))) back.push(`${s} → ${later}`);
    });
    assert.deepEqual(back, []);
  });

  it('src/core imports nothing from src/formats', () => {
    const up = [...graph].flatMap(([f, ts]) => (f.startsWith(core + '/') ? ts.filter((t) => t.startsWith(join(src, 'formats') + '/')).map((t) => `${relative(root, f)} → ${relative(root, t)}`) : []));
    assert.deepEqual(up, []);
  });

  /** The modules of src/formats that use the registry and the whole engine (a request's check, comparisons, streaming), not a format's reading. */
  const OVER_THE_REGISTRY = ['src/formats/index.ts', 'src/formats/validate.ts', 'src/formats/compare.ts', 'src/formats/stream.ts'];

  it('no format reaches the stages after the plan', () => {
    const after = ['src/core/place.ts', 'src/core/verdict.ts', 'src/core/splice.ts', 'src/core/report.ts', 'src/core/run.ts'].map((s) => join(root, s));
    const formatsDir = join(src, 'formats');
    const climbing: string[] = [];
    for (const f of graph.keys()) {
      if (!f.startsWith(formatsDir + '/') || OVER_THE_REGISTRY.includes(relative(root, f))) continue;
      const r = reach(relative(root, f));
      for (const a of after) if (r.has(a)) climbing.push(`${relative(root, f)} → ${relative(root, a)}`);
    }
    assert.deepEqual(climbing, []);
  });
});
