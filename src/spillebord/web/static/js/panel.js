// The side panel of the game page: seats and their state, the last moves, invite links
// for open seats, the outcome (ranking / bonus) and share links.  Pure rendering from the
// match info and the latest `state` message.

import { t } from "./i18n.js";
import { seatLabel } from "./names.js";
import { el } from "./ui.js";

/** @typedef {import("./protocol").MatchInfo} MatchInfo */
/** @typedef {(seat: number) => string} SeatNamer */
/** @typedef {{ seats: { seat: number, kind: string, bot?: string | null, level?: unknown, name?: string | null, rating?: number | null, bot_account?: boolean }[] }} SeatsOf */

export { botName } from "./names.js";

/**
 * @param {SeatsOf | null} match
 * @param {number | null} mySeat
 * @returns {SeatNamer}
 */
export function seatNamer(match, mySeat) {
  return (i) => seatLabel(match && match.seats && match.seats[i], i, { mySeat });
}

// A short name for tight spots (the kugler board): "Du", "Computer 3", "Spiller 2", a name.
/**
 * @param {SeatsOf | null} match
 * @param {number | null} mySeat
 * @returns {SeatNamer}
 */
export function shortNamer(match, mySeat) {
  return (i) => seatLabel(match && match.seats && match.seats[i], i, { mySeat, short: true });
}

/**
 * @param {HTMLElement} box
 * @param {MatchInfo | null} match
 * @param {import("./protocol").StateData | null} st
 * @param {SeatNamer} seatName
 */
export function renderSeats(box, match, st, seatName) {
  box.innerHTML = "";
  if (!match || match.seats.length < 2) return;
  box.append(el("h2", { text: t("panel.seats") }));
  const ul = el("ul", { class: "seats-list" });
  for (const s of match.seats) {
    const li = el("li", { "data-seat": String(s.seat) }, seatName(s.seat));
    if (st && st.to_move === s.seat) li.append(" ", el("span", { class: "pill turn-pill", text: t("table.to_move") }));
    if (s.kind === "human") {
      const presence = !s.claimed ? "open" : s.connected ? "online" : "offline";
      li.dataset.presence = presence;
      li.append(" ", el("span", { class: "pill", text: t(`seat.${presence}`) }));
    }
    // Why a bot plays a human seat (server/turns.py): given up, turn timer, away.
    if (s.kind === "human" && (s.bot_playing || s.left)) {
      const why = s.left ? "left" : s.bot_reason || "away";
      li.dataset.bot = why;
      li.append(" ", el("span", { class: "pill bot-pill", text: t(`seat.bot_${why}`) }));
    }
    ul.append(li);
  }
  box.append(ul);
}

/**
 * The invite links this browser created for the match; a claimed seat's is shown taken.
 * @param {HTMLElement} box
 * @param {string} matchId
 * @param {{ seats: import("./protocol").SeatInfo[] } | null} match
 */
export function renderInvites(box, matchId, match) {
  box.innerHTML = "";
  /** @type {import("./protocol").Invite[]} */
  const invites = JSON.parse(localStorage.getItem(`spillebord.invites.${matchId}`) || "[]");
  if (!invites.length) return;
  box.append(el("h2", { text: t("panel.invites") }));
  for (const inv of invites) {
    const seat = match && match.seats ? match.seats[inv.seat] : undefined;
    if (seat && seat.claimed) {
      // A used invite cannot be used again: say the seat is taken, offer nothing to copy.
      box.append(el("div", { class: "invite taken", "data-seat": String(inv.seat) },
        el("span", { text: t("panel.invite_taken", { n: inv.seat + 1 }) })));
      continue;
    }
    const url = new URL(inv.url, location.origin).href;
    const input = el("input", { readonly: true, value: url, class: "invite-url",
      "aria-label": t("panel.invite_for", { n: inv.seat + 1 }) });
    const copy = el("button", { type: "button", text: t("common.copy"), onclick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = t("common.copied");
      } catch {
        document.execCommand?.("copy");
      }
    } });
    box.append(el("div", { class: "invite", "data-seat": String(inv.seat) },
      el("label", { text: t("panel.invite_for", { n: inv.seat + 1 }) }), input, copy));
  }
}

/**
 * @param {HTMLElement} box
 * @param {import("./protocol").GameEvent[]} log
 * @param {SeatNamer} seatName
 * @param {boolean} solitaire
 * @param {(action: string) => string} [describe]
 * @param {((ev: import("./protocol").GameEvent) => string) | null} [sentence] words an `act`
 *   event as a whole line (who and what); undo and redo lines (solitaires) are
 *   "fortrudt: …" with the described action.
 */
export function renderLog(box, log, seatName, solitaire, describe = (a) => a, sentence = null) {
  box.innerHTML = "";
  if (!log.length) return;
  box.append(el("h2", { text: t("panel.last_moves") }));
  // A move's number is its place on the board (the clock's count, server/clock.py): an
  // undo takes one off, a redo puts it back; undo, redo and resign lines carry none.
  /** @type {Map<number, number>} */
  const numbers = new Map();
  let onBoard = 0;
  for (const ev of log) {
    if (ev.kind === "undo") onBoard = Math.max(0, onBoard - 1);
    else if (ev.kind === "redo") onBoard += 1;
    else if (ev.kind === "act" && !(solitaire && ev.action === "resign")) numbers.set(ev.seq, ++onBoard);
  }
  const ol = el("ol", { class: "move-log" });
  for (const ev of log.slice(-8).reverse()) {
    // Undo and redo lines name the move from its facts where the game sends them.
    const worded = sentence && ev.kind !== "act" && ev.move ? sentence(ev) : "";
    const action = worded || (ev.action ? describe(ev.action) : "");
    let text = action;
    if (ev.kind === "undo") text = t("log.undo", { action });
    if (ev.kind === "redo") text = t("log.redo", { action });
    const who = solitaire ? "" : `${seatName(ev.seat)}: `;
    const line = sentence && ev.kind === "act" ? sentence(ev) : `${who}${text}`;
    const n = numbers.get(ev.seq);
    ol.append(el("li", n === undefined ? { "data-seq": String(ev.seq), class: "unnumbered" }
      : { "data-seq": String(ev.seq), value: String(n) }, line));
  }
  box.append(ol);
}

/**
 * Why a game ended, in the game's own words: each game's reasons are its own catalogue
 * keys (`reason.<game>.<reason>`; Kugler og Jokere's win is not "every card is up").
 * @param {string} game @param {string} reason
 */
export function reasonText(game, reason) {
  return t(`reason.${game}.${reason}`);
}

/**
 * @param {HTMLElement} box
 * @param {import("./protocol").Outcome | null} outcome
 * @param {{ match_id: string, game: string, seats: unknown[] }} match
 * @param {SeatNamer} seatName
 * @param {number | null} mySeat
 */
export function renderOutcome(box, outcome, match, seatName, mySeat) {
  box.innerHTML = "";
  if (!outcome) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const solitaire = match.seats.length === 1;
  if (solitaire) {
    const won = outcome.winners.length > 0;
    box.append(el("h2", { text: won ? t("outcome.won", { bonus: outcome.bonus }) : t("outcome.lost") }));
    box.append(el("p", { text: reasonText(match.game, outcome.reason) }));
  } else {
    const mine = mySeat !== null && outcome.winners.includes(mySeat);
    box.append(el("h2", { text: mySeat === null ? t("outcome.over") : mine ? t(match.game === "kugler" ? "outcome.team_won" : "outcome.you_won") : t("outcome.you_lost") }));
    box.append(el("p", { text: reasonText(match.game, outcome.reason) }));
    const ol = el("ol", { class: "ranking" });
    for (const group of outcome.ranking) {
      const names = group.map((s) => {
        const loser = (outcome.losers || []).includes(s);
        return seatName(s) + (loser && match.game === "gammel_jomfru" ? ` — ${t("gj.old_maid")}` : "");
      });
      ol.append(el("li", { text: names.join(", ") }));
    }
    box.append(el("h3", { text: t("outcome.ranking") }), ol);
  }
  box.append(el("p", {}, el("a", { class: "button", href: `/replay/${match.match_id}`, text: t("outcome.replay") }),
    " ", el("a", { class: "button", href: newGameHref(match), text: t("outcome.new_game") })));
}

/**
 * "Nyt spil": the start page's card of this game, opened with this game's choices — its
 * variants, and for a table game its seat count and its computers' level (when they all
 * played at one level); start.js reads them back (``chosen``).
 * @param {{ game: string, seats: unknown[], flags?: { [flag: string]: boolean } }} match
 */
export function newGameHref(match) {
  const q = new URLSearchParams({ game: match.game });
  q.set("flags", Object.entries(match.flags || {}).filter(([, on]) => on).map(([f]) => f).join(","));
  if (match.seats.length > 1) {
    q.set("seats", String(match.seats.length));
    const levels = new Set(/** @type {{ kind?: string, level?: number | null }[]} */ (match.seats)
      .filter((s) => s.kind === "bot" && typeof s.level === "number").map((s) => s.level));
    if (levels.size === 1) q.set("level", String([...levels][0]));
  }
  return `/?${q}#game-${encodeURIComponent(match.game)}`;
}
