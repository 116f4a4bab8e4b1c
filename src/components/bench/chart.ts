// A small chart of a run: for each format, three bars (parsed, applied,
// exact) of 0 to 100 %, each labelled with its name and value in text, so
// nothing is told by colour alone. Inline SVG made with DOM APIs; colours
// from the site's variables (light and dark).

import type { FormatSummary } from '../../bench/types.ts';
import { percent } from './numbers.ts';

const SVG = 'http://www.w3.org/2000/svg';
const BARS = ['parsed', 'applied', 'exact'] as const;
const WIDTH = 400;
const LABEL = 56;
const HEAD = 18;
const BAR = 14;
const GAP = 3;
const GROUP_GAP = 12;
const VALUE = 44;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

export function rateChart(summaries: readonly FormatSummary[]): SVGSVGElement {
  const group = HEAD + BARS.length * (BAR + GAP) + GROUP_GAP;
  const height = Math.max(1, summaries.length * group);
  const span = WIDTH - LABEL - VALUE;
  const description = summaries
    .map((s) => `${s.format}: parsed ${percent(s.rates.parsed)}, applied ${percent(s.rates.applied)}, exact ${percent(s.rates.exact)}`)
    .join('; ');
  const svg = el('svg', { viewBox: `0 0 ${WIDTH} ${height}`, class: 'bn-chart-svg', role: 'img', 'aria-label': `Rates per format. ${description}.` });
  svg.append(el('title', {}, 'Parsed, applied and exact replies per format'));
  summaries.forEach((s, i) => {
    const top = i * group;
    svg.append(el('text', { x: 0, y: top + HEAD - 5, class: 'bn-chart-format' }, s.format));
    BARS.forEach((kind, k) => {
      const y = top + HEAD + k * (BAR + GAP);
      const value = s.rates[kind];
      svg.append(el('rect', { x: LABEL, y, width: span, height: BAR, class: 'bn-chart-track', rx: 2 }));
      svg.append(el('rect', { x: LABEL, y, width: Math.max(value > 0 ? 1 : 0, value * span), height: BAR, class: `bn-chart-bar bn-chart-${kind}`, rx: 2 }));
      svg.append(el('text', { x: LABEL - 6, y: y + BAR - 3, class: 'bn-chart-kind', 'text-anchor': 'end' }, kind));
      svg.append(el('text', { x: WIDTH - VALUE + 6, y: y + BAR - 3, class: 'bn-chart-value' }, percent(value)));
    });
  });
  return svg;
}
