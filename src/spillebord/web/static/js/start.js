// The start page: the registered games (GET /api/games) with a line each and how many
// play; a solitaire starts with a new deal, a chosen deal number or a winnable deal (of a chosen difficulty
// where the game ships a table of rated deals); a table game opens a room with
// seats for me, friends (invite links) and bots (a level of the game, or a named bot).  A shared link
// (/?game=posthus&deal=7) preselects that deal.  Statistics and history: stats.js.

import { renderAccount } from "./account.js";
import { ApiError, createMatch, ensurePlayer, getGames, rememberMatch, saveToken } from "./api.js";
import { currentLang, t } from "./i18n.js";
import { botName } from "./panel.js";
import { renderHistory, renderStats } from "./stats.js";
import { el, errorText, initPage, showMessage } from "./ui.js";

/** @typedef {import("./protocol").GameInfo} GameInfo */
/** @typedef {import("./protocol").CreateMatchRequest} CreateMatchRequest */

const params = new URLSearchParams(location.search);

/** @param {GameInfo} g */
function playersText(g) {
  if (g.solitaire) return t("start.players_one");
  const s = g.seats;
  const contiguous = s.every((n, i) => i === 0 || n === s[i - 1] + 1);
  if (contiguous && s.length > 2) return t("start.players_range", { min: s[0], max: s[s.length - 1] });
  return t("start.players_list", { list: s.join(", ") });
}

/** @param {GameInfo} g */
function flagBoxes(g) {
  const box = el("fieldset", { class: "flags" }, el("legend", { text: t("start.variants") }));
  if (!g.flags.length) return null;
  const wanted = chosen(g, "flags");
  const on = wanted === null ? null : wanted.split(",");
  for (const f of g.flags) {
    const id = `${g.key}-flag-${f.name}`;
    box.append(el("label", { for: id, class: "check" },
      el("input", { type: "checkbox", id, name: f.name, checked: on ? on.includes(f.name) : f.default }),
      f[currentLang()] || f.da));
  }
  return box;
}

/**
 * A choice the address brings for game ``g``'s card (the game page's "Nyt spil":
 * panel.js ``newGameHref``), else null: ``flags`` (the variants on, comma-separated),
 * ``seats``, ``level`` (the computers').
 * @param {GameInfo} g @param {string} name
 */
function chosen(g, name) {
  return params.get("game") === g.key ? params.get(name) : null;
}

/** @param {HTMLFormElement} form @param {GameInfo} g */
function readFlags(form, g) {
  /** @type {{ [flag: string]: boolean }} */
  const flags = {};
  for (const f of g.flags) {
    const box = form.querySelector(`[name="${f.name}"]`);
    flags[f.name] = box instanceof HTMLInputElement && box.checked;
  }
  return flags;
}

/**
 * Start the game ``spec`` that ``form`` was submitted for; every button that submits the
 * form (its own and the card's "Spil") waits meanwhile.
 * @param {CreateMatchRequest} spec @param {HTMLFormElement} form
 */
async function start(spec, form) {
  const buttons = [...form.elements].filter((e) => e instanceof HTMLButtonElement && e.type === "submit");
  for (const b of buttons) /** @type {HTMLButtonElement} */ (b).disabled = true;
  showMessage(t("start.starting"));
  try {
    await ensurePlayer();
    const res = await createMatch(spec);
    if (res.token) saveToken(res.match_id, res.token);
    localStorage.setItem(`spillebord.invites.${res.match_id}`, JSON.stringify(res.invites || []));
    rememberMatch({ match_id: res.match_id, game: spec.game });
    location.href = `/play/${res.match_id}`;
  } catch (err) {
    const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
    showMessage(errorText(e.code, e.reason, e), "error");
    for (const b of buttons) /** @type {HTMLButtonElement} */ (b).disabled = false;
  }
}

/** @param {GameInfo} g */
function solitaireForm(g) {
  const form = el("form", { class: "start-form", "data-game": g.key });
  const name = `${g.key}-deal`;
  const shared = params.get("game") === g.key && params.get("deal");
  /** @param {string} value @param {string} label @param {boolean} checked */
  const opt = (value, label, checked) => el("label", { class: "check" },
    el("input", { type: "radio", name, value, checked }), label);
  const number = el("input", { type: "number", min: "0", step: "1", name: "deal-number", inputmode: "numeric",
    "aria-label": t("start.deal_number"), value: shared || "" });
  const radios = el("fieldset", { class: "deal-choice" }, el("legend", { text: t("start.deal") }),
    opt("random", t("start.deal_random"), !shared),
    el("span", { class: "deal-number" }, opt("number", t("start.deal_number"), Boolean(shared)), number));
  /** @type {HTMLSelectElement | null} */
  let level = null;
  if (g.solver) {
    const winnable = opt("winnable", t("start.deal_winnable"), false);
    if (g.difficulty) {
      // The difficulty of a winnable deal: from the shipped table of rated deals, for
      // the variant it was computed for (g.difficulty holds its flags).
      level = el("select", { name: "difficulty", "aria-label": t("start.difficulty") });
      level.append(el("option", { value: "", text: t("start.difficulty_any") }));
      for (const k of ["easy", "medium", "hard"]) level.append(el("option", { value: k, text: t(`difficulty.${k}`) }));
      level.addEventListener("change", () => {
        const radio = form.querySelector('input[value="winnable"]');
        if (radio instanceof HTMLInputElement) radio.checked = true;
      });
      radios.append(el("span", { class: "deal-number deal-difficulty" }, winnable, level));
    } else {
      radios.append(winnable);
    }
  }
  // Typing a number (or clicking into the box) chooses "Spil nr."; focus alone never
  // changes a choice — tabbing past the box keeps a random deal (docs/web.md).
  const chooseNumber = () => {
    const radio = form.querySelector('input[value="number"]');
    if (radio instanceof HTMLInputElement) radio.checked = true;
  };
  number.addEventListener("input", chooseNumber);
  number.addEventListener("pointerdown", chooseNumber);
  const button = el("button", { type: "submit", class: "primary", text: t("start.play") });
  form.append(radios);
  const flags = flagBoxes(g);
  if (flags) form.append(flags);
  form.append(button);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const checked = form.querySelector(`input[name="${name}"]:checked`);
    const mode = checked instanceof HTMLInputElement ? checked.value : "random";
    /** @type {CreateMatchRequest["deal"]} */
    let deal = mode === "winnable" ? "winnable" : "random";
    if (mode === "number") {
      deal = Number(number.value);
      if (!Number.isInteger(deal) || deal < 0 || number.value === "") {
        showMessage(t("start.bad_deal"), "error");
        return;
      }
    }
    /** @type {CreateMatchRequest} */
    const spec = { game: g.key, seats: ["me"], deal, flags: readFlags(form, g) };
    if (mode === "winnable" && level && level.value) {
      const rated = g.difficulty || {};
      if (Object.keys(spec.flags || {}).some((f) => Boolean(spec.flags?.[f]) !== Boolean(rated[f]))) {
        showMessage(t("start.difficulty_variant"), "error");
        return;
      }
      spec.difficulty = /** @type {"easy" | "medium" | "hard"} */ (level.value);
    }
    start(spec, form);
  });
  return form;
}

/** @param {GameInfo} g @param {number} i @param {string | null} level the computers' level chosen, if any */
function seatRow(g, i, level) {
  const kinds = i === 0 ? ["me", "human", "bot"] : ["human", "bot"];
  const kind = el("select", { name: `kind-${i}`, "aria-label": t("start.seat_kind", { n: i + 1 }) });
  for (const k of kinds) kind.append(el("option", { value: k, text: t(`start.kind_${k}`) }));
  kind.value = i === 0 ? "me" : "bot";
  // One choice per bot seat: the game's levels first (its default selected), then every
  // bot the server lists, each by its display name.
  const bot = el("select", { name: `bot-${i}`, "aria-label": t("start.bot_kind", { n: i + 1 }) });
  const levels = el("optgroup", { label: t("start.levels") });
  for (const lv of g.levels || []) levels.append(el("option", { value: `level:${lv.level}`, text: botName(lv.bot, lv.level) }));
  const others = el("optgroup", { label: t("start.bots") });
  for (const b of g.bots) others.append(el("option", { value: `bot:${b}`, text: botName(b, null) }));
  if (levels.children.length) bot.append(levels);
  bot.append(others);
  const known = (g.levels || []).some((lv) => String(lv.level) === level);
  bot.value = known ? `level:${level}` : g.default_level ? `level:${g.default_level}` : `bot:${g.bots[0]}`;
  const sync = () => {
    bot.hidden = kind.value !== "bot";
  };
  kind.addEventListener("change", sync);
  sync();
  return el("li", { class: "seat-row", "data-seat": String(i) },
    el("span", { class: "seat-no", text: t("start.seat_n", { n: i + 1 }) }), kind, bot);
}

/** @param {GameInfo} g */
function tableForm(g) {
  const form = el("form", { class: "start-form", "data-game": g.key });
  const count = el("select", { name: "seats", "aria-label": t("start.seat_count") });
  for (const n of g.seats) count.append(el("option", { value: String(n), text: String(n) }));
  const seatCount = chosen(g, "seats");
  count.value = seatCount && g.seats.includes(Number(seatCount)) ? seatCount : String(g.default_seats);
  const level = chosen(g, "level");
  const list = el("ol", { class: "seat-rows" });
  const fill = () => {
    list.innerHTML = "";
    for (let i = 0; i < Number(count.value); i++) list.append(seatRow(g, i, level));
  };
  count.addEventListener("change", fill);
  fill();
  const button = el("button", { type: "submit", class: "primary", text: t("start.open_room") });
  const takeover = el("input", { type: "checkbox", name: "takeover", id: `${g.key}-takeover` });
  // The turn timer (server/turns.py): when a turn runs out, a bot of the table's level plays it.
  const turnTimer = el("select", { name: "turn", id: `${g.key}-turn` });
  for (const [value, key] of [["", "start.turn_none"], ["30", "start.turn_30"], ["60", "start.turn_60"], ["120", "start.turn_120"]]) {
    turnTimer.append(el("option", { value, text: t(key) }));
  }
  // Open tables (lobby.js): public in the lobby, and bots in the free seats after a wait.
  const isPublic = el("input", { type: "checkbox", name: "public", id: `${g.key}-public` });
  const fillAfter = el("select", { name: "fill", id: `${g.key}-fill` });
  for (const [value, key] of [["", "lobby.fill_never"], ["30", "lobby.fill_30"], ["60", "lobby.fill_60"], ["120", "lobby.fill_120"]]) {
    fillAfter.append(el("option", { value, text: t(key) }));
  }
  form.append(el("label", { class: "inline" }, t("start.seat_count"), " ", count), list,
    el("label", { class: "inline", for: `${g.key}-turn` }, t("start.turn"), " ", turnTimer),
    el("label", { class: "check", for: `${g.key}-takeover` }, takeover, t("start.takeover")),
    el("label", { class: "check", for: `${g.key}-public` }, isPublic, t("start.public")),
    el("label", { class: "inline", for: `${g.key}-fill` }, t("start.fill"), " ", fillAfter));
  const flags = flagBoxes(g);
  if (flags) form.append(flags);
  form.append(button);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    /** @param {Element} li @param {string} field */
    const valueOf = (li, field) => {
      const input = li.querySelector(`[name="${field}"]`);
      return input instanceof HTMLSelectElement ? input.value : "";
    };
    /** @type {import("./protocol").SeatSpec[]} */
    const seats = [...list.children].map((li, i) => {
      const kind = valueOf(li, `kind-${i}`);
      if (kind === "me" || kind === "human") return kind;
      const [what, value] = valueOf(li, `bot-${i}`).split(":");
      return what === "level" ? { level: Number(value) } : { bot: value };
    });
    /** @type {CreateMatchRequest} */
    const spec = { game: g.key, seats, deal: "random", flags: readFlags(form, g) };
    if (takeover.checked) spec.takeover_seconds = 60;
    if (turnTimer.value) spec.turn_seconds = Number(turnTimer.value);
    if (isPublic.checked) spec.public = true;
    if (fillAfter.value) spec.fill_after = Number(fillAfter.value);
    start(spec, form);
  });
  return form;
}

/**
 * A game's card: its name, what it is, and a "Spil" button that starts it at once with
 * the form's choices as they stand (a random deal; a table game: you against computers
 * at the default level).  The name opens the form for other choices; while it is open,
 * the form's own button is the one shown (docs/web.md, "Pages").
 * @param {GameInfo} g
 */
function gameCard(g) {
  const lang = currentLang();
  const form = g.solitaire ? solitaireForm(g) : tableForm(g);
  form.id = `start-${g.key}`;
  const details = el("details", { class: "game-options" },
    el("summary", {},
      el("span", { class: "game-name", text: g.name[lang] || g.name.da }),
      el("span", { class: "game-blurb", text: g.blurb[lang] || g.blurb.da }),
      el("span", { class: "pill", text: playersText(g) })),
    form);
  if (params.get("game") === g.key) details.open = true;
  const play = el("button", { type: "submit", form: form.id, class: "primary play-now", text: t("start.play") });
  return el("div", { class: "game-card", id: `game-${g.key}`, "data-game": g.key }, details, play);
}

async function main() {
  await initPage();
  await renderAccount().catch(() => null);
  /** @type {GameInfo[]} */
  let games = [];
  try {
    games = await getGames();
  } catch (err) {
    const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
    showMessage(errorText(e.code, e.reason, e), "error");
  }
  const box = /** @type {HTMLElement} */ (document.getElementById("games"));
  for (const g of games) box.append(gameCard(g));
  if (params.get("game") && params.get("deal")) {
    const g = games.find((x) => x.key === params.get("game"));
    const shared = document.getElementById("shared");
    if (g && shared) {
      shared.hidden = false;
      shared.className = "message ok";
      shared.textContent = t("start.shared_deal", { game: g.name[currentLang()] || g.name.da, deal: params.get("deal") || "" });
    }
  }
  const player = await ensurePlayer().catch(() => null);
  const finished = await renderStats(/** @type {HTMLElement} */ (document.getElementById("stats-body")), player, games);
  await renderHistory(/** @type {HTMLElement} */ (document.getElementById("history-body")), games, finished);
  document.body.dataset.ready = "1";
}

main();
