// SVG charts for the statistics: cumulative lines over time, and horizontal bars whose
// labels sit on the left and wrap between words — a label is never cut mid-word (a word
// too long for the label column is drawn smaller instead).  Each chart is an `img` with
// its title; the numbers are also in the statistics table (stats.js) for screen readers.

const NS = "http://www.w3.org/2000/svg";
export const W = 340;
const PAD = 28;
const FONT = 11;
const LABEL_W = 112; // the label column of a bar chart
const CHAR = 0.58; // average glyph width per font-size unit (system sans-serif)

/**
 * @param {string} tag
 * @param {{ [name: string]: string | number }} [attrs]
 * @param {string} [text]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, text) {
  const node = /** @type {SVGElement} */ (document.createElementNS(NS, tag));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** @param {string} title @param {number} height */
function frame(title, height) {
  const root = svg("svg", { viewBox: `0 0 ${W} ${height}`, class: "chart", role: "img", "aria-label": title });
  root.append(svg("title", {}, title));
  return root;
}

/** @typedef {[string, string]} Series a name and its colour */

/** @param {SVGElement} root @param {Series[]} items @param {number} y */
function legend(root, items, y) {
  let x = 8;
  for (const [name, colour] of items) {
    root.append(svg("rect", { x, y: y - 9, width: 10, height: 10, fill: colour }));
    root.append(svg("text", { x: x + 14, y, "font-size": FONT }, name));
    x += 14 + name.length * FONT * CHAR + 16;
  }
}

// Splits `text` into lines of at most `width` px at the spaces; returns {lines, size}:
// the font size is reduced only when one word is wider than the width alone.
/**
 * @param {string} text
 * @param {number} width
 * @param {number} [size]
 * @returns {{ lines: string[], size: number }}
 */
export function wrapLabel(text, width, size = FONT) {
  const words = String(text).split(/\s+/).filter(Boolean);
  const longest = Math.max(...words.map((w) => w.length), 1);
  const fit = Math.min(size, width / (longest * CHAR));
  const perLine = Math.max(1, Math.floor(width / (fit * CHAR)));
  /** @type {string[]} */
  const lines = [];
  let line = "";
  for (const w of words) {
    const next = line ? `${line} ${w}` : w;
    if (line && next.length > perLine) {
      lines.push(line);
      line = w;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return { lines, size: Math.round(fit * 10) / 10 };
}

/** @param {SVGElement} root @param {string} text @param {number} x @param {number} yMid */
function label(root, text, x, yMid) {
  const { lines, size } = wrapLabel(text, LABEL_W - 8);
  const node = svg("text", { x, "font-size": size, "text-anchor": "end", class: "chart-label" });
  const lineH = size * 1.15;
  lines.forEach((line, i) => {
    node.append(svg("tspan", { x, y: yMid - ((lines.length - 1) * lineH) / 2 + i * lineH + size * 0.35 }, line));
  });
  root.append(node);
  return lines.length * lineH;
}

// Horizontal bars: groups [{label, values: [..]}], series [[name, colour]]; `format`
// writes a value at the end of its bar; `max` fixes the scale (e.g. 100 for percents).
/**
 * @param {string} title
 * @param {{ label: string, values: number[] }[]} groups
 * @param {Series[]} series
 * @param {{ max?: number, format?: (v: number) => string }} [options]
 */
export function barsChart(title, groups, series, { max, format = String } = {}) {
  const top = 8;
  const barH = 11;
  const rows = groups.map((g) => {
    const { lines, size } = wrapLabel(g.label, LABEL_W - 8);
    return Math.max(lines.length * size * 1.15, series.length * barH) + 10;
  });
  const height = top + rows.reduce((a, b) => a + b, 0) + 26;
  const root = frame(title, height);
  const scale = max ?? Math.max(1, ...groups.flatMap((g) => g.values));
  const x0 = LABEL_W;
  const span = W - x0 - 34;
  root.append(svg("line", { x1: x0, y1: top, x2: x0, y2: height - 24, stroke: "#666" }));
  let y = top;
  groups.forEach((g, gi) => {
    const rowH = rows[gi];
    label(root, g.label, x0 - 6, y + rowH / 2);
    const start = y + (rowH - series.length * barH) / 2;
    g.values.forEach((v, si) => {
      const w = (span * v) / scale;
      const by = start + si * barH;
      const rect = svg("rect", { x: x0, y: by, width: Math.max(0, w), height: barH - 2, fill: series[si][1], class: "bar" });
      rect.append(svg("title", {}, `${g.label}: ${series[si][0]} ${format(v)}`));
      root.append(rect);
      root.append(svg("text", { x: x0 + w + 3, y: by + barH - 3, "font-size": 9 }, format(v)));
    });
    y += rowH;
  });
  legend(root, series, height - 6);
  return root;
}

// Cumulative lines over the finished games (x: game number, y: count).
/**
 * @param {string} title
 * @param {{ cumulative_wins: number }[]} timeline
 * @param {Series} games
 * @param {Series} wins
 */
export function linesChart(title, timeline, games, wins) {
  const H = 180;
  const root = frame(title, H);
  root.append(svg("line", { x1: PAD, y1: H - PAD, x2: W - 6, y2: H - PAD, stroke: "#666" }));
  root.append(svg("line", { x1: PAD, y1: 8, x2: PAD, y2: H - PAD, stroke: "#666" }));
  const n = timeline.length;
  const max = Math.max(1, n);
  root.append(svg("text", { x: PAD - 4, y: 14, "text-anchor": "end", "font-size": 10 }, String(max)));
  root.append(svg("text", { x: PAD - 4, y: H - PAD, "text-anchor": "end", "font-size": 10 }, "0"));
  const x = (/** @type {number} */ i) => PAD + ((W - PAD - 10) * (i + 1)) / Math.max(1, n);
  const y = (/** @type {number} */ v) => H - PAD - ((H - PAD - 10) * v) / max;
  const all = timeline.map((_, i) => `${x(i)},${y(i + 1)}`).join(" ");
  const won = timeline.map((e, i) => `${x(i)},${y(e.cumulative_wins)}`).join(" ");
  root.append(svg("polyline", { points: `${PAD},${y(0)} ${all}`, fill: "none", stroke: games[1], "stroke-width": 2.5, class: "line-games" }));
  root.append(svg("polyline", { points: `${PAD},${y(0)} ${won}`, fill: "none", stroke: wins[1], "stroke-width": 2.5, class: "line-wins" }));
  legend(root, [games, wins], H - 6);
  return root;
}

// Dots on a scale that need not start at 0 (ratings): one row per item, its label on the
// left, a dot at its value with the value beside it, the scale's ends written below.
// `note` goes into the dot's tooltip (e.g. the games played).
/**
 * @param {string} title
 * @param {{ label: string, value: number, note?: string }[]} rows
 */
export function dotsChart(title, rows) {
  const top = 8;
  const heights = rows.map((r) => {
    const { lines, size } = wrapLabel(r.label, LABEL_W - 8);
    return Math.max(lines.length * size * 1.15, 14) + 8;
  });
  const height = top + heights.reduce((a, b) => a + b, 0) + 22;
  const root = frame(title, height);
  const values = rows.map((r) => r.value);
  const step = 50;
  const lo = Math.floor((Math.min(...values) - 10) / step) * step;
  const hi = Math.ceil((Math.max(...values) + 10) / step) * step;
  const x0 = LABEL_W;
  const span = W - x0 - 40;
  const x = (/** @type {number} */ v) => x0 + (span * (v - lo)) / Math.max(1, hi - lo);
  const base = height - 20;
  root.append(svg("line", { x1: x0, y1: base, x2: x0 + span, y2: base, stroke: "#666" }));
  root.append(svg("text", { x: x0, y: base + 13, "font-size": 10, "text-anchor": "middle" }, String(lo)));
  root.append(svg("text", { x: x0 + span, y: base + 13, "font-size": 10, "text-anchor": "middle" }, String(hi)));
  let y = top;
  rows.forEach((r, i) => {
    const mid = y + heights[i] / 2;
    label(root, r.label, x0 - 6, mid);
    root.append(svg("line", { x1: x0, y1: mid, x2: x0 + span, y2: mid, stroke: "#e3e3e3" }));
    const dot = svg("circle", { cx: x(r.value), cy: mid, r: 5, fill: "#2f6fd6", class: "dot" });
    dot.append(svg("title", {}, r.note ? `${r.label}: ${r.value} (${r.note})` : `${r.label}: ${r.value}`));
    root.append(dot);
    root.append(svg("text", { x: x(r.value) + 8, y: mid + 4, "font-size": 10 }, String(r.value)));
    y += heights[i];
  });
  return root;
}
