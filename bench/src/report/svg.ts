import type { ScenarioResult } from '../run.js';
import type { Role } from '../scenarios.js';

/**
 * A horizontal bar chart of throughput, one group per scenario. Bars are scaled to the fastest
 * contender of their own scenario (scenarios differ by orders of magnitude) and labelled with req/s.
 */

const COLORS: Record<Role, string> = {
  ceiling: '#9e9e9e',
  'hono-bare': '#bdbdbd',
  'bun-bare': '#d4c28a',
  'json-echo': '#bdbdbd',
  sdk: '#e07b39',
  rondo: '#2a6fdb',
  'rondo-fixture': '#4a58a8',
  'rondo-express': '#5b9bf0',
  'rondo-fetch-node': '#1f9bb5',
  'rondo-fetch-bun': '#f2b705',
  'rondo-bridge': '#7a4fc9',
  'swipl-echo': '#b0b0b0',
  'swipl-term-echo': '#909090',
  'rondo-noop-middleware': '#3fa37a',
  'rondo-otel': '#c9a23f',
  'rondo-policy': '#b05fa8',
  'rondo-redis': '#d6453d',
  'rondo-replicas': '#8c2d28',
  'rondo-replicas-memory': '#6b6b6b',
  'rondo-gateway': '#2f8f5b',
  'stdio-relay': '#9a9a9a',
  'sdk-client': '#e07b39',
  'rondo-client': '#2a6fdb',
  'rondo-client-fetch': '#5b9bf0',
};

const WIDTH = 960;
const LABEL_WIDTH = 190;
const BAR_AREA = 600;
const BAR_HEIGHT = 18;
const GAP = 4;
const TITLE_HEIGHT = 26;

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function scenarioGroup(scenario: ScenarioResult, top: number): { svg: string; height: number } {
  const best = Math.max(1, ...scenario.contenders.map((c) => c.requestsPerSecond));
  const parts = [
    `<text x="8" y="${top + 17}" class="title">${escape(`${scenario.id}: ${scenario.title}`)}</text>`,
  ];
  scenario.contenders.forEach((c, i) => {
    const y = top + TITLE_HEIGHT + i * (BAR_HEIGHT + GAP);
    const width = Math.max(1, (c.requestsPerSecond / best) * BAR_AREA);
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + 13}" text-anchor="end">${escape(c.label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${COLORS[c.role]}"/>`,
      `<text x="${(LABEL_WIDTH + width + 6).toFixed(1)}" y="${y + 13}">${c.requestsPerSecond.toFixed(0)} req/s, p99 ${c.p99Ms.toFixed(1)} ms</text>`,
    );
  });
  return {
    svg: parts.join('\n'),
    height: TITLE_HEIGHT + scenario.contenders.length * (BAR_HEIGHT + GAP) + 14,
  };
}

/** The chart as an SVG document. */
export function renderSvg(scenarios: ScenarioResult[], caption: string): string {
  let top = 34;
  const groups: string[] = [];
  for (const scenario of scenarios) {
    const group = scenarioGroup(scenario, top);
    groups.push(group.svg);
    top += group.height;
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${top + 10}" viewBox="0 0 ${WIDTH} ${top + 10}" font-family="sans-serif" font-size="12">`,
    '<style>.title{font-weight:bold;font-size:13px}</style>',
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="8" y="20" class="title">${escape(caption)}</text>`,
    ...groups,
    '</svg>',
    '',
  ].join('\n');
}
