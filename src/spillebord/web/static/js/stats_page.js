// The statistics page (/stats): the browser's player's results per game as a table and
// as charts (stats.js).  Viewing it never creates a player id.

import { getGames } from "./api.js";
import { t } from "./i18n.js";
import { renderStats } from "./stats.js";
import { el, errorText, initPage, showMessage } from "./ui.js";

async function main() {
  await initPage();
  document.title = `${t("stats.page_title")} — ${t("app.name")}`;
  /** @type {any[]} */
  let games = [];
  try {
    games = await getGames();
  } catch (err) {
    const e = /** @type {{ code: string, reason: string }} */ (err);
    showMessage(errorText(e.code, e.reason), "error");
  }
  const box = /** @type {HTMLElement} */ (document.getElementById("stats-body"));
  const player = localStorage.getItem("spillebord.player");
  if (player) await renderStats(box, player, games, { full: true });
  else box.append(el("p", { text: t("stats.none") }));
  document.body.dataset.ready = "1";
}

main();
