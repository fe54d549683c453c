// The daily deal page (docs/web.md, "Daily deal"): for each solitaire with a solver,
// today's deal (the same for everyone, Copenhagen time) sealed — its commitment and
// those of the coming days shown and remembered in this browser — one ranked attempt
// (play or continue it), the streak of days played, and a day's leaderboard (bonus,
// then fewer moves, then less time) — today's or a past day's.  A past day's deal is
// revealed: the page checks here, with SubtleCrypto, that SHA-256 of "<deal>:<salt>" is
// the commitment (the one this browser saw before, when it saw one) and offers the deal
// for practice.

import { ApiError, dailyCommitments, dailyDays, dailyInfo, dailyLeaderboard, ensurePlayer, getGames, playDaily, rememberMatch, saveToken } from "./api.js";
import { howToCheck, sha256Hex } from "./fair.js";
import { currentLang, t } from "./i18n.js";
import { el, errorText, initPage, newestWins, showMessage } from "./ui.js";

const SEALS = "spillebord.daily.seals";

/** The commitments this browser has seen, by "game day".
 * @returns {Record<string, string>} */
function seenSeals() {
  try {
    return JSON.parse(localStorage.getItem(SEALS) || "{}");
  } catch {
    return {};
  }
}

/** @param {string} game @param {{ day: string, commitment: string | null }[]} days */
function rememberSeals(game, days) {
  const seen = seenSeals();
  for (const d of days) if (d.commitment && !seen[`${game} ${d.day}`]) seen[`${game} ${d.day}`] = d.commitment;
  const keys = Object.keys(seen).sort().slice(-120); // about two months of two games
  localStorage.setItem(SEALS, JSON.stringify(Object.fromEntries(keys.map((k) => [k, seen[k]]))));
}

/** Whether a revealed day checks out: "verified", "mismatch" or "unchecked".
 * @param {string} game @param {import("./protocol").DaySeal} d */
async function check(game, d) {
  if (!d.commitment || !d.text) return "unchecked";
  const hash = await sha256Hex(d.text);
  if (hash === null) return "unchecked";
  const before = seenSeals()[`${game} ${d.day}`];
  return hash === d.commitment && (!before || before === d.commitment) ? "verified" : "mismatch";
}

/** @typedef {import("./protocol").GameInfo} GameInfo */

/** @param {unknown} err */
function fail(err) {
  const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
  showMessage(errorText(e.code, e.reason, e), "error");
}

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * Draw a day's leaderboard in `box`.  Days can be chosen faster than the answers come,
 * and answers come in any order: a call whose `stale()` turned true (a newer day was
 * chosen) draws nothing.
 * @param {HTMLElement} box @param {GameInfo} g @param {string} day @param {() => boolean} stale
 */
async function board(box, g, day, stale) {
  box.innerHTML = "";
  const data = await dailyLeaderboard(g.key, day);
  if (stale()) return;
  const verdict = data.deal === null ? null : await check(g.key, data);
  if (stale()) return;
  if (verdict === null) { // the day is not over: its deal is sealed
    box.append(el("p", { class: "table-meta daily-sealed", text: t("daily.sealed_board", { day: data.day }) }));
  } else {
    const deal = data.text ? data.text.split(":")[0] : String(data.deal); // exact beyond 2^53
    box.append(el("p", { class: "table-meta" }, t("daily.deal_of", { day: data.day, deal }), " ",
      el("a", { class: "daily-practice", href: `/?game=${g.key}&deal=${deal}`, text: t("daily.see_deal") })));
    box.append(el("p", { class: `daily-check ${verdict === "mismatch" ? "fair-bad" : "fair-ok"}`, "data-check": verdict,
      text: t(`daily.${verdict}`, { day: data.day }) }));
    if (data.text && data.commitment) {
      box.append(howToCheck(t("fair.how", { text: data.text }), " ", el("code", { text: data.commitment })));
    }
  }
  box.append(el("p", { class: "table-meta daily-ranks", text: t("daily.ranks_by") }));
  const table = el("table", { class: "stats-table daily-board", "data-game": g.key });
  table.append(el("thead", {}, el("tr", {}, ...["rating.rank", "rating.name", "daily.bonus", "daily.moves", "daily.time", "daily.undos"]
    .map((k) => el("th", { scope: "col", text: t(k) })))));
  const body = el("tbody");
  for (const p of data.players) {
    const name = p.finished && p.match_id ? el("a", { href: `/replay/${p.match_id}`, text: p.name || t("lobby.guest") }) : (p.name || t("lobby.guest"));
    body.append(el("tr", {}, el("td", { text: p.rank === null ? t("daily.playing") : String(p.rank) }),
      el("th", { scope: "row" }, name), el("td", { text: String(p.bonus) }), el("td", { text: String(p.moves) }),
      el("td", { text: clock(p.seconds) }), el("td", { class: "daily-undos", text: String(p.undos) })));
  }
  if (!data.players.length) body.append(el("tr", {}, el("td", { colspan: "6", text: t("daily.nobody") })));
  table.append(body);
  box.append(el("div", { class: "table-scroll" }, table));
}

/** @param {GameInfo} g */
async function card(g) {
  const info = await dailyInfo(g.key);
  const name = g.name[currentLang()] || g.name.da;
  // A finished attempt is looked at (its replay), never continued.
  const label = !info.attempt ? "daily.play" : info.attempt_finished ? "daily.see_attempt" : "daily.continue";
  const button = el("button", { type: "button", class: "primary daily-play", "data-game": g.key, text: t(label) });
  button.addEventListener("click", async () => {
    if (info.attempt) {
      location.href = info.attempt_finished ? `/replay/${info.attempt}` : `/play/${info.attempt}`;
      return;
    }
    button.disabled = true;
    try {
      const made = await playDaily(g.key);
      if (made.token) saveToken(made.match_id, made.token);
      rememberMatch({ match_id: made.match_id, game: g.key });
      location.href = `/play/${made.match_id}`;
    } catch (err) {
      fail(err);
      button.disabled = false;
    }
  });
  const seals = await dailyCommitments(g.key);
  rememberSeals(g.key, seals.days);
  const ahead = el("ul", { class: "daily-seals" }, ...seals.days.slice(1).map((d) =>
    el("li", {}, `${d.day}: `, el("code", { text: d.commitment || "–" }))));
  const boardBox = el("div", { class: "daily-board-box" });
  const days = el("select", { "aria-label": t("daily.day"), class: "daily-day" });
  for (const d of (await dailyDays(g.key)).days) days.append(el("option", { value: d.day, text: d.day }));
  const chosen = newestWins(); // the newest choice of day draws its leaderboard
  days.addEventListener("change", () => {
    const stale = chosen();
    board(boardBox, g, days.value, stale).catch((err) => stale() || fail(err));
  });
  await board(boardBox, g, info.day, chosen());
  return el("section", { class: "table-card daily-card", "data-game": g.key },
    el("h2", { text: t("daily.game_today", { game: name, day: info.day }) }),
    el("p", { class: "table-meta daily-seal" }, t("daily.deal_line"), " ",
      el("code", { class: "daily-commitment", text: info.commitment || "–" })),
    el("details", { class: "daily-ahead" }, el("summary", { text: t("daily.seals") }),
      el("p", { class: "fair-detail", text: t("daily.seals_how") }), ahead),
    info.difficulty ? el("p", { class: "table-meta daily-difficulty", "data-level": info.difficulty,
      text: t("daily.difficulty", { level: t(`difficulty.${info.difficulty}`) }) }) : "",
    el("p", { class: "table-meta daily-streak", text: t("daily.streak", { n: info.streak }) }),
    button, el("h3", { text: t("daily.leaderboard") }),
    el("label", { class: "inline" }, t("daily.day"), " ", days), boardBox);
}

async function main() {
  await initPage();
  await ensurePlayer();
  const box = document.getElementById("daily-games");
  try {
    const games = (await getGames()).filter((g) => g.solitaire && g.winnable);
    for (const g of games) box?.append(await card(g));
  } catch (err) {
    fail(err);
  }
  document.body.dataset.ready = "1";
}

main();
