// The leaderboard page (docs/web.md, "Leaderboard"): per table game and seat count the
// rated players best first (rank, name, rating, games), and — for a signed-in player —
// their rating for that choice and its history as a chart; below, the computers' own
// ladder for the same choice (bot_ladder.js).

import { ApiError, getGames, getLeaderboard, getPlayerRatings } from "./api.js";
import { showBotLadder } from "./bot_ladder.js";
import { svg, W } from "./charts.js";
import { currentLang, t } from "./i18n.js";
import { el, errorText, initPage, newestWins, showMessage } from "./ui.js";

/** @typedef {import("./protocol").GameInfo} GameInfo */
/** @typedef {import("./protocol").RatingChange} RatingChange */

const params = new URLSearchParams(location.search);

/** @param {unknown} err */
function fail(err) {
  const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
  showMessage(errorText(e.code, e.reason, e), "error");
}

/** @param {RatingChange[]} history */
function historyChart(history) {
  const H = 160;
  const pad = 30;
  const title = t("rating.chart");
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title });
  root.append(svg("title", {}, title));
  const values = [history[0].rating_before, ...history.map((h) => h.rating)];
  const lo = Math.min(...values) - 10;
  const hi = Math.max(...values) + 10;
  const x = (/** @type {number} */ i) => pad + ((W - pad - 8) * i) / Math.max(1, values.length - 1);
  const y = (/** @type {number} */ v) => H - 20 - ((H - 30) * (v - lo)) / (hi - lo);
  root.append(svg("text", { x: 2, y: 14, "font-size": 10 }, String(Math.round(hi))));
  root.append(svg("text", { x: 2, y: H - 20, "font-size": 10 }, String(Math.round(lo))));
  root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "),
    fill: "none", stroke: "#2f6fd6", "stroke-width": 2 }));
  for (const [i, v] of values.entries()) root.append(svg("circle", { cx: x(i), cy: y(v), r: 3, fill: "#2f6fd6" }));
  return root;
}

const choice = newestWins(); // the newest choice of game and seats: an older choice's answers draw nothing

/**
 * Draw the leaderboard, the caller's own rating and the computer ladder for one game and
 * seat count.  Choices can follow each other faster than the answers come, and answers
 * can come in any order: only the newest choice draws.
 * @param {GameInfo} g
 * @param {number} seats
 */
async function show(g, seats) {
  const stale = choice();
  const name = g.name[currentLang()] || g.name.da;
  const title = document.getElementById("board-title");
  if (title) title.textContent = t("rating.board_title", { game: name, seats });
  const table = /** @type {HTMLTableElement} */ (document.getElementById("board"));
  table.innerHTML = "";
  try {
    const board = await getLeaderboard(g.key, seats);
    if (stale()) return;
    table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("rating.rank") }),
      el("th", { scope: "col", text: t("rating.name") }), el("th", { scope: "col", text: t("rating.rating") }),
      el("th", { scope: "col", text: t("rating.games") }))));
    const body = el("tbody");
    for (const p of board.players) {
      body.append(el("tr", { "data-player": p.player_id }, el("td", { text: String(p.rank) }),
        el("th", { scope: "row", text: p.name }), el("td", { text: String(p.rating) }),
        el("td", { text: String(p.games) })));
    }
    if (board.mine) { // the caller's own provisional rating: not ranked, marked
      const p = board.mine;
      body.append(el("tr", { "data-player": p.player_id, class: "provisional" }, el("td", { text: "–" }),
        el("th", { scope: "row", text: `${p.name} (${t("rating.provisional")})` }), el("td", { text: String(p.rating) }),
        el("td", { text: String(p.games) })));
    }
    if (!board.players.length && !board.mine) body.append(el("tr", {}, el("td", { colspan: "4", text: t("rating.none") })));
    table.append(body);
    await showMine(g, board.class, stale);
  } catch (err) {
    if (stale()) return;
    fail(err);
  }
  if (stale()) return;
  try {
    await showBotLadder(g.key, name, seats);
  } catch (err) {
    if (!stale()) fail(err); // an older choice's ladder failing says nothing now
  }
}

/** @param {GameInfo} g @param {string} klass @param {() => boolean} stale */
async function showMine(g, klass, stale) {
  const box = document.getElementById("mine");
  const me = localStorage.getItem("spillebord.player");
  if (!box || !me) return;
  const mine = await getPlayerRatings(me);
  if (stale()) return;
  const now = mine.ratings.find((r) => r.game === g.key && r.class === klass);
  const history = mine.history.filter((h) => h.game === g.key && h.class === klass);
  box.hidden = !now;
  if (!now) return;
  const line = document.getElementById("mine-now");
  if (line) {
    line.textContent = t("rating.mine_now", { rating: now.rating, games: now.games });
    if (now.provisional) line.textContent += ` ${t("rating.provisional_note", { games: 10, others: 3 })}`;
  }
  document.getElementById("mine-chart")?.replaceChildren(historyChart(history));
}

async function main() {
  await initPage();
  /** @type {GameInfo[]} */
  let games = [];
  try {
    games = (await getGames()).filter((g) => !g.solitaire);
  } catch (err) {
    fail(err);
    return;
  }
  const form = document.getElementById("board-choice");
  if (!form || !games.length) return;
  const game = el("select", { id: "board-game", name: "game" });
  for (const g of games) game.append(el("option", { value: g.key, text: g.name[currentLang()] || g.name.da }));
  const seats = el("select", { id: "board-seats", name: "seats" });
  form.append(el("label", { for: "board-game" }, t("lobby.game"), game),
    el("label", { for: "board-seats" }, t("start.seat_count"), seats));
  const chosen = () => games.find((g) => g.key === game.value) || games[0];
  const fillSeats = () => {
    const g = chosen();
    seats.innerHTML = "";
    for (const n of g.seats) seats.append(el("option", { value: String(n), text: String(n) }));
    seats.value = String(g.default_seats);
  };
  game.value = params.get("game") || games[0].key;
  fillSeats();
  if (params.get("seats")) seats.value = String(params.get("seats"));
  game.addEventListener("change", () => {
    fillSeats();
    show(chosen(), Number(seats.value));
  });
  seats.addEventListener("change", () => show(chosen(), Number(seats.value)));
  await show(chosen(), Number(seats.value));
  document.body.dataset.ready = "1";
}

main();
