// The leaderboard page's computer ladder (docs/web.md, "Leaderboard"; issue 32): for the
// chosen table game and seat count, the computers rated on the games they played against
// each other (GET /api/bot-ladder/{game}) — the site's own computers by their level or
// name, declared computer accounts by their account name and what their owner says of
// them — best first, as a table and as a dot chart of the ratings.

import { getBotLadder } from "./api.js";
import { dotsChart } from "./charts.js";
import { t } from "./i18n.js";
import { botName } from "./names.js";
import { el, newestWins } from "./ui.js";

/** @typedef {import("./protocol").BotLadderEntry} BotLadderEntry */

/** The name an entry goes by on the page (never a bot key). @param {BotLadderEntry} e */
export function entryName(e) {
  if (e.kind === "account") return e.name || t("bot.unknown");
  return t("rating.bot_house", { bot: botName(e.bot, e.level) });
}

/** What kind of computer an entry is, in words. @param {BotLadderEntry} e */
function entryNote(e) {
  if (e.kind !== "account") return t("rating.bot_site");
  return e.about ? t("rating.bot_account_about", { about: e.about }) : t("rating.bot_account");
}

const call = newestWins(); // the newest call of showBotLadder: only its answer is drawn

/**
 * Fill the computer ladder section for one game and seat count (the newest call wins).
 * @param {string} game the game's key
 * @param {string} gameName its name in the page's language
 * @param {number} seats
 */
export async function showBotLadder(game, gameName, seats) {
  const stale = call();
  const ladder = await getBotLadder(game, seats);
  if (stale()) return; // another choice was made meanwhile: it draws
  const title = document.getElementById("bots-title");
  if (title) title.textContent = t("rating.bots_board_title", { game: gameName, seats });
  const table = /** @type {HTMLTableElement | null} */ (document.getElementById("bots-board"));
  const chart = document.getElementById("bots-chart");
  if (!table || !chart) return;
  table.innerHTML = "";
  chart.innerHTML = "";
  table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("rating.rank") }),
    el("th", { scope: "col", text: t("rating.name") }), el("th", { scope: "col", text: t("rating.rating") }),
    el("th", { scope: "col", text: t("rating.games") }))));
  const body = el("tbody");
  for (const e of ladder.entries) {
    const who = el("th", { scope: "row" }, el("span", { class: "bot-name", text: entryName(e) }),
      el("span", { class: "bot-note", text: entryNote(e) }));
    body.append(el("tr", { "data-kind": e.kind }, el("td", { text: String(e.rank) }), who,
      el("td", { text: String(e.rating) }), el("td", { text: String(e.games) })));
  }
  if (!ladder.entries.length) body.append(el("tr", {}, el("td", { colspan: "4", text: t("rating.bots_none") })));
  table.append(body);
  if (ladder.entries.length) {
    const rows = ladder.entries.slice(0, 12).map((e) => ({
      label: entryName(e), value: e.rating, note: t("rating.bot_games", { games: e.games }) }));
    chart.append(dotsChart(t("rating.bots_chart"), rows));
  }
}
