// The lobby page (docs/web.md, "Lobby"): "Hurtigt spil" per table game, seat count and
// turn timer (a seat at the first public table that fits, or a new one, with bots after
// a chosen wait), and the open public tables, live from /ws/lobby (docs/protocol.md):
// game, variants, the turn timer, each seat's player name, bot or a button that takes it
// with one click, how long the table has waited and when bots sit down.

import { ApiError, ensurePlayer, getGames, quickMatch, rememberMatch, saveToken, takeSeat } from "./api.js";
import { currentLang, t } from "./i18n.js";
import { botName, seatLabel } from "./names.js";
import { el, errorText, initPage, showMessage } from "./ui.js";

/** @typedef {import("./protocol").GameInfo} GameInfo */
/** @typedef {import("./protocol").LobbyTable} LobbyTable */
/** @typedef {import("./protocol").SeatTaken} SeatTaken */

/** @type {Map<string, LobbyTable>} */
const tables = new Map();
/** @type {GameInfo[]} */
let games = [];
let retry = 0;

/** @param {string} key */
function gameName(key) {
  const g = games.find((x) => x.key === key);
  return g ? g.name[currentLang()] || g.name.da : t("lobby.unknown_game");
}

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** @param {unknown} err */
function fail(err) {
  const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
  showMessage(errorText(e.code, e.reason, e), "error");
}

/** @param {SeatTaken} seat @param {string} game */
function go(seat, game) {
  saveToken(seat.match_id, seat.token);
  rememberMatch({ match_id: seat.match_id, game });
  location.href = `/play/${seat.match_id}`;
}

/** @param {LobbyTable} table */
function variantsText(table) {
  const g = games.find((x) => x.key === table.game);
  const on = (g ? g.flags : []).filter((f) => table.flags[f.name]);
  if (!on.length) return t("lobby.no_variants");
  return on.map((f) => (currentLang() === "en" ? f.en : f.da)).join("; ");
}

// "30 s pr. tur", "2 min. pr. tur" or "ingen tidsgrænse pr. tur".
/** @param {number | null | undefined} seconds */
function turnText(seconds) {
  if (!seconds) return t("lobby.turn_none");
  if (seconds % 60 === 0) return t("lobby.turn_minutes", { count: seconds / 60 });
  return t("lobby.turn_seconds", { count: seconds });
}

/** @param {LobbyTable} table */
function card(table) {
  const waited = (Date.now() - Date.parse(table.created)) / 1000;
  const seats = el("ul", { class: "table-seats" });
  for (const s of table.seats) {
    const label = el("span", { class: "seat-no", text: t("start.seat_n", { n: s.seat + 1 }) });
    let who;
    // The seat's one name (names.js): the same words the table will show.
    if (s.kind === "bot") who = el("span", { text: seatLabel(s, s.seat) });
    else if (s.taken) who = el("span", { class: "player-name", text: seatLabel(s, s.seat) });
    else {
      who = el("button", { type: "button", class: "primary take", "data-seat": String(s.seat),
        text: t("lobby.take", { n: s.seat + 1 }) });
      who.addEventListener("click", async () => {
        for (const b of document.querySelectorAll("button.take")) /** @type {HTMLButtonElement} */ (b).disabled = true;
        try {
          await ensurePlayer();
          go(await takeSeat(table.match_id, s.seat), table.game);
        } catch (err) {
          fail(err);
          for (const b of document.querySelectorAll("button.take")) /** @type {HTMLButtonElement} */ (b).disabled = false;
        }
      });
    }
    seats.append(el("li", {}, label, who));
  }
  const meta = [t("lobby.free", { free: table.free, seats: table.seats.length }),
    t("lobby.waiting", { time: clock(waited) })];
  if (table.fill_after !== null) {
    meta.push(t("lobby.bots_in", { time: clock(table.fill_after - waited) }));
  }
  return el("li", { class: "table-card", "data-match": table.match_id, "data-game": table.game },
    el("h3", { text: gameName(table.game) }),
    el("p", { class: "table-meta", text: variantsText(table) }),
    el("p", { class: "table-meta table-turn", "data-turn": String(table.turn_seconds ?? ""), text: turnText(table.turn_seconds) }),
    el("p", { class: "table-meta waited", text: meta.join(" · ") }),
    el("p", { class: "table-meta table-rated", "data-rated": table.rated.rated ? "yes" : String(table.rated.why),
      text: t(table.rated.rated ? "rated.if_signed_in" : `rated.${table.rated.why}`) }), seats);
}

function draw() {
  const list = document.getElementById("tables");
  if (!list) return;
  list.innerHTML = "";
  const sorted = [...tables.values()].sort((a, b) => Date.parse(a.created) - Date.parse(b.created));
  for (const table of sorted) list.append(card(table));
  const status = document.getElementById("lobby-status");
  if (status) status.textContent = sorted.length ? t("lobby.count", { n: sorted.length }) : t("lobby.none");
  document.body.dataset.tables = String(sorted.length);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/lobby`);
  ws.addEventListener("open", () => (retry = 0));
  ws.addEventListener("message", (ev) => {
    /** @type {{ t: string, d: any }} */
    const msg = JSON.parse(String(ev.data));
    if (msg.t === "lobby") {
      tables.clear();
      for (const table of msg.d.tables) tables.set(table.match_id, table);
      document.body.dataset.ready = "1";
    } else if (msg.t === "table") tables.set(msg.d.match_id, msg.d);
    else if (msg.t === "gone") tables.delete(msg.d.match_id);
    draw();
  });
  ws.addEventListener("close", () => {
    const status = document.getElementById("lobby-status");
    if (status) status.textContent = t("lobby.reconnecting");
    setTimeout(connect, Math.min(8000, 400 * 2 ** retry++));
  });
}

function quickForm() {
  const tableGames = games.filter((g) => !g.solitaire);
  const game = el("select", { name: "game", id: "quick-game" });
  for (const g of tableGames) game.append(el("option", { value: g.key, text: g.name[currentLang()] || g.name.da }));
  const seats = el("select", { name: "seats", id: "quick-seats" });
  const wait = el("select", { name: "fill", id: "quick-fill" });
  for (const [value, key] of [["", "lobby.fill_never"], ["30", "lobby.fill_30"], ["60", "lobby.fill_60"], ["120", "lobby.fill_120"]]) {
    wait.append(el("option", { value, text: t(key) }));
  }
  wait.value = "60";
  // The turn timer (room/turns.py), as on the start page's table form; quick match only
  // seats the player at a table with the same one.
  const turn = el("select", { name: "turn", id: "quick-turn" });
  for (const [value, key] of [["", "start.turn_none"], ["30", "start.turn_30"], ["60", "start.turn_60"], ["120", "start.turn_120"]]) {
    turn.append(el("option", { value, text: t(key) }));
  }
  const level = el("select", { name: "level", id: "quick-level" });
  const sync = () => {
    const g = tableGames.find((x) => x.key === game.value);
    if (!g) return;
    seats.innerHTML = "";
    for (const n of g.seats) seats.append(el("option", { value: String(n), text: String(n) }));
    seats.value = String(g.default_seats);
    level.innerHTML = "";
    for (const lv of g.levels || []) level.append(el("option", { value: String(lv.level), text: botName(lv.bot, lv.level) }));
    if (g.default_level) level.value = String(g.default_level);
  };
  game.addEventListener("change", sync);
  sync();
  const button = el("button", { type: "submit", class: "primary", id: "quick-play", text: t("lobby.quick") });
  const form = el("form", { class: "quick-form" },
    el("label", { for: "quick-game" }, t("lobby.game"), game),
    el("label", { for: "quick-seats" }, t("start.seat_count"), seats),
    el("label", { for: "quick-turn" }, t("start.turn"), turn),
    el("label", { for: "quick-fill" }, t("lobby.fill"), wait),
    el("label", { for: "quick-level" }, t("lobby.level"), level), button);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    button.disabled = true;
    try {
      await ensurePlayer();
      const fill = wait.value ? Number(wait.value) : null;
      const seat = await quickMatch({ game: game.value, seats: Number(seats.value), flags: {},
        fill_after: fill, fill_level: fill && level.value ? Number(level.value) : null,
        turn_seconds: turn.value ? Number(turn.value) : null });
      go(seat, game.value);
    } catch (err) {
      fail(err);
      button.disabled = false;
    }
  });
  return form;
}

async function main() {
  await initPage();
  try {
    games = await getGames();
  } catch (err) {
    fail(err);
  }
  document.getElementById("quick")?.append(quickForm());
  connect();
  // The waiting times move on.
  setInterval(draw, 1000);
}

main();
