// Message catalogues: every UI string lives in /static/i18n/<lang>.json.
// Danish is the default; the choice is kept in localStorage ("spillebord.lang").
// t(key, vars) substitutes {name} placeholders and ICU-style plurals
// ("{count, plural, one {# kort} other {# kort}}"); every string with a count uses a
// plural (docs/glossary.md, tests/test_glossary.py).  A missing key shows the key itself,
// so a gap in a catalogue is visible instead of silently blank.

/** @typedef {"da" | "en"} Lang */
/** @typedef {{ [name: string]: string | number }} Vars */

/** @type {readonly string[]} */
const LANGS = ["da", "en"];
/** @type {Lang} */
let lang = "da";
/** @type {{ [key: string]: string }} */
let messages = {};

/** @param {string | null} value @returns {value is Lang} */
function isLang(value) {
  return value !== null && LANGS.includes(value);
}

/** @returns {Lang} */
export function currentLang() {
  return lang;
}

/** @returns {Promise<Lang>} */
export async function loadI18n() {
  const stored = localStorage.getItem("spillebord.lang");
  lang = isLang(stored) ? stored : "da";
  const res = await fetch(`/static/i18n/${lang}.json`);
  messages = await res.json();
  document.documentElement.lang = lang;
  return lang;
}

/** @param {string} next */
export function setLang(next) {
  if (!isLang(next)) return;
  localStorage.setItem("spillebord.lang", next);
  location.reload();
}

/** @param {string} key @param {Vars} [vars] @returns {string} */
export function t(key, vars = {}) {
  const text = messages[key];
  if (text === undefined) return key;
  return format(text, vars, key);
}

// The closing brace that matches the opening one at `open` (or the end of the text).
/** @param {string} text @param {number} open @returns {number} */
function closing(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return text.length;
}

/** @type {Intl.PluralRules | null} */
let pluralRules = null;
/** @param {number} n */
function pluralCategory(n) {
  if (!pluralRules || pluralRules.resolvedOptions().locale.slice(0, 2) !== lang) pluralRules = new Intl.PluralRules(lang);
  return pluralRules.select(n);
}

// "{count, plural, one {# kort} other {# kort}}": the branch "=N" for an exact N, else
// the language's plural category (Intl.PluralRules: Danish and English use one/other);
// "#" is the number.  A count that is not a number is a page bug: said on the console.
// Danish "1 kort" but "1 pladser" was the bug this fixes (docs/glossary.md).
/** @param {string} name @param {string} options @param {Vars} vars @param {string} key @returns {string} */
function plural(name, options, vars, key) {
  // A refusal's params are strings (docs/protocol.md): digits count as their number.
  const given = vars[name];
  const n = typeof given === "string" && /^-?\d+$/.test(given) ? Number(given) : given;
  if (typeof n !== "number") console.error(`i18n: ${key} needs a number for {${name}}, got ${n}`);
  /** @type {{ [selector: string]: string }} */
  const branches = {};
  let i = 0;
  while (i < options.length) {
    const open = options.indexOf("{", i);
    if (open < 0) break;
    const sel = options.slice(i, open).trim();
    const close = closing(options, open);
    branches[sel] = options.slice(open + 1, close);
    i = close + 1;
  }
  const chosen = branches[`=${n}`] ?? branches[pluralCategory(Number(n))] ?? branches.other ?? "";
  return format(chosen.replace(/#/g, String(n)), vars, key);
}

/** @param {string} text @param {Vars} vars @param {string} key @returns {string} */
function format(text, vars, key) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, open);
    const close = closing(text, open);
    const body = text.slice(open + 1, close);
    const m = body.match(/^\s*(\w+)\s*,\s*plural\s*,([\s\S]*)$/);
    if (m) out += plural(m[1], m[2], vars, key);
    else if (body in vars) out += String(vars[body]);
    else out += `{${body}}`;
    i = close + 1;
  }
  return out;
}

/** @param {string} key */
export function has(key) {
  return key in messages;
}

// Fill static markup: data-i18n="key" sets the text, data-i18n-aria="key" the aria-label,
// data-i18n-title="key" the title, data-i18n-placeholder the placeholder.
/** @param {ParentNode} [root] */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el instanceof HTMLElement) el.textContent = t(el.dataset.i18n || "");
  }
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    if (el instanceof HTMLElement) el.setAttribute("aria-label", t(el.dataset.i18nAria || ""));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    if (el instanceof HTMLElement) el.title = t(el.dataset.i18nTitle || "");
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) el.placeholder = t(el.dataset.i18nPlaceholder || "");
  }
}

// Card names for screen readers: "hjerter otte" in Danish, "eight of hearts" in English.
/** @param {string | null | undefined} code a card code ("8H", "TS", "JK") @returns {string} */
export function cardName(code) {
  if (!code) return t("card.unknown");
  if (code === "JK") return t("card.joker");
  return t("card.name", { suit: t(`suit.${code[1]}`), rank: t(`rank.${code[0]}`) });
}
