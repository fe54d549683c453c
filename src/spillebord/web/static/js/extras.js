// What players of solitaire and board-game sites expect beside the board: the rules of
// the game in a dialog ("Regler", every game), and for the solitaires the clock (time
// played and moves, from the server's `clock`, ticking on between moves), "play this
// deal again" and the player's best result on this deal (GET /api/players/{id}/best).
// play.js calls createExtras once and update(state) on every `state`.

import { ApiError, createMatch, getBest, rememberMatch, saveToken } from "./api.js";
import { currentLang, t } from "./i18n.js";
import { el, errorText, newestWins, showMessage, showModal } from "./ui.js";
import { showWin } from "./win.js";

// Pauses count at most this long (server/clock.py's IDLE_CAP): the shown time keeps
// ticking only that far past the last move.
const IDLE_CAP = 60;

// 75.4 → "1:15"; 3725 → "1:02:05".
/** @param {number} seconds */
export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** @param {number} moves @param {number} seconds */
function clockText(moves, seconds) {
  return t("clock.text", { time: formatTime(seconds), moves });
}

/** @param {import("./protocol").BestResult} b */
export function bestText(b) {
  if (!b.best) return t("best.none");
  const r = b.best;
  const result = r.won ? t("best.won", { bonus: r.bonus }) : t("best.lost");
  const tries = t("best.tries", { played: b.played, wins: b.wins });
  return `${result} · ${clockText(r.moves, r.seconds)}. ${tries}`;
}

// The rules dialog: the pre-rendered, escaped fragment of docs/rules (web/rules.py).
/** @param {string} game @param {string} gameName @param {HTMLElement} opener */
async function showRules(game, gameName, opener) {
  const dlg = el("dialog", { class: "rules-dialog", "aria-labelledby": "rules-title" });
  const body = el("div", { class: "rules-body" });
  const close = el("button", { type: "button", class: "primary", text: t("common.close") });
  dlg.append(el("div", { class: "rules-head" },
    el("h2", { id: "rules-title", text: t("rules.title", { game: gameName }) }), close), body);
  showModal(/** @type {HTMLDialogElement} */ (dlg), close, opener);
  // The game's lesson (issue #33), when it has one.
  fetch("/api/learn").then((r) => (r.ok ? r.json() : [])).then((/** @type {string[]} */ lessons) => {
    if (lessons.includes(game)) {
      body.before(el("p", { class: "rules-learn" }, el("a", { href: `/learn/${encodeURIComponent(game)}`, text: t("learn.from_rules") })));
    }
  }).catch(() => {});
  try {
    const res = await fetch(`/static/rules/${encodeURIComponent(game)}.${currentLang()}.html`);
    if (!res.ok) throw new Error(String(res.status));
    body.innerHTML = await res.text(); // our own file, rendered with raw HTML escaped
  } catch {
    body.textContent = t("rules.unavailable");
  }
}

/**
 * @param {{ match: import("./protocol").MatchInfo, gameName: string }} page
 * @returns {{ update(d: import("./protocol").StateData): void }}
 */
export function createExtras({ match, gameName }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const rules = $("rules");
  rules.hidden = false;
  rules.addEventListener("click", () => showRules(match.game, gameName, rules));
  const solitaire = match.seats.length === 1;
  if (!solitaire) return { update() {} };

  const clock = $("clock");
  const best = $("best");
  const restart = /** @type {HTMLButtonElement} */ ($("restart"));
  const player = localStorage.getItem("spillebord.player");
  /** @type {{ moves: number, seconds: number, at: number, running: boolean } | null} at: performance.now() of receipt */
  let base = null;
  const paint = () => {
    if (!base) return;
    const extra = base.running ? Math.min(IDLE_CAP, (performance.now() - base.at) / 1000) : 0;
    clock.textContent = clockText(base.moves, base.seconds + extra);
  };
  const tick = setInterval(paint, 1000);

  // Asked when the page opens and again when the game ends: the first answer may come
  // last (a game ended soon after opening) and must not put back the result from before.
  const bestAsked = newestWins();
  /** @returns {Promise<string | null>} the best result's words, also shown in the panel */
  async function loadBest() {
    if (!player || match.deal === null || match.deal === undefined) return null;
    const deal = match.deal;
    const stale = bestAsked();
    try {
      const b = await getBest(player, match.game, deal, match.flags || {});
      if (stale()) return null;
      best.hidden = false;
      best.replaceChildren(el("h2", { text: t("best.title", { deal }) }),
        el("p", { text: bestText(b) }));
      return bestText(b);
    } catch {
      if (!stale()) best.hidden = true;
      return null;
    }
  }

  if (match.deal !== null && match.deal !== undefined) {
    // A solitaire's deal number (a long chosen one arrives as digits: the server reads both).
    const deal = /** @type {number} */ (match.deal);
    restart.hidden = false;
    restart.addEventListener("click", async () => {
      restart.disabled = true;
      try {
        const res = await createMatch({ game: match.game, seats: ["me"], deal, flags: match.flags || {} });
        if (res.token) saveToken(res.match_id, res.token);
        rememberMatch({ match_id: res.match_id, game: match.game });
        location.href = `/play/${res.match_id}`;
      } catch (err) {
        const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
        showMessage(errorText(e.code, e.reason, e), "error");
        restart.disabled = false;
      }
    });
  }
  loadBest();

  /** @type {boolean | null} */
  let finished = null;
  return {
    update(d) {
      if (d.clock) {
        base = { ...d.clock, at: performance.now(), running: d.status !== "finished" };
        clock.hidden = false;
        paint();
      }
      const over = d.status === "finished";
      if (over && finished === false) {
        // This game just ended: a new result; a win gets its screen (win.js).
        const outcome = d.outcome;
        loadBest().then((text) => {
          if (!outcome || !outcome.winners.length) return;
          const c = d.clock || { moves: 0, seconds: 0 };
          showWin({ bonus: outcome.bonus, moves: c.moves, seconds: c.seconds, best: text,
            deal: typeof match.deal === "number" ? match.deal : null, formatTime, opener: /** @type {HTMLElement | null} */ (document.activeElement) });
        });
      }
      finished = over;
      if (over) clearInterval(tick);
    },
  };
}
