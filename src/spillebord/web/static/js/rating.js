// The game page's rating line (docs/web.md, "Ratings"): once a table game is over, the
// player's rating change for it ("Din rating: 1000 → 1136"), as soon as the server has
// rated the match (it does within a few seconds; unrated games say so).

import { getPlayerRatings } from "./api.js";
import { t } from "./i18n.js";

/**
 * @param {HTMLElement} box
 * @param {string} matchId
 */
export async function showRatingChange(box, matchId) {
  const me = localStorage.getItem("spillebord.player");
  if (!me) return;
  for (let i = 0; i < 20; i++) {
    const mine = await getPlayerRatings(me).catch(() => null);
    const change = mine?.history.find((h) => h.match_id === matchId);
    if (change) {
      box.textContent = t("rating.change", { before: change.rating_before, after: change.rating });
      box.hidden = false;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
