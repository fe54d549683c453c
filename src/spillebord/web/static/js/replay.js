// The replay page (/replay/{match_id}): the finished game's record (GET
// /api/matches/{id}/record) as a list of steps to walk through with the buttons, the
// arrow keys or a click on a step.  The browser cannot compute positions (no rules
// here), so each step's board comes from the server's spectator view of that step
// (GET /api/matches/{id}/replay?step=N, see docs/web.md "Requests to the server");
// without it the page shows the record as text.  A deal or a record is shared as a link.

import { showAnalysis } from "./analysis.js";
import { ApiError, getChat, getMatch, getRecord, getSeatPeople, loadToken } from "./api.js";
import { chatUpTo } from "./chat.js";
import { formatTime } from "./extras.js";
import { cardName, currentLang, t } from "./i18n.js";
import { seatNamer } from "./panel.js";
import { el, errorText, initPage, newestWins, showMessage } from "./ui.js";

/** @typedef {import("./protocol").GameView} GameView */

/** The page's element with this id (replay.html has them all). */
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** A button of the page. */
const button = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ ($(id));
const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
/** @type {import("./protocol").RecordResponse} set by main() before anything is shown */
let record = /** @type {any} */ (null);
let step = 0;
/** @type {import("./board").Renderer | null} */
let renderer = null;
/** @type {ReturnType<typeof setTimeout> | undefined} the next step of a playback */
let timer;
/** true while "Afspil" plays the steps one after another */
let playing = false;
/** Milliseconds between two steps at 1× (the speed choice divides it). */
const BASE_DELAY = 1000;
/** @type {Map<number, GameView | null>} */
const views = new Map();
/** @type {import("./protocol").ChatLine[]} the table chat, shown up to the current step (chat.js) */
let chatLines = [];
/** @type {(seat: number) => string} */
let chatSeatName = (seat) => String(seat + 1);

const describe = (/** @type {string} */ a) =>
  renderer && renderer.describe ? renderer.describe(a) : a.replace(/\b([2-9TJQKA][CDHS]|JK)\b/g, (c) => cardName(c));

/** @type {boolean | null} */
let hasViews = null;

// Ask the API description once whether the server offers step views (no 404 noise).
async function serverHasViews() {
  if (hasViews === null) {
    try {
      const spec = await fetch("/openapi.json").then((r) => r.json());
      hasViews = Object.keys(spec.paths || {}).some((/** @type {string} */ p) => p.startsWith("/api/matches/{") && p.endsWith("/replay"));
    } catch {
      hasViews = false;
    }
  }
  return hasViews;
}

/** @param {number} n @returns {Promise<GameView | null>} */
async function viewAt(n) {
  if (views.has(n)) return views.get(n) ?? null;
  if (!(await serverHasViews())) return null;
  const token = loadToken(matchId);
  /** @type {{ [name: string]: string }} */
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const res = await fetch(`/api/matches/${encodeURIComponent(matchId)}/replay?step=${n}`, { headers });
  /** @type {GameView | null} */
  const view = res.ok ? /** @type {import("./protocol").ReplayStep} */ (await res.json()).view : null;
  views.set(n, view);
  return view;
}

/** The newest step asked for: steps are taken faster than their boards come, and the
 * boards come in any order; only the newest step's board is drawn. */
const shown = newestWins();

/** @param {number} n */
async function show(n) {
  const stale = shown();
  const total = record.record.actions.length;
  step = Math.max(0, Math.min(total, n));
  $("step").textContent = t("replay.step", { n: step, total });
  for (const li of $("actions").children) {
    if (li instanceof HTMLElement) li.classList.toggle("current", Number(li.dataset.step) === step);
  }
  $("actions").querySelector("li.current")?.scrollIntoView({ block: "nearest" });
  button("prev").disabled = button("first").disabled = step === 0;
  button("next").disabled = button("last").disabled = step === total;
  if (chatLines.length && $("replay-chat")) {
    $("replay-chat").replaceChildren(el("h2", { text: t("chat.title") }), chatUpTo(chatLines, step, chatSeatName));
    $("replay-chat").hidden = false;
  }
  const view = renderer ? await viewAt(step) : null;
  if (stale()) return; // a newer step is shown: an older one's late board draws nothing
  if (view && renderer) {
    const outcome = /** @type {import("./protocol").Outcome | undefined} */ (view.outcome);
    renderer.update({ view, legal: [], seat: null, toMove: null, events: [], outcome: outcome || null });
    $("board").hidden = false;
  } else {
    $("board").hidden = true;
  }
}

/** "Afspil" becomes "Pause" while the steps play (and back). @param {boolean} on */
function setPlaying(on) {
  playing = on;
  clearTimeout(timer);
  button("auto").textContent = t(on ? "replay.pause" : "replay.auto");
  button("auto").setAttribute("aria-pressed", String(on));
}

/** Every step (a button, a line of the list, an arrow key) stops a playback. @param {number} n */
function stepTo(n) {
  setPlaying(false);
  show(n);
}

async function main() {
  await initPage();
  try {
    record = await getRecord(matchId, loadToken(matchId));
  } catch (err) {
    const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
    showMessage(errorText(e.code, e.reason, e), "error");
    return;
  }
  const rec = record.record;
  /** @type {import("./protocol").GameInfo[]} */
  const games = await fetch("/api/games").then((r) => r.json());
  const info = games.find((g) => g.key === rec.game);
  const name = info ? info.name[currentLang()] || info.name.da : rec.game;
  $("game-title").textContent = t("replay.title_game", { game: name });
  // A ranked daily attempt's deal is sealed (null) until its day is over.
  $("summary").textContent = rec.deal === null ? t("replay.summary_sealed", { count: rec.actions.length })
    : t("replay.summary", { deal: rec.deal, seats: rec.seats, count: rec.actions.length });
  // A solitaire's time played (the move count above is the replay's own steps).
  if (record.clock) $("summary").textContent += ` ${t("clock.played", { time: formatTime(record.clock.seconds) })}`;
  const fallback = { seats: Array.from({ length: rec.seats }, (_, i) => ({ seat: i, kind: "human" })) };
  const match = await getMatch(matchId).catch(() => fallback);
  // Named players keep their names in the replay, as at the table (GET …/players).
  if (rec.seats > 1) {
    const people = await getSeatPeople(matchId).catch(() => null);
    if (people) match.seats = match.seats.map((s, i) => ({ ...s, name: people.seats[i]?.name ?? null, rating: people.seats[i]?.rating ?? null }));
  }
  const seatName = seatNamer(match, null);
  chatSeatName = seatName;
  if (rec.seats > 1) chatLines = (await getChat(matchId).catch(() => ({ messages: [] }))).messages;
  try {
    const mod = await import(`/static/js/games/${(info ? info.renderer : rec.game) || "generic"}.js`)
      .catch(() => import("./games/generic.js"));
    const ctx = { act() {}, click() {}, say() {}, choose: async () => null, seatName, seatShort: seatName, seat: null, describe };
    renderer = mod.createRenderer($("board"), ctx);
  } catch {
    renderer = null;
  }
  // The events of the moves on the board, in order (an undo takes one off, a redo puts
  // it back): step i's line is worded from its own event's move facts.
  /** @type {typeof record.events} */
  const seatOf = [];
  for (const e of record.events) {
    if (e.kind === "act") seatOf.push(e);
    else if (e.kind === "undo") seatOf.pop();
    else if (e.kind === "redo") seatOf.push(e);
  }
  const ol = /** @type {HTMLOListElement} */ ($("actions"));
  ol.start = 0;
  ol.append(el("li", { "data-step": "0" }, el("button", { type: "button", text: t("replay.start"), onclick: () => stepTo(0) })));
  rec.actions.forEach((a, i) => {
    const who = rec.seats > 1 && seatOf[i] ? `${seatName(seatOf[i].seat)}: ` : "";
    // Table games word each move from the event's move facts (the renderer's sentence).
    const own = seatOf[i] && seatOf[i].action === a && renderer && renderer.sentence ? renderer.sentence(seatOf[i]) : null;
    ol.append(el("li", { "data-step": String(i + 1) },
      el("button", { type: "button", text: own || `${who}${describe(a)}`, onclick: () => stepTo(i + 1) })));
  });
  if (rec.seats === 1 && rec.deal !== null) {
    const link = /** @type {HTMLAnchorElement} */ ($("same-deal"));
    link.hidden = false;
    link.href = `/?game=${rec.game}&deal=${rec.deal}`;
  }
  const total = rec.actions.length;
  const auto = button("auto");
  const speed = /** @type {HTMLSelectElement} */ ($("speed"));
  // One step, then the next after the chosen delay (a chain, so slow views never pile up).
  const tick = async () => {
    if (!playing) return;
    if (step >= total) {
      setPlaying(false);
      return;
    }
    await show(step + 1);
    if (playing) timer = setTimeout(tick, BASE_DELAY / Number(speed.value || "1"));
  };
  const play = () => {
    setPlaying(true);
    if (step >= total) show(0).then(() => { timer = setTimeout(tick, BASE_DELAY / Number(speed.value || "1")); });
    else tick();
  };
  const toggle = () => (playing ? setPlaying(false) : play());
  setPlaying(false);
  $("first").onclick = () => stepTo(0);
  $("prev").onclick = () => stepTo(step - 1);
  $("next").onclick = () => stepTo(step + 1);
  $("last").onclick = () => stepTo(total);
  auto.onclick = toggle;
  speed.onchange = () => {
    if (playing) {
      clearTimeout(timer);
      timer = setTimeout(tick, BASE_DELAY / Number(speed.value || "1"));
    }
  };
  $("share").onclick = async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      showMessage(t("replay.link_copied"), "ok");
    } catch {
      showMessage(location.href, "ok");
    }
  };
  document.addEventListener("keydown", (ev) => {
    const target = /** @type {HTMLElement | null} */ (ev.target);
    // Space on a button, link or field is that control's own; elsewhere it plays or pauses.
    const own = target && target.closest("button, a, select, input, textarea, summary");
    if (ev.key === "ArrowRight" && !(target && target.closest("select"))) stepTo(step + 1);
    else if (ev.key === "ArrowLeft" && !(target && target.closest("select"))) stepTo(step - 1);
    else if (ev.key === "Escape") setPlaying(false);
    else if (ev.key === " " && !own) {
      ev.preventDefault();
      toggle();
    }
  });
  await show(rec.actions.length);
  document.body.dataset.ready = "1";
  // The post-game analysis (analysis.js): marks on the move list, words and a chart.
  const token = loadToken(matchId);
  showAnalysis($("analysis"), matchId, { game: rec.game, finished: record.status === "finished" },
    token ? { Authorization: `Bearer ${token}` } : {},
    { list: $("actions"), describe, seatName, show: (n) => stepTo(n) });
}

main();
