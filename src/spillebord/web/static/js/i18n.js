// Message catalogues: every UI string lives in /static/i18n/<lang>.json.
// Danish is the default; the choice is kept in localStorage ("spillebord.lang").
// t(key, vars) substitutes {name} placeholders; a missing key shows the key itself,
// so a gap in a catalogue is visible instead of silently blank.

const LANGS = ["da", "en"];
let lang = "da";
let messages = {};

export function currentLang() {
  return lang;
}

export async function loadI18n() {
  const stored = localStorage.getItem("spillebord.lang");
  lang = LANGS.includes(stored) ? stored : "da";
  const res = await fetch(`/static/i18n/${lang}.json`);
  messages = await res.json();
  document.documentElement.lang = lang;
  return lang;
}

export function setLang(next) {
  if (!LANGS.includes(next)) return;
  localStorage.setItem("spillebord.lang", next);
  location.reload();
}

export function t(key, vars = {}) {
  const text = messages[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

export function has(key) {
  return key in messages;
}

// Fill static markup: data-i18n="key" sets the text, data-i18n-aria="key" the aria-label,
// data-i18n-title="key" the title, data-i18n-placeholder the placeholder.
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
}

// Card names for screen readers: "hjerter otte" in Danish, "eight of hearts" in English.
export function cardName(code) {
  if (!code) return t("card.unknown");
  if (code === "JK") return t("card.joker");
  return t("card.name", { suit: t(`suit.${code[1]}`), rank: t(`rank.${code[0]}`) });
}
