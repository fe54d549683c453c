// The replay page's post-game analysis (issue #33; GET /api/matches/{id}/analysis,
// docs/protocol.md): marks on the move list, a few sentences and a small SVG chart of
// the solver's verdict (solitaires) or the level-3 computer's estimate (table games)
// over the game.  Every word from the catalogues; moves worded by the game's renderer.

import { t } from "./i18n.js";
import { el } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * @typedef {import("./protocol").SolitaireAnalysis | import("./protocol").TableAnalysis} Analysis
 * @typedef {{ list: HTMLElement, describe: (a: string) => string, seatName: (i: number) => string,
 *   show: (step: number) => void }} Page
 */

/** @param {string} tag @param {{ [k: string]: string | number }} attrs */
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A small chart: one column per position (solitaire) or a line of values (table).
 * @param {number[]} values 0..1 or NaN (unknown) @param {string[]} colours @param {string} label */
function chart(values, colours, label) {
  const w = 300;
  const h = 60;
  const box = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "analysis-chart", role: "img", "aria-label": label });
  box.append(svg("rect", { x: 0, y: 0, width: w, height: h, fill: "#f4f4f0", stroke: "#999" }));
  const n = Math.max(values.length, 1);
  const bw = w / n;
  values.forEach((v, i) => {
    const val = Number.isNaN(v) ? 0.5 : v;
    const bh = Math.max(2, val * (h - 4));
    box.append(svg("rect", { x: i * bw, y: h - 2 - bh, width: Math.max(bw, 1), height: bh, fill: colours[i] }));
  });
  return box;
}

/** Put a mark on the move list's line of ``step``. @param {Page} page @param {number} step @param {string} text @param {string} kind */
function markLine(page, step, text, kind) {
  const li = page.list.querySelector(`li[data-step="${step}"]`);
  if (!li) return;
  li.classList.add("analysis-mark", `analysis-${kind}`);
  li.querySelector("button")?.append(" ", el("span", { class: `analysis-badge ${kind}`, text }));
}

/** @param {HTMLElement} box @param {import("./protocol").SolitaireAnalysis} a @param {Page} page */
function solitaire(box, a, page) {
  const colour = { winnable: "#2e7d32", unwinnable: "#b3261e", unknown: "#9e9e9e" };
  const height = { winnable: 1, unwinnable: 0.25, unknown: NaN };
  box.append(chart(a.positions.map((p) => height[p.verdict]), a.positions.map((p) => colour[p.verdict]), t("analysis.chart")));
  box.append(el("p", { class: "analysis-legend", text: t("analysis.chart") }));
  if (a.summary.start === "unwinnable") box.append(el("p", { text: t("analysis.never") }));
  if (!a.marks.length && a.summary.start !== "unwinnable" && !a.summary.unknown) box.append(el("p", { text: t("analysis.clean") }));
  for (const m of a.marks) {
    const vars = { step: m.step, round: m.round, from: m.last_winnable + 1, to: m.first_unwinnable ?? m.step };
    const key = m.kind === "redeal" ? "analysis.redeal" : m.kind === "resigned" ? "analysis.resigned" : m.exact ? "analysis.lost" : "analysis.lost_between";
    const item = el("div", { class: "analysis-item", "data-kind": m.kind, "data-step": String(m.step) }, el("p", { text: t(key, vars) }));
    markLine(page, m.step, t(m.kind === "redeal" ? "analysis.mark_redeal" : "analysis.mark_lost"), m.kind);
    if (m.line.length) {
      const line = el("ol", { class: "analysis-line", hidden: true, tabindex: "0", "aria-label": t("analysis.line_title", { step: m.step }) });
      for (const action of m.line) line.append(el("li", { "data-action": action, text: page.describe(action) }));
      const open = el("button", { type: "button", class: "analysis-show-line", "aria-expanded": "false", text: t("analysis.show_line", { step: m.step }) });
      open.addEventListener("click", () => {
        line.hidden = !line.hidden;
        open.setAttribute("aria-expanded", String(!line.hidden));
        if (!line.hidden) page.show(m.last_winnable);
      });
      item.append(open, line);
    }
    box.append(item);
  }
  if (a.summary.unknown) box.append(el("p", { text: t("analysis.unknown", { count: a.summary.unknown }) }));
}

/** @param {HTMLElement} box @param {import("./protocol").TableAnalysis} a @param {Page} page */
function table(box, a, page) {
  for (const seat of a.seats) {
    box.append(el("p", { class: "analysis-summary", text: t("analysis.doubtful", { name: page.seatName(seat), count: a.summary.doubtful[String(seat)] || 0 }) }));
  }
  const moves = a.moves;
  // A share (0..1) is drawn as it is; points (Kugler og Jokere) between the game's lowest and highest.
  const points = a.budget.units === "points";
  const lo = Math.min(...moves.map((m) => m.value));
  const hi = Math.max(...moves.map((m) => m.value));
  const height = (/** @type {number} */ v) => (!points ? v : hi > lo ? 0.1 + (0.9 * (v - lo)) / (hi - lo) : 0.5);
  if (moves.length) {
    const legend = t(points ? "analysis.chart_points" : "analysis.chart_value");
    box.append(chart(moves.map((m) => height(m.value)), moves.map((m) => (m.doubtful ? "#b3261e" : "#2f6fd6")), legend));
    box.append(el("p", { class: "analysis-legend", text: legend }));
    if (points) box.append(el("p", { class: "analysis-legend", text: t("analysis.points", { doubt: a.budget.doubt }) }));
  }
  // The move in words inside a sentence: "Kassér …" becomes "kassér …".
  const inner = (/** @type {string} */ s) => s.charAt(0).toLocaleLowerCase() + s.slice(1);
  const pct = (/** @type {number} */ v) => Math.round(v * 100);
  for (const m of moves.filter((x) => x.doubtful)) {
    markLine(page, m.step, t("analysis.mark_doubt"), "doubt");
    const text = points
      ? t("analysis.better_points", { step: m.step, best: inner(page.describe(m.best)), loss: Math.round(m.best_value - m.value) })
      : t("analysis.better", { step: m.step, best: page.describe(m.best), value: pct(m.value), best_value: pct(m.best_value) });
    box.append(el("p", { class: "analysis-item", "data-kind": "doubt", "data-step": String(m.step), text }));
  }
  if (a.summary.unknown) box.append(el("p", { text: t("analysis.unvalued", { count: a.summary.unknown }) }));
}

/**
 * Fetch and show the analysis of a finished match (nothing when the game has none or
 * is still running: GET /api/analysis lists the games that have one, so the page asks
 * for nothing it would be refused).
 * @param {HTMLElement} box @param {string} matchId @param {{ game: string, finished: boolean }} match
 * @param {{ [name: string]: string }} headers @param {Page} page
 */
export async function showAnalysis(box, matchId, match, headers, page) {
  if (!match.finished) return;
  /** @type {string[]} */
  const offered = await fetch("/api/analysis").then((r) => (r.ok ? r.json() : [])).catch(() => []);
  if (!offered.includes(match.game)) return;
  box.replaceChildren(el("h2", { text: t("analysis.title") }), el("p", { class: "analysis-wait", text: t("analysis.loading") }));
  box.hidden = false;
  let res;
  try {
    res = await fetch(`/api/matches/${encodeURIComponent(matchId)}/analysis`, { headers });
  } catch {
    res = null;
  }
  if (!res || !res.ok) {
    box.hidden = true;
    return;
  }
  /** @type {Analysis} */
  const a = await res.json();
  box.querySelector(".analysis-wait")?.remove();
  if (a.kind === "solitaire") solitaire(box, a, page);
  else table(box, a, page);
  box.dataset.ready = "1";
}
