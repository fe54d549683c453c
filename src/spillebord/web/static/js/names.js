// One name per seat (issue 27): the single rule for what a seat is called, used by the
// board, the seat list, the move log, the replay, the lobby and the statistics.  A named
// player is that name; an unnamed human seat is "Spiller 2"; a bot seat is "Computer 2"
// (with its level where there is room); the reader's own seat is "Du".  Every word comes
// from the catalogues.

import { has, t } from "./i18n.js";

/** @typedef {{ kind?: string, bot?: string | null, level?: unknown, name?: string | null, rating?: number | null, bot_account?: boolean }} SeatLike */

// A bot's display name: its level ("Mellem") when it plays one of the game's levels,
// else the bot's own name ("Tilfældige træk") — never the bot's key.
/** @param {string | null | undefined} bot @param {unknown} level @returns {string} */
export function botName(bot, level) {
  if (Number.isInteger(level)) return t(`level.${level}`);
  return has(`bot.${bot}`) ? t(`bot.${bot}`) : t("bot.unknown");
}

/**
 * The display name of seat ``i`` (0-based).  ``short``: no level or rating (tight spots:
 * the Kugler board); ``mySeat``: that seat is called "Du".
 * @param {SeatLike | null | undefined} s
 * @param {number} i
 * @param {{ mySeat?: number | null, short?: boolean }} [opts]
 * @returns {string}
 */
export function seatLabel(s, i, opts = {}) {
  const n = i + 1;
  if (opts.mySeat !== undefined && opts.mySeat !== null && i === opts.mySeat) return t("seat.you");
  if (s && s.kind === "bot") {
    return opts.short ? t("seat.bot_short", { n }) : t("seat.bot", { n, bot: botName(s.bot, s.level) });
  }
  if (s && s.name) {
    // A declared bot account: its name, marked as a computer (never rated).
    if (s.bot_account) return opts.short ? s.name : t("seat.bot_account", { name: s.name });
    if (opts.short || s.rating === null || s.rating === undefined) return s.name;
    return t("seat.named_rated", { name: s.name, rating: s.rating });
  }
  return t("seat.player", { n });
}
