// The play page's line for a ranked daily attempt (docs/security.md, "The daily deal"):
// it says the game is the day's ranked attempt and what that attempt does not get.

import { dailyAttempt } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./ui.js";

/** @param {string} matchId @param {HTMLElement | null} after */
export async function showDailyBadge(matchId, after) {
  const found = await dailyAttempt(matchId).catch(() => null);
  if (!found || !found.daily || !found.day || !after) return;
  document.body.dataset.dailyRanked = found.day;
  const key = found.finished ? "daily.ranked_done" : "daily.ranked_attempt";
  after.after(el("p", { class: "daily-ranked table-meta", "data-day": found.day, text: t(key, { day: found.day }) }));
}
