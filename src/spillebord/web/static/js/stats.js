// The player's statistics (server/stats.py computes them): on the start page a summary
// and charts — games and wins over time, win rate per game, bonus points, results
// against each bot; on the statistics page (/stats) also one accessible table per game
// with its dates, win rate, streaks and the solitaires' best time and fewest moves, and
// a table and chart of the solitaires' hints (won without hints, hints per game and per
// won game).  Also the list of the browser's games: finished ones open as replays, a
// solitaire says its hints ("med 4 tip").

import { getMyGames, getStats, knownMatches } from "./api.js";
import { currentLang, t } from "./i18n.js";
import { botName, seatLabel } from "./names.js";
import { barsChart, linesChart } from "./charts.js";
import { formatTime } from "./extras.js";
import { el, newestWins } from "./ui.js";

const BLUE = "#2f6fd6";
const GREEN = "#1f8a4c";
const GOLD = "#e0a100";
const RED = "#d94b3d";

/** @typedef {import("./protocol").GameInfo} GameInfo */
/** @typedef {import("./protocol").GameTotals} GameTotals */
/** @typedef {import("./protocol").TimelinePoint} TimelinePoint */

/** @param {number} v */
function percent(v) {
  return `${Math.round(v)} %`;
}

/** @param {string | null} iso */
function day(iso) {
  return iso ? new Date(iso).toLocaleDateString(currentLang() === "da" ? "da-DK" : "en-GB") : "–";
}

// One row per game: the numbers of the charts, readable by a screen reader.
/**
 * @param {[string, GameTotals][]} byGame
 * @param {(key: string) => string} name
 */
function gameTable(byGame, name) {
  const cols = ["game", "played", "finished", "wins", "win_rate", "streak_now", "streak_best",
    "best_time", "best_moves", "first", "last"];
  const head = el("tr", {}, ...cols.map((c) => el("th", { scope: "col", text: t(`stats.col_${c}`) })));
  const body = el("tbody");
  for (const [key, g] of byGame) {
    const cells = [
      g.games, g.finished, g.wins,
      g.win_rate === null ? "–" : percent(100 * g.win_rate),
      g.current_streak, g.longest_streak,
      g.best_seconds === null || g.best_seconds === undefined ? "–" : formatTime(g.best_seconds),
      g.best_moves ?? "–", day(g.first), day(g.last),
    ];
    body.append(el("tr", { "data-game": key }, el("th", { scope: "row", text: name(key) }),
      ...cells.map((c) => el("td", { text: String(c) }))));
  }
  const table = el("table", { class: "stats-table" }, el("caption", { text: t("stats.table_caption") }),
    el("thead", {}, head), body);
  return el("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-label": t("stats.table_caption") }, table);
}

/** @param {number | null} v */
function decimal(v) {
  return v === null ? "–" : v.toLocaleString(currentLang() === "da" ? "da-DK" : "en-GB", { maximumFractionDigits: 1 });
}

// The solitaires' hints, one row per solitaire played to its end (the server counts a
// hint when it answers one; docs/web.md "Hints are counted").
/**
 * @param {[string, GameTotals][]} byGame
 * @param {(key: string) => string} name
 */
function hintsTable(byGame, name) {
  const cols = ["game", "wins", "won_without_hints", "hints", "hints_per_game", "hints_per_win"];
  const head = el("tr", {}, ...cols.map((c) => el("th", { scope: "col", text: t(`stats.col_${c}`) })));
  const body = el("tbody");
  for (const [key, g] of byGame) {
    const cells = [g.wins, g.won_without_hints ?? 0, g.hints ?? 0, decimal(g.hints_per_game), decimal(g.hints_per_win)];
    body.append(el("tr", { "data-hints": key }, el("th", { scope: "row", text: name(key) }),
      ...cells.map((c) => el("td", { text: String(c) }))));
  }
  const table = el("table", { class: "hints-table" }, el("caption", { text: t("stats.hints_caption") }),
    el("thead", {}, head), body);
  return el("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-label": t("stats.hints_caption") }, table);
}

// Draws the charts; returns the player's finished matches by id (for the history).
// `full`: the statistics page (the table and every chart).
/**
 * @param {HTMLElement} box
 * @param {string | null} player
 * @param {GameInfo[]} games
 * @param {{ full?: boolean }} [opts]
 * @returns {Promise<Map<string, TimelinePoint>>}
 */
export async function renderStats(box, player, games, { full = false } = {}) {
  box.innerHTML = "";
  if (!player) return new Map();
  let s;
  try {
    s = await getStats(player);
  } catch {
    box.append(el("p", { text: t("stats.unavailable") }));
    return new Map();
  }
  const finished = new Map((s.timeline || []).map((e) => [e.match_id, e]));
  const name = (/** @type {string} */ key) => {
    const g = games.find((x) => x.key === key);
    return g ? g.name[currentLang()] || g.name.da : key;
  };
  box.append(el("p", { class: "stats-summary", text: t("stats.summary", { games: s.games, finished: s.finished, wins: s.wins, points: s.bonus }) }));
  if (!s.games) {
    box.append(el("p", { text: t("stats.none") }));
    return finished;
  }
  const byGame = Object.entries(s.by_game || {}).sort(([a], [b]) =>
    games.findIndex((g) => g.key === a) - games.findIndex((g) => g.key === b));
  if (full) box.append(gameTable(byGame, name));
  // The solitaires played to the end (a table game's hints are null).
  const hinted = byGame.filter(([, v]) => v.hints !== null && v.hints !== undefined && v.finished);
  if (full && hinted.length) box.append(hintsTable(hinted, name));
  const charts = el("div", { class: "charts" });
  charts.append(linesChart(t("stats.chart_over_time"), s.timeline || [], [t("stats.games"), BLUE], [t("stats.wins"), GREEN]));
  const played = byGame.filter(([, v]) => v.finished);
  if (played.length) {
    charts.append(barsChart(t("stats.chart_win_rate"),
      played.map(([k, v]) => ({ label: name(k), values: [100 * (v.win_rate ?? 0)] })),
      [[t("stats.col_win_rate"), GREEN]], { max: 100, format: percent }));
  }
  if (full && played.length) {
    charts.append(barsChart(t("stats.chart_streaks"),
      played.map(([k, v]) => ({ label: name(k), values: [v.current_streak, v.longest_streak] })),
      [[t("stats.col_streak_now"), BLUE], [t("stats.col_streak_best"), GREEN]]));
  }
  if (full && hinted.some(([, v]) => v.wins)) {
    charts.append(barsChart(t("stats.chart_hints"),
      hinted.map(([k, v]) => ({ label: name(k), values: [v.won_without_hints ?? 0, v.wins - (v.won_without_hints ?? 0)] })),
      [[t("stats.without_hints"), GREEN], [t("stats.with_hints"), GOLD]]));
  }
  charts.append(barsChart(t("stats.chart_bonus"),
    byGame.map(([k, v]) => ({ label: name(k), values: [v.bonus, v.wins] })),
    [[t("stats.bonus"), GOLD], [t("stats.wins"), GREEN]]));
  if ((s.bots || []).length) {
    charts.append(barsChart(t("stats.chart_bots"),
      s.bots.map((b) => ({ label: `${name(b.game)} / ${botName(b.bot, b.level)}`, values: [b.player_wins, b.bot_wins] })),
      [[t("stats.you"), BLUE], [t("stats.bot"), RED]]));
  }
  for (const svgNode of [...charts.children]) {
    const fig = el("figure", { class: "chart-figure" }, el("figcaption", { text: svgNode.getAttribute("aria-label") }));
    svgNode.replaceWith(fig);
    fig.append(svgNode);
  }
  box.append(charts);
  return finished;
}

// "med 4 tip" for a solitaire given hints, "uden tip" for one won without; else nothing.
/** @param {number | null | undefined} hints @param {boolean} won */
function hintsNote(hints, won) {
  if (hints === null || hints === undefined || (!hints && !won)) return null;
  return t("history.hints", { count: hints });
}

const historyTurn = newestWins(); // the newest renderHistory call (see there)

/**
 * "Dine spil".  The server knows the player's games (GET /api/me/games): a signed-in
 * player's on any device, a guest's by its id — with the result, the place or bonus and
 * the others at the table.  A guest's list is the games its browser holds (a game opened
 * by a link too), each told as the server knows it where it does.
 * @param {HTMLElement} box
 * @param {GameInfo[]} games
 * @param {Map<string, TimelinePoint>} finished the player's finished games (statistics)
 */
export async function renderHistory(box, games, finished) {
  // Only the newest call draws: a render begun while signed in must not draw the account's
  // games after a sign-out that started a newer one (its fetch may answer last).
  const stale = historyTurn();
  const mine = await getMyGames().catch(() => null);
  if (stale()) return;
  box.innerHTML = "";
  const name = (/** @type {string | null} */ key) => {
    const g = games.find((x) => x.key === key);
    return g ? g.name[currentLang()] || g.name.da : key ?? "";
  };
  if (mine && document.getElementById("account")?.dataset.account === "1") {
    renderServerHistory(box, name, mine.games);
    return;
  }
  box.dataset.source = "browser";
  const list = knownMatches();
  if (!list.length) {
    box.append(el("p", { text: t("history.none") }));
    return;
  }
  const known = new Map((mine ? mine.games : []).map((g) => [g.match_id, g]));
  const ul = el("ul", { class: "history" });
  for (const m of list.slice(0, 20)) {
    const told = known.get(m.match_id);
    /** @type {string[]} */
    let parts;
    if (told) parts = entryParts(told, name);
    else {
      // not the guest's seat on the server (opened by a link): what the statistics say
      const when = dateTime(m.time ?? 0);
      const done = finished.get(m.match_id);
      parts = [`${name(m.game)} — ${when}`];
      if (done) parts.push(t(done.won ? "history.won" : "history.lost"));
      const hints = done ? hintsNote(done.hints, done.won) : null;
      if (hints) parts.push(hints);
    }
    const over = told ? told.status === "finished" : finished.has(m.match_id);
    ul.append(el("li", { "data-match": m.match_id, "data-result": told ? told.result || "running" : null },
      `${parts.join(" · ")} `,
      el("a", { href: `/play/${m.match_id}`, text: t("history.open") }), " ",
      over ? el("a", { href: `/replay/${m.match_id}`, text: t("history.replay") }) : ""));
  }
  box.append(ul);
}

/** A game's date and time as the page's language writes it. @param {string | number} at */
function dateTime(at) {
  return new Date(at).toLocaleString(currentLang() === "da" ? "da-DK" : "en-GB");
}

/**
 * One game as the server tells it: game, date, result, place or bonus, hints, the
 * others at the table.
 * @param {import("./protocol").MyGame} m @param {(key: string) => string} name
 */
function entryParts(m, name) {
  const when = dateTime(m.created);
  const result = m.status === "running" ? t("history.running") : t(`history.${m.left ? "gave_up" : m.result || "lost"}`);
  const parts = [`${name(m.game)} — ${when} — ${result}`];
  if (m.seats > 1 && m.place) parts.push(t("history.place", { n: m.place }));
  if (m.seats === 1 && m.bonus) parts.push(t("history.bonus", { n: m.bonus }));
  const hints = m.seats === 1 ? hintsNote(m.hints, m.result === "won") : null;
  if (hints) parts.push(hints);
  if (m.opponents.length) {
    const who = m.opponents.map((o) => seatLabel(o, o.seat));
    parts.push(t("history.against", { names: who.join(", ") }));
  }
  return parts;
}

/**
 * The signed-in player's games as the server has them, with open / replay links.
 * @param {HTMLElement} box
 * @param {(key: string) => string} name
 * @param {import("./protocol").MyGame[]} list
 */
function renderServerHistory(box, name, list) {
  box.dataset.source = "server";
  if (!list.length) {
    box.append(el("p", { text: t("history.none") }));
    return;
  }
  const ul = el("ul", { class: "history" });
  for (const m of list.slice(0, 20)) {
    ul.append(el("li", { "data-match": m.match_id, "data-result": m.result || "running" },
      `${entryParts(m, name).join(" · ")} `,
      m.status === "running" ? el("a", { href: m.play_url, text: t("history.open") }) : "", " ",
      m.replay_url ? el("a", { href: m.replay_url, text: t("history.replay") }) : ""));
  }
  box.append(ul);
}
