// The lesson page (/learn/{game}, issue #33): a short guided game on the lesson's
// prepared position.  The server holds the rules: the page sends the action texts the
// learner makes on the real board (the game's own renderer) with the actions played so
// far (POST /api/learn/{game}); the server answers the next step (and the other seats'
// scripted moves, shown one by one) or, for a move the step does not take, the
// explanation worded from the engine's refusal.  After the last step the position plays
// on: a solitaire to its end, a table game against the computers (docs/learn.md).

import { cardName, currentLang, has, t } from "./i18n.js";
import { announce, choose, el, initPage, reasonText, showMessage } from "./ui.js";

/** @typedef {import("./protocol").LessonEvent} LessonEvent */
/** @typedef {import("./protocol").LessonAnswer} LessonAnswer */
/** @typedef {import("./protocol").LessonOutline} LessonOutline */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
/** Milliseconds each of the other seats' moves stays on the board before the next. */
const PACE = 600;

/** @type {LessonOutline} */
let outline = /** @type {any} */ (null);
/** @type {LessonAnswer} the last position the server sent */
let last = /** @type {any} */ (null);
/** @type {import("./board").Renderer | null} */
let renderer = null;
let busy = false;
/**
 * What the browser tests read (window.__learn): answers counted, the last position, and
 * `send` (a move the board cannot make, e.g. onto a place that is not lit).
 * @type {{ answers: number, busy: boolean, explained: number, last?: LessonAnswer, send?: (m: { action?: string, click?: string }) => Promise<void> }}
 */
const debug = { answers: 0, busy: false, explained: 0 };
/** @type {any} */ (window).__learn = debug;

const seatName = (/** @type {number} */ i) => (i === 0 ? t("seat.you") : t("seat.bot_short", { n: i + 1 }));

/** @param {string} text */
function describe(text) {
  if (renderer && renderer.describe) return renderer.describe(text);
  return text.replace(/\b([2-9TJQKA][CDHS]|JK)\b/g, (c) => cardName(c));
}

/** @param {LessonEvent} ev */
function sentence(ev) {
  const own = renderer && renderer.sentence ? renderer.sentence(ev) : null;
  return own || `${seatName(ev.seat)}: ${describe(ev.action)}`;
}

const learnerSteps = () => outline.steps.filter((s) => s.seat === 0);

/** The step's words, or the lesson's end. */
function showStep() {
  const steps = learnerSteps();
  const over = last.lesson_over;
  $("lesson").hidden = over;
  $("finished").hidden = !over;
  document.body.dataset.step = over ? "done" : String(last.taught);
  if (over) {
    $("done").textContent = t(outline.done);
    return;
  }
  const step = steps[last.taught];
  $("progress").textContent = t("learn.progress", { n: last.taught + 1, total: steps.length });
  $("do").textContent = t(step.do || "");
  $("why").textContent = t(step.why || "");
}

/** @param {LessonAnswer} a */
function status(a) {
  if (a.outcome || a.to_move === null) return t("status.over");
  if (a.to_move === 0) return (renderer && renderer.status && renderer.status()) || t("status.your_turn");
  return t("status.waiting", { name: seatName(a.to_move) });
}

/** Draw an answer's final position (legal moves only when the learner is to move). @param {LessonAnswer} a @param {LessonEvent[]} events */
function draw(a, events) {
  renderer?.update({ view: a.view, legal: a.legal, moves: a.moves || {}, seat: 0, toMove: a.to_move, events, outcome: a.outcome });
  $("status").textContent = status(a);
}

const wait = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** Show the answer's events one after another, then its position. @param {LessonAnswer} a */
async function play(a) {
  const log = /** @type {HTMLOListElement} */ ($("log"));
  for (const ev of a.events) {
    const line = sentence(ev);
    if (ev.seat !== 0) {
      $("others").hidden = false;
      log.append(el("li", { text: line }));
      log.lastElementChild?.scrollIntoView({ block: "nearest" });
      renderer?.update({ view: ev.view, legal: [], moves: {}, seat: 0, toMove: ev.to_move, events: [ev], outcome: null });
      $("status").textContent = ev.to_move === 0 || ev.to_move === null ? "" : t("status.waiting", { name: seatName(ev.to_move) });
      announce(line);
      await wait(PACE);
    } else {
      if (outline.seats > 1) log.append(el("li", { text: line }));
      announce(line);
    }
  }
  last = debug.last = a;
  draw(a, a.events.filter((e) => e.seat === 0).slice(-1));
  showStep();
}

/** The explanation of a move the step does not take. @param {import("./protocol").RefusalMessage | undefined} m */
function explain(m) {
  const text = m && m.key && m.key.startsWith("learn.") && has(m.key)
    ? t(m.key)
    : reasonText(m, (renderer && renderer.placeName) || undefined) || t("learn.not_allowed");
  const box = $("explain");
  box.textContent = text;
  box.hidden = false;
  debug.explained += 1;
  announce(text);
  if (last) draw(last, []);
}

/** @param {{ action?: string, click?: string }} move */
async function send(move) {
  if (busy || !last) return;
  busy = debug.busy = true;
  try {
    const res = await fetch(`/api/learn/${encodeURIComponent(game)}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ actions: last.actions, ...move }),
    });
    const body = await res.json();
    if (!res.ok) {
      showMessage(t("learn.failed"), "error");
      draw(last, []);
      return;
    }
    const a = /** @type {LessonAnswer} */ (body);
    debug.answers += 1;
    if (a.choices && a.choices.length) {
      busy = debug.busy = false;
      const value = await choose(t("play.which_move"), a.choices.map((c) => ({ value: c, label: describe(c) })));
      if (value) await send({ action: value });
      else draw(last, []);
      return;
    }
    if (!a.ok) {
      explain(a.message);
      return;
    }
    $("explain").hidden = true;
    await play(a);
  } catch {
    showMessage(t("learn.failed"), "error");
  } finally {
    busy = debug.busy = false;
    document.body.dataset.answers = String(debug.answers);
  }
}

/** @type {import("./board").RendererCtx} */
const ctx = {
  act: (text) => send({ action: text }),
  click: (target) => send({ click: target }),
  say(text) {
    $("status").textContent = text;
    announce(text);
  },
  choose,
  describe,
  seatName,
  seatShort: seatName,
  seat: 0,
  // Renderers play nothing by themselves during the lesson (forced moves are taught).
  get lesson() {
    return Boolean(last && !last.lesson_over);
  },
};

async function main() {
  await initPage();
  const [games, first] = await Promise.all([
    fetch("/api/games").then((r) => r.json()).catch(() => []),
    fetch(`/api/learn/${encodeURIComponent(game)}`).then(async (r) => (r.ok ? r.json() : null)).catch(() => null),
  ]);
  /** @type {import("./protocol").GameInfo | undefined} */
  const info = games.find((/** @type {import("./protocol").GameInfo} */ g) => g.key === game);
  if (!first || !info) {
    $("lesson").hidden = true;
    showMessage(t("learn.no_lesson"), "error");
    document.body.dataset.ready = "1";
    return;
  }
  const name = info.name[currentLang()] || info.name.da;
  document.title = `${t("learn.title", { game: name })} — ${t("app.name")}`;
  $("game-title").textContent = t("learn.title", { game: name });
  document.body.dataset.game = game;
  outline = first;
  $("intro").textContent = t(outline.intro);
  /** @type {HTMLAnchorElement} */ ($("new-game")).href = `/?game=${encodeURIComponent(game)}#game-${encodeURIComponent(game)}`;
  const mod = await import(`/static/js/games/${info.renderer || "generic"}.js`).catch(() => import("./games/generic.js"));
  renderer = mod.createRenderer($("board"), ctx);
  $("show-me").addEventListener("click", () => {
    if (last && last.expect && renderer && renderer.showHint) renderer.showHint(last.expect);
    else if (last && last.expect) ctx.say(describe(last.expect));
  });
  last = { ...first, events: [] };
  debug.send = send;
  await play(first);
  document.body.dataset.ready = "1";
}

main();
