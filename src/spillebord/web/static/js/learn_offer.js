// The start page's offer of the lessons (issue #33) to a first-time player: a browser
// that has no game yet sees "Ny her? Lær et spil trin for trin" with a link to each
// game's lesson (/learn/{game}; the games with a lesson from GET /api/learn).

import { knownMatches } from "./api.js";
import { currentLang, loadI18n, t } from "./i18n.js";
import { el } from "./ui.js";

async function main() {
  const box = document.getElementById("learn-offer");
  if (!box || knownMatches().length) return;
  const [, lessons, games] = await Promise.all([
    loadI18n(),
    fetch("/api/learn").then((r) => (r.ok ? r.json() : [])).catch(() => []),
    fetch("/api/games").then((r) => (r.ok ? r.json() : [])).catch(() => []),
  ]);
  /** @type {import("./protocol").GameInfo[]} */
  const offered = games.filter((/** @type {import("./protocol").GameInfo} */ g) => lessons.includes(g.key));
  if (!offered.length) return;
  const list = el("ul");
  for (const g of offered) {
    const name = g.name[currentLang()] || g.name.da;
    list.append(el("li", {}, el("a", { class: "button", href: `/learn/${encodeURIComponent(g.key)}`, text: t("learn.title", { game: name }) })));
  }
  box.replaceChildren(el("h2", { text: t("learn.offer_title") }), el("p", { text: t("learn.offer_text") }), list);
  box.hidden = false;
}

main();
