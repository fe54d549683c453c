// Shared page furniture: the top bar (home, language, four-colour suits), a choice
// dialog, the message area (errors from the server in the player's language) and a
// polite live region for screen readers.

import { installSuitSprite } from "./cards.js";
import { applyI18n, cardName, currentLang, has, loadI18n, setLang, t } from "./i18n.js";

export async function initPage() {
  await loadI18n();
  installSuitSprite();
  if (localStorage.getItem("spillebord.fourColour") === "1") document.body.classList.add("four-colour");
  buildHeader();
  applyI18n();
  ensureLive();
}

function buildHeader() {
  const header = document.querySelector("header.top");
  if (!header) return;
  header.innerHTML = "";
  const home = document.createElement("a");
  home.href = "/";
  home.className = "home";
  home.textContent = t("app.name");
  const spacer = document.createElement("span");
  spacer.className = "spacer";
  const four = document.createElement("button");
  four.type = "button";
  four.id = "four-colour";
  four.setAttribute("aria-pressed", String(document.body.classList.contains("four-colour")));
  four.textContent = t("settings.four_colour");
  four.addEventListener("click", () => {
    const on = document.body.classList.toggle("four-colour");
    localStorage.setItem("spillebord.fourColour", on ? "1" : "0");
    four.setAttribute("aria-pressed", String(on));
  });
  const langSel = document.createElement("select");
  langSel.id = "lang";
  langSel.setAttribute("aria-label", t("settings.language"));
  for (const [code, label] of [["da", "Dansk"], ["en", "English"]]) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = label;
    o.selected = code === currentLang();
    langSel.append(o);
  }
  langSel.addEventListener("change", () => setLang(langSel.value));
  header.append(home, spacer, four, langSel);
}

function ensureLive() {
  if (document.getElementById("live")) return;
  const live = document.createElement("div");
  live.id = "live";
  live.className = "visually-hidden";
  live.setAttribute("aria-live", "polite");
  document.body.append(live);
}

/** @param {string} text */
export function announce(text) {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

// Show a message in #messages; kind is "error", "ok" or "" (info).
/** @param {string} text @param {"error" | "ok" | ""} [kind] */
export function showMessage(text, kind = "") {
  const box = document.getElementById("messages");
  if (!box) return;
  box.hidden = false;
  box.className = `message ${kind}`;
  box.textContent = text;
  box.setAttribute("role", kind === "error" ? "alert" : "status");
}
export function clearMessage() {
  const box = document.getElementById("messages");
  if (box) box.hidden = true;
}

// The text for a server refusal: our own words for the code, then the reason in the
// player's language.  `detail` is the refusal itself (the socket's error message or an
// ApiError): when it has a `key` the catalogue knows ("refused.<key>"), the reason is
// that sentence with its `params` filled in — the params named in `cards` as card names
// ("hjerter otte"), those in `ranks` as rank names, those in `places` in words by
// `placeName` (the game view's own place wording, e.g. "række 2, plads 3"), the rest
// (seats, numbers) as written.  A refusal naming a place gives no reason text when
// there is no `placeName` to word it: a place code never reaches the screen.
// Without such a key the server's English reason is shown only on the English page;
// the Danish page says the code's sentence alone.
/**
 * @param {string} code
 * @param {string} reason
 * @param {import("./protocol").RefusalMessage} [detail]
 * @param {(place: string) => string} [placeName]
 * @returns {string}
 */
export function errorText(code, reason, detail = {}, placeName) {
  const key = `error.${code}`;
  const mine = t(key);
  const own = mine === key ? t("error.unknown") : mine;
  const why = reasonText(detail, placeName) || (currentLang() === "en" && !(detail.places || []).length ? reason : "");
  return why ? `${own} (${why})` : own;
}

// The refusal's reason from its message key, or "" when there is none to translate.
/**
 * @param {import("./protocol").RefusalMessage | null | undefined} detail
 * @param {(place: string) => string} [placeName]
 * @returns {string}
 */
export function reasonText(detail, placeName) {
  if (!detail || !detail.key || !has(`refused.${detail.key}`)) return "";
  const params = { ...(detail.params || {}) };
  for (const name of detail.cards || []) if (name in params) params[name] = cardName(params[name]);
  for (const name of detail.ranks || []) {
    if (name in params && has(`rank.${params[name]}`)) params[name] = t(`rank.${params[name]}`);
  }
  for (const name of detail.places || []) {
    if (!(name in params)) continue;
    if (!placeName) return "";
    params[name] = placeName(params[name]);
  }
  const text = t(`refused.${detail.key}`, params);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A modal choice: resolves with the chosen value, or null when cancelled.
/** @typedef {{ value: string, label: string }} Choice */

/**
 * @param {string} title
 * @param {Choice[]} options
 * @returns {Promise<string | null>}
 */
export function choose(title, options) {
  return new Promise((resolve) => {
    const dlg = document.createElement("dialog");
    dlg.className = "choice-dialog";
    const h = document.createElement("h2");
    h.textContent = title;
    const box = document.createElement("div");
    box.className = "choices";
    for (const opt of options) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "primary";
      b.textContent = opt.label;
      b.dataset.value = opt.value;
      b.addEventListener("click", () => finish(opt.value));
      box.append(b);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = t("common.cancel");
    cancel.addEventListener("click", () => finish(null));
    dlg.append(h, box, cancel);
    dlg.addEventListener("cancel", (ev) => {
      ev.preventDefault();
      finish(null);
    });
    document.body.append(dlg);
    dlg.showModal();
    /** @param {string | null} value */
    function finish(value) {
      dlg.close();
      dlg.remove();
      resolve(value);
    }
  });
}

/**
 * "The newest call wins" for one thing a page draws from answers that may come in any
 * order (a choice made again before its answer came, a timer, a socket message): each
 * call of the returned `begin` starts a new turn and gives that turn's `stale`, true
 * once a newer turn has begun.  An async drawer checks `stale()` after each await and
 * draws nothing (and asks for nothing more) when it is.
 * @returns {() => () => boolean}
 */
export function newestWins() {
  let latest = 0;
  return () => {
    const mine = ++latest;
    return () => mine !== latest;
  };
}

/**
 * An element: `attrs` are attributes, except `class`, `text` (its text) and `on<event>`
 * (a listener); null, undefined and false leave an attribute out, true sets it empty.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{ [name: string]: string | number | boolean | null | undefined | ((ev: any) => void) }} [attrs]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") {
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    } else if (k === "class") node.className = String(v);
    else if (k === "text") node.textContent = String(v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/**
 * Show ``dlg`` as a modal dialog that the ``close`` button and Escape both close: the
 * dialog leaves the page and the focus goes back to ``opener`` (the rules and the win
 * screen).
 * @param {HTMLDialogElement} dlg @param {HTMLElement} close @param {HTMLElement | null} opener
 */
export function showModal(dlg, close, opener) {
  const finish = () => {
    dlg.close();
    dlg.remove();
    if (opener) opener.focus();
  };
  close.addEventListener("click", finish);
  dlg.addEventListener("cancel", (ev) => {
    ev.preventDefault();
    finish();
  });
  document.body.append(dlg);
  dlg.showModal();
}
