// @ts-nocheck -- issue 21: JSDoc types for this module are being added; remove this line then
// The player's statistics on the start page, drawn as SVG charts: games and wins over
// time (cumulative lines), bonus points per game, and results against each bot kind.
// Also the list of the browser's games: finished ones open as replays.

import { getStats, knownMatches } from "./api.js";
import { currentLang, t } from "./i18n.js";
import { botName } from "./panel.js";
import { el } from "./ui.js";

const NS = "http://www.w3.org/2000/svg";
const W = 320;
const H = 180;
const PAD = 28;

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function frame(title) {
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title });
  root.append(svg("title", {}, title));
  root.append(svg("line", { x1: PAD, y1: H - PAD, x2: W - 6, y2: H - PAD, stroke: "#666" }));
  root.append(svg("line", { x1: PAD, y1: 8, x2: PAD, y2: H - PAD, stroke: "#666" }));
  return root;
}

function yAxis(root, max) {
  root.append(svg("text", { x: PAD - 4, y: 14, "text-anchor": "end", "font-size": 10 }, String(max)));
  root.append(svg("text", { x: PAD - 4, y: H - PAD, "text-anchor": "end", "font-size": 10 }, "0"));
}

function legend(root, items) {
  items.forEach(([label, colour], i) => {
    const x = PAD + 8 + i * 110;
    root.append(svg("rect", { x, y: H - 14, width: 10, height: 10, fill: colour }));
    root.append(svg("text", { x: x + 14, y: H - 5, "font-size": 11 }, label));
  });
}

export function linesChart(timeline) {
  const title = t("stats.chart_over_time");
  const root = frame(title);
  const n = timeline.length;
  const max = Math.max(1, n);
  yAxis(root, max);
  const x = (i) => PAD + ((W - PAD - 10) * (i + 1)) / Math.max(1, n);
  const y = (v) => H - PAD - ((H - PAD - 10) * v) / max;
  const games = timeline.map((_, i) => `${x(i)},${y(i + 1)}`).join(" ");
  const wins = timeline.map((e, i) => `${x(i)},${y(e.cumulative_wins)}`).join(" ");
  root.append(svg("polyline", { points: `${PAD},${y(0)} ${games}`, fill: "none", stroke: "#2f6fd6", "stroke-width": 2.5, class: "line-games" }));
  root.append(svg("polyline", { points: `${PAD},${y(0)} ${wins}`, fill: "none", stroke: "#1f8a4c", "stroke-width": 2.5, class: "line-wins" }));
  legend(root, [[t("stats.games"), "#2f6fd6"], [t("stats.wins"), "#1f8a4c"]]);
  return root;
}

export function barsChart(title, groups, series) {
  const root = frame(title);
  const max = Math.max(1, ...groups.flatMap((g) => g.values));
  yAxis(root, max);
  const slot = (W - PAD - 10) / Math.max(1, groups.length);
  const bw = Math.min(28, (slot - 8) / series.length);
  groups.forEach((g, gi) => {
    g.values.forEach((v, si) => {
      const h = ((H - PAD - 10) * v) / max;
      const x = PAD + 4 + gi * slot + si * bw;
      const rect = svg("rect", { x, y: H - PAD - h, width: bw - 2, height: h, fill: series[si][1], class: "bar" });
      rect.append(svg("title", {}, `${g.label}: ${series[si][0]} ${v}`));
      root.append(rect);
    });
    root.append(svg("text", { x: PAD + 4 + gi * slot, y: H - PAD + 12, "font-size": 10 }, g.label));
  });
  legend(root, series);
  return root;
}

// Draws the charts; returns the ids of the player's finished matches (for the history).
export async function renderStats(box, player, games) {
  box.innerHTML = "";
  if (!player) return new Set();
  let s;
  try {
    s = await getStats(player);
  } catch {
    box.append(el("p", { text: t("stats.unavailable") }));
    return new Set();
  }
  const finished = new Set((s.timeline || []).map((e) => e.match_id));
  const name = (key) => {
    const g = games.find((x) => x.key === key);
    return g ? g.name[currentLang()] || g.name.da : key;
  };
  box.append(el("p", { class: "stats-summary", text: t("stats.summary", { games: s.games, finished: s.finished, wins: s.wins, bonus: s.bonus }) }));
  if (!s.games) {
    box.append(el("p", { text: t("stats.none") }));
    return finished;
  }
  const charts = el("div", { class: "charts" });
  charts.append(linesChart(s.timeline || []));
  const byGame = Object.entries(s.by_game || {});
  charts.append(barsChart(t("stats.chart_bonus"),
    byGame.map(([k, v]) => ({ label: name(k).slice(0, 10), values: [v.bonus, v.wins] })),
    [[t("stats.bonus"), "#e0a100"], [t("stats.wins"), "#1f8a4c"]]));
  if ((s.bots || []).length) {
    charts.append(barsChart(t("stats.chart_bots"),
      s.bots.map((b) => ({ label: `${name(b.game).slice(0, 6)}/${botName(b.bot, b.level)}`, values: [b.player_wins, b.bot_wins] })),
      [[t("stats.you"), "#2f6fd6"], [t("stats.bot"), "#d94b3d"]]));
  }
  for (const svgNode of [...charts.children]) {
    const fig = el("figure", { class: "chart-figure" }, el("figcaption", { text: svgNode.getAttribute("aria-label") }));
    svgNode.replaceWith(fig);
    fig.append(svgNode);
  }
  box.append(charts);
  return finished;
}

export function renderHistory(box, games, finished) {
  box.innerHTML = "";
  const list = knownMatches();
  if (!list.length) {
    box.append(el("p", { text: t("history.none") }));
    return;
  }
  const name = (key) => {
    const g = games.find((x) => x.key === key);
    return g ? g.name[currentLang()] || g.name.da : key;
  };
  const ul = el("ul", { class: "history" });
  for (const m of list.slice(0, 20)) {
    const when = new Date(m.time).toLocaleString(currentLang() === "da" ? "da-DK" : "en-GB");
    ul.append(el("li", { "data-match": m.match_id },
      `${name(m.game)} — ${when} `,
      el("a", { href: `/play/${m.match_id}`, text: t("history.open") }), " ",
      finished.has(m.match_id) ? el("a", { href: `/replay/${m.match_id}`, text: t("history.replay") }) : ""));
  }
  box.append(ul);
}
