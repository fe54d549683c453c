// The game page (/play/{match_id}): finds the seat token (URL fragment, else
// localStorage), opens the match's WebSocket, loads the game's renderer module and hands
// it each `state`.  Undo/redo/hint/verdict are solitaire messages of the protocol; every
// move is an action text the server offered.  Refusals show in #messages and the board is
// re-drawn from the last state the server sent, so it never shows a refused move.

import { ApiError, getGames, getMatch, getMatchRated, getSeatPeople, loadToken, rememberMatch, saveToken } from "./api.js";
import { cardName, t } from "./i18n.js";
import { renderInvites, renderLog, renderOutcome, renderSeats, seatNamer, shortNamer } from "./panel.js";
import { createExtras } from "./extras.js";
import { createFairBox } from "./fair.js";
import { createChat } from "./chat.js";
import { showDailyBadge } from "./daily_badge.js";
import { showRatingChange } from "./rating.js";
import { ACCOUNT_SEAT, mergeEvents, Session } from "./session.js";
import { announce, choose, clearMessage, el, errorText, initPage, newestWins, showMessage } from "./ui.js";

/** @typedef {import("./protocol").StateData} StateData */
/** @typedef {import("./protocol").MatchInfo & { solver: boolean }} PageMatch the match info and whether the game has a solver */

/** The page's element with this id (play.html has them all). */
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const $button = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ ($(id));
const $link = (/** @type {string} */ id) => /** @type {HTMLAnchorElement} */ ($(id));
const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
/**
 * What the browser tests and benchmarks read (window.__spillebord).
 * @type {{ timings: { seq: number, ms: number }[], state: StateData | null, session: Session | null,
 *   ready: boolean, log: import("./protocol").GameEvent[], marks: { [name: string]: number },
 *   interactiveAt?: number, hint?: string | null, hints?: number, errors: string[] }}
 */
const debug = { timings: [], state: null, session: null, ready: false, log: [], errors: [], marks: { start: performance.now() } };
/** @type {any} */ (window).__spillebord = debug;

/** @type {PageMatch} set by main() before the socket opens */
let match = /** @type {any} */ (null);
/** @type {number | null} */
let mySeat = null;
/** @type {import("./board").Renderer | null} */
let renderer = null;
/** @type {ReturnType<typeof createExtras> | null} rules, and the solitaires' clock, best result and replay of the deal */
let extras = null;
/** @type {ReturnType<typeof createFairBox> | null} the table games' sealed deal and its check at the end */
let fairBox = null;
/** @type {ReturnType<typeof createChat> | null} table games: the table chat (chat.js) */
let chat = null;
let ratingShown = false; // the rating change after a rated game (rating.js)
/** @type {(() => Promise<void>) | null} */
let followRated = null; // the table's rated line follows the rater once the game ends
let ratedFollowed = false;
/** @type {{ name: string | null, rating: number | null }[]} per seat: the seated player */
let people = [];
/** @type {StateData | null} */
let last = null;
/** @type {{ seat: number, seconds: number, until: number } | null} the running turn timer (the server's; shown only) */
let turnClock = null;

/** Take the server's turn timer from a `state` or `seats` message (counted from receipt).
 * @param {import("./protocol").TurnTimer | null | undefined} turn */
function setTurn(turn) {
  if (turn === undefined) return;
  turnClock = turn ? { seat: turn.seat, seconds: turn.seconds, until: performance.now() + turn.left_ms } : null;
  drawTurnClock();
}

/** The countdown on the seat whose turn it is ("0:23"); a bot takes the turn at 0:00. */
function drawTurnClock() {
  for (const old of document.querySelectorAll(".turn-timer")) {
    if (!turnClock || old.closest("[data-seat]")?.getAttribute("data-seat") !== String(turnClock.seat)) old.remove();
  }
  if (!turnClock || (last && last.outcome)) return;
  const li = $("seats").querySelector(`li[data-seat="${turnClock.seat}"]`);
  if (!(li instanceof HTMLElement)) return;
  if (li.dataset.bot) {
    li.querySelector(".turn-timer")?.remove(); // the bot plays the turn now: no countdown
    return;
  }
  const left = Math.max(0, Math.ceil((turnClock.until - performance.now()) / 1000));
  const text = t("table.turn_left", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
  let pill = li.querySelector(".turn-timer");
  if (!pill) {
    pill = el("span", { class: "pill turn-timer", role: "timer" });
    li.append(" ", pill);
  }
  pill.textContent = text;
  pill.classList.toggle("urgent", left <= 10);
}
setInterval(drawTurnClock, 250);
const log = debug.log;
/** @type {(seat: number) => string} */
let seatName = (i) => t("seat.player", { n: i + 1 });
/** @type {ReturnType<typeof setTimeout> | undefined} */
let verdictTimer;
/** the version the shown hint was given for (its frame goes with a new position) */
let hintVersion = -1;
// The server answers one solver question per socket at a time ("busy" otherwise), so
// hints (asked by the player) go first and verdicts (asked after each move) wait.
const solver = { busy: false, wantHint: false, wantVerdict: false };
function pumpSolver() {
  if (solver.busy || !session) return;
  if (solver.wantHint) {
    solver.wantHint = false;
    solver.busy = true;
    session.hint();
  } else if (solver.wantVerdict) {
    solver.wantVerdict = false;
    solver.busy = true;
    session.verdict();
  }
}
function solverDone() {
  solver.busy = false;
  pumpSolver();
}
let settled = false;
/** @type {StateData | null} a spectator state that arrived before the seat was confirmed */
let held = null;
/** @type {[StateData, number] | null} a state that arrived before the renderer module */
let early = null;

function takeToken() {
  if (location.hash === "#account") {
    // "Dine spil" on another device: the account's sign-in opens its seat (no token here).
    history.replaceState(null, "", location.pathname + location.search);
    const kept = loadToken(matchId);
    if (!kept) saveToken(matchId, ACCOUNT_SEAT); // a reload finds the seat again
    return kept || ACCOUNT_SEAT;
  }
  const m = location.hash.match(/token=([^&]+)/);
  if (m) {
    const token = decodeURIComponent(m[1]);
    saveToken(matchId, token);
    history.replaceState(null, "", location.pathname + location.search);
    return token;
  }
  return loadToken(matchId);
}

/** @param {string} text */
function describe(text) {
  // The renderer words its own actions; otherwise card codes get their names.
  if (renderer && renderer.describe) return renderer.describe(text);
  return text.replace(/\b([2-9TJQKA][CDHS]|JK)\b/g, (c) => cardName(c));
}

// A move-log line and announcement for an event: the renderer's own sentence from the
// server's move facts ("Computer 2 vendte hjerter otte"), else "<seat>: <action>".
/** @param {import("./protocol").GameEvent} ev @returns {string} */
function sentence(ev) {
  const own = renderer && renderer.sentence ? renderer.sentence(ev) : null;
  if (own) return own;
  const who = match.seats.length > 1 ? `${seatName(ev.seat)}: ` : "";
  return who + describe(ev.action);
}

/** @param {StateData} st */
function updateToolbar(st) {
  const solitaire = match.seats.length === 1;
  const player = mySeat !== null && st.status !== "finished";
  $("leave").hidden = solitaire || !player;
  drawRematch(st);
  for (const id of ["undo", "redo", "hint"]) $(id).hidden = !solitaire || mySeat === null;
  $button("undo").disabled = !player || !st.can_undo;
  $button("redo").disabled = !player || !st.can_redo;
  $button("hint").disabled = !player || !st.legal.length || !match.solver;
  $("hint").hidden ||= !match.solver;
  $("resign").hidden = !st.legal.includes("resign");
}

/** "Spil igen" at the end of a table game: the button for a human seat, and who said yes.
 * @param {StateData | null} st */
function drawRematch(st) {
  const over = Boolean(st && st.outcome) && match.seats.length > 1;
  const me = mySeat !== null ? match.seats[mySeat] : null;
  $("rematch").hidden = !over || !me || me.kind !== "human" || Boolean(me.left);
  const offer = match.rematch;
  const humans = match.seats.filter((s) => s.kind === "human" && !s.left).length;
  $("rematch-note").hidden = !over || !offer;
  if (over && offer) $("rematch-note").textContent = t("play.rematch_count", { n: offer.accepted.length, of: humans });
}

/** @param {StateData} st */
function statusText(st) {
  if (st.status === "finished" || st.to_move === null) return t("status.over");
  if (mySeat === null) return t("status.watching", { name: seatName(st.to_move) });
  if (st.to_move === mySeat) return (renderer && renderer.status && renderer.status()) || t("status.your_turn");
  return t("status.waiting", { name: seatName(st.to_move) });
}

/** @param {StateData} d @param {number} [v] */
function onState(d, v = 0) {
  // With a token, the socket starts as a spectator until `hello` is answered: wait.
  if (!settled) {
    held = d;
    return;
  }
  if (!renderer) {
    early = [d, v];
    return;
  }
  const received = performance.now();
  if (!log.length && v > 0 && !(d.events || []).length) session?.syncAll();
  // Kept by number: after a reconnect the `sync` answer can bring a missed event after
  // a newer one that the new socket was already told.
  mergeEvents(log, d.events || []);
  last = d;
  debug.state = d;
  const st = { view: d.view, legal: d.legal, moves: d.moves || {}, seat: mySeat, toMove: d.to_move, events: d.events || [], outcome: d.outcome };
  // A hint's frame belongs to the position it was given for: a new one drops it.
  if (v !== hintVersion) for (const n of $("board").querySelectorAll(".hint.highlight")) n.classList.remove("hint", "highlight");
  renderer.update(st);
  extras?.update(d);
  updateToolbar(d);
  $("status").textContent = statusText(d);
  renderSeats($("seats"), match, d, seatName);
  setTurn(d.turn === undefined ? null : d.turn);
  fairBox?.update(match, Boolean(d.outcome));
  if (d.outcome && match.seats.length > 1 && !ratedFollowed && followRated) {
    ratedFollowed = true;
    followRated();
  }
  if (d.outcome && mySeat !== null && match.seats.length > 1 && !ratingShown && $("rating")) {
    ratingShown = true;
    showRatingChange($("rating"), matchId);
  }
  renderLog($("log"), log, seatName, match.seats.length === 1, describe, sentence);
  renderOutcome($("outcome"), d.outcome, { ...match, match_id: matchId }, seatName, mySeat);
  const lastEv = (d.events || []).at(-1);
  if (lastEv && lastEv.action) announce(lastEv.kind === "act" || lastEv.move ? sentence(lastEv) : describe(lastEv.action));
  // Benchmark hook: time from the message's arrival to the next painted frame.
  requestAnimationFrame(() => {
    debug.timings.push({ seq: lastEv?.seq ?? 0, ms: performance.now() - received });
    if (!debug.ready) debug.interactiveAt = debug.marks.drawn = performance.now();
    debug.ready = true;
    document.body.dataset.version = String(session?.version);
  });
  if (match.solver && mySeat !== null && !d.outcome) {
    clearTimeout(verdictTimer);
    verdictTimer = setTimeout(() => {
      solver.wantVerdict = true;
      pumpSolver();
    }, 700);
  }
  // The verdict belongs to its position too: a new one clears it until its own comes
  // (a rewound game kept saying "Kan ikke vindes længere" of a winnable start).
  if (d.outcome || v !== verdictVersion) $("verdict").textContent = "";
  // A lost position is offered the way back; a new position asks again.
  if (v !== lostVersion) $("rewind").hidden = true;
  // Hints are counted with the result ("Vundet med 4 tip").
  if (d.outcome && d.hints && match.seats.length === 1) {
    const key = d.outcome.winners.length ? "play.won_with_hints" : "play.hints_used";
    $("outcome").append(el("p", { class: "hints-used", text: t(key, { n: d.hints }) }));
  }
}

/** The version found lost (the "Fortryd til sidste vindbare stilling" button's). */
let lostVersion = -1;
/** the version the shown verdict was given for */
let verdictVersion = -1;
/** @param {string | undefined} verdict @param {number | undefined} v */
function offerRewind(verdict, v) {
  if (verdict !== "unwinnable" || mySeat === null || !session || (typeof v === "number" && v < session.version)) return;
  lostVersion = session.version;
  $("rewind").hidden = false;
}

/** @type {import("./board").RendererCtx} */
const ctx = {
  act(text) {
    clearMessage();
    session?.act(text);
  },
  click(target) {
    clearMessage();
    session?.click(target);
  },
  say(text) {
    $("status").textContent = text;
    announce(text);
  },
  choose,
  describe,
  seatName: (i) => seatName(i),
  seatShort: (i) => shortNamer(match, mySeat)(i),
  get seat() {
    return mySeat;
  },
};

/** @type {Session | null} */
let session = null;

async function main() {
  const token = takeToken();
  settled = !token;
  // The catalogue, the match and the game list load side by side (time to interactive).
  const [, found, games] = await Promise.all([
    initPage(),
    getMatch(matchId).catch((err) => err),
    getGames().catch(() => []),
  ]);
  if (found instanceof Error) {
    const e = found instanceof ApiError ? found : new ApiError(0, "unknown", String(found));
    if (e.status !== 404) {
      showMessage(errorText(e.code, e.reason, e), "error");
      return;
    }
    // An unknown game: one sentence and the way back, no empty toolbar or board.
    for (const sel of [".toolbar", ".play-layout", "#status"]) {
      const node = document.querySelector(sel);
      if (node instanceof HTMLElement) node.hidden = true;
    }
    showMessage(t("play.no_match"), "error");
    $("messages").append(" ", el("a", { href: "/", text: t("play.no_match_home") }));
    document.body.dataset.ready = "1";
    return;
  }
  const info = games.find((g) => g.key === found.game);
  match = { ...found, solver: Boolean(info && info.solver) };
  const lang = /** @type {"da" | "en"} */ (document.documentElement.lang);
  const gameName = info ? info.name[lang] || info.name.da : match.game;
  document.title = `${gameName} — ${t("app.name")}`;
  $("game-title").textContent = gameName;
  showDailyBadge(matchId, document.querySelector(".play-head"));
  extras = createExtras({ match, gameName });
  fairBox = createFairBox($("fair"), matchId);
  document.body.dataset.game = match.game;
  debug.marks.fetched = performance.now();
  // The renderer module loads while the socket connects; an early state waits for it.
  // A game without a renderer of its own (or one that fails to load) gets the generic view.
  const modPromise = import(`/static/js/games/${(info ? info.renderer : match.game) || "generic"}.js`)
    .catch(() => import("./games/generic.js"));
  seatName = seatNamer(match, null);
  // The seat list and the invites follow the match info: on welcome, on every `seats`
  // message (a friend claimed an invite, a seat came or went) and when our socket drops.
  const redrawSeats = () => {
    renderSeats($("seats"), match, last, seatName);
    renderInvites($("invites"), matchId, match);
    drawTurnClock();
  };
  renderInvites($("invites"), matchId, match);
  rememberMatch({ match_id: matchId, game: match.game });
  // Table games: the seated players' names and ratings (GET /api/matches/{id}/players),
  // merged into the match info each time it is replaced.
  /** @param {PageMatch} m @returns {PageMatch} */
  const withPeople = (m) => ({ ...m, seats: m.seats.map((s, i) => ({ ...s, ...(people[i] || {}) })) });
  // The seated players and the rated line are asked again on every `seats` message (and
  // the rated line each second at the end): answers come in any order, and only the
  // newest question's answer is drawn — an older one would bring back a seat's old name
  // or "talte" back to "tæller".
  const peopleAsked = newestWins();
  const ratedAsked = newestWins();
  // Table games: whether the game counts for the ratings, and why not (shown from the start).
  /** @returns {Promise<boolean>} whether the answer was the rater's final one */
  const loadRated = async () => {
    const box = $("rated");
    if (match.seats.length < 2 || !box) return true;
    const stale = ratedAsked();
    const got = await getMatchRated(matchId).catch(() => null);
    if (!got || stale()) return false;
    const key = got.rated ? (got.final ? "rated.counted" : "rated.yes") : `rated.${got.why}`;
    box.hidden = false;
    box.dataset.rated = got.rated ? "yes" : String(got.why);
    box.dataset.final = got.final ? "1" : "0";
    box.textContent = t(key) + (got.rated && !got.final ? ` ${t("rated.leaving")}` : "");
    return Boolean(got.final);
  };
  // When the game ends the line follows the rater's final answer ("talte", or why not —
  // the pair limit is only known then): asked each second until it comes (the rater
  // looks each second), for at most a minute.
  followRated = async () => {
    for (let i = 0; i < 60; i++) {
      if (await loadRated()) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  const loadPeople = async () => {
    if (match.seats.length < 2) return;
    const stale = peopleAsked();
    const got = await getSeatPeople(matchId).catch(() => null);
    if (!got || stale()) return;
    people = got.seats.map((p) => ({ name: p.name, rating: p.rating, bot_account: p.bot_account }));
    match = withPeople(match);
    seatName = seatNamer(match, mySeat);
    redrawSeats();
    chat?.refresh();
    // The board's labels and the log name the players too: draw them again with the names.
    if (last && renderer) {
      renderer.update({ view: last.view, legal: last.legal, moves: last.moves || {}, seat: mySeat, toMove: last.to_move, events: [], outcome: last.outcome });
      renderLog($("log"), log, seatName, match.seats.length === 1, describe, sentence);
    }
  };
  loadPeople();
  loadRated();
  const live = new Session(matchId, token, {
    onWelcome(d) {
      debug.marks.welcome ??= performance.now();
      if (d.role !== "player" && !settled) return;
      mySeat = d.role === "player" ? d.seat : null;
      if (mySeat !== null) settled = true;
      if (d.match) match = withPeople({ ...match, ...d.match, solver: match.solver });
      seatName = seatNamer(match, mySeat);
      $("role").textContent = mySeat === null ? t("play.spectator") : "";
      $("role").hidden = mySeat !== null;
      redrawSeats();
      chat?.refresh();
      drawRematch(last);
    },
    onState,
    onChat(d) {
      chat?.add(d);
    },
    onRematch(d) {
      // This seat's seat at the new table: go there (the token travels in the fragment).
      saveToken(d.match_id, d.token);
      rememberMatch({ match_id: d.match_id, game: match.game });
      location.assign(d.play_url);
    },
    onSeats(d) {
      match = withPeople({ ...match, seats: d.seats, rematch: d.rematch || match.rematch || null });
      setTurn(d.turn);
      drawRematch(last);
      loadPeople();
      loadRated();
      seatName = seatNamer(match, mySeat);
      redrawSeats();
      chat?.refresh();
    },
    onError(d) {
      debug.errors.push(d.ref ? `${d.code} (${d.ref})` : d.code);
      if (d.ref === "rematch") $button("rematch").disabled = false;
      if (d.code === "bad_token" || d.code === "seat_left" || d.code === "sign_in_needed") {
        localStorage.removeItem(`spillebord.token.${matchId}`);
        settled = true;
        mySeat = null;
        $("role").textContent = t("play.spectator");
        $("role").hidden = false;
        if (held) onState(held);
      }
      if (d.code === "busy") {
        if (d.ref === "hint") solver.wantHint = true;
        if (d.ref === "verdict") solver.wantVerdict = true;
        setTimeout(solverDone, 500);
        return;
      }
      if (d.ref === "hint") {
        debug.hint = null;
        debug.hints = (debug.hints || 0) + 1;
        solverDone();
      }
      if (d.ref === "verdict") {
        $("verdict").textContent = "";
        solverDone();
        return;
      }
      showMessage(errorText(d.code, d.reason, d, (renderer && renderer.placeName) || undefined), "error");
      if (d.code === "bad_token") $("role").textContent = t("play.bad_token");
      if (last && renderer) renderer.update({ view: last.view, legal: last.legal, moves: last.moves || {}, seat: mySeat, toMove: last.to_move, events: [], outcome: last.outcome });
    },
    onHint(d, v) {
      solverDone();
      // An answer for a position the game has left is not shown.
      if (typeof v === "number" && session && v < session.version) return;
      hintVersion = session ? session.version : -1;
      debug.hint = d.action;
      debug.hints = (debug.hints || 0) + 1;
      if (d.verdict === "unwinnable") {
        ctx.say(t("hint.lost"));
        $("verdict").textContent = t("verdict.unwinnable");
        verdictVersion = hintVersion;
        offerRewind(d.verdict, v);
        return;
      }
      if (!d.action) {
        ctx.say(t("hint.none"));
        return;
      }
      ctx.say(t("hint.is", { action: describe(d.action) }));
      renderer?.showHint?.(d.action);
    },
    onVerdict(d, v) {
      solverDone();
      // An answer for a position the game has left is not shown (it would contradict a hint).
      if (typeof v === "number" && session && v < session.version) return;
      $("verdict").textContent = t(`verdict.${d.verdict}`);
      verdictVersion = typeof v === "number" ? v : session ? session.version : -1;
      offerRewind(d.verdict, v);
    },
    async onChoices(d) {
      const value = await choose(t("play.which_move"), d.actions.map((a) => ({ value: a, label: describe(a) })));
      if (value) ctx.act(value);
    },
    onConnection(status) {
      if (status === "open") {
        settled = !token;
        solver.busy = false;
      }
      $("connection").textContent = status === "open" ? "" : t(`connection.${status}`);
      $("connection").hidden = status === "open";
      $("connection").classList.toggle("lost", status === "lost");
      if (status === "lost") document.body.classList.add("offline");
      if (status === "open") document.body.classList.remove("offline");
      if (status === "lost" && mySeat !== null && match.seats[mySeat]) {
        // Our own seat is offline until the server welcomes us back.
        match = { ...match, seats: match.seats.map((s) => (s.seat === mySeat ? { ...s, connected: false } : s)) };
        redrawSeats();
      }
    },
  });
  session = live;
  debug.session = live;
  if (match.seats.length > 1 && $("chat")) {
    chat = createChat($("chat"), { matchId, send: (d) => live.chat(d), seatName: (i) => seatName(i),
      mySeat: () => mySeat, seats: match.seats.length });
  }
  live.watchNetwork();
  live.connect();
  renderer = /** @type {import("./board").CreateRenderer} */ ((await modPromise).createRenderer)($("board"), ctx);
  debug.marks.renderer = performance.now();
  if (early) onState(...early);
  $("undo").addEventListener("click", () => live.undo());
  $("redo").addEventListener("click", () => live.redo());
  $("hint").addEventListener("click", () => {
    ctx.say(t("hint.thinking"));
    solver.wantHint = true;
    pumpSolver();
  });
  $("resign").addEventListener("click", async () => {
    const ok = await choose(t("play.resign_confirm"), [{ value: "resign", label: t("play.resign") }]);
    if (ok) ctx.act("resign");
  });
  $("leave").addEventListener("click", async () => {
    const ok = await choose(t("play.leave_confirm"), [{ value: "leave", label: t("play.leave") }]);
    if (!ok) return;
    // The seat is the bot's now: this browser keeps no token for it (it watches on).
    localStorage.removeItem(`spillebord.token.${matchId}`);
    live.leave();
  });
  $("rewind").addEventListener("click", () => {
    $("rewind").hidden = true;
    live.rewind();
  });
  $("rematch").addEventListener("click", () => {
    $button("rematch").disabled = true;
    live.rematch();
  });
  $link("watch-link").href = `/play/${matchId}`;
  if (match.seats.length === 1 && match.deal !== null && match.deal !== undefined) {
    // A solitaire's deal number is public: share it as a link to the start page.
    $("share-deal").hidden = false;
    $link("share-deal").href = `/?game=${match.game}&deal=${match.deal}`;
    $("share-deal").textContent = t("play.share_deal", { deal: match.deal });
  }
}

document.addEventListener("keydown", (ev) => {
  if (!session || (ev.target instanceof Element && ev.target.closest("input, select, dialog"))) return;
  if ((ev.ctrlKey || ev.metaKey) && ev.key === "z" && !$("undo").hidden) session.undo();
  if ((ev.ctrlKey || ev.metaKey) && ev.key === "y" && !$("redo").hidden) session.redo();
});

main();
