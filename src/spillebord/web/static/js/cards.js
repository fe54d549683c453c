// Cards drawn with CSS and inline SVG (no image downloads): one <svg> sprite of the four
// suit symbols is put in the page once; each card is a small element using it.
// Colours come from CSS variables, so the four-colour option is one class on <body>.

import { cardName, has, t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const SUIT_SHAPES = {
  H: '<path d="M50 90C22 64 5 47 5 29 5 13 17 4 30 4c9 0 16 5 20 13C54 9 61 4 70 4c13 0 25 9 25 25 0 18-17 35-45 61z"/>',
  D: '<path d="M50 3 88 50 50 97 12 50z"/>',
  S: '<path d="M50 3C36 24 6 38 6 60c0 14 11 22 22 22 8 0 15-4 19-10-1 10-5 18-13 25h32c-8-7-12-15-13-25 4 6 11 10 19 10 11 0 22-8 22-22C94 38 64 24 50 3z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/><path d="M45 50h10l7 47H38z"/>',
};
// The corner index of a rank in the page's language: Danish cards say E K D B (es,
// konge, dame, bonde = knægt), English ones A K Q J (docs/glossary.md).
/** @param {string} rank */
function rankIndex(rank) {
  const key = `index.${rank}`;
  return has(key) ? t(key) : rank;
}

/**
 * @typedef {object} CardOpts
 * @property {boolean} [button] a focusable <button> instead of a <div role=img>
 * @property {string} [label] the screen-reader label
 * @property {number} [count] (backs) a badge with the number of cards
 * @property {string} [text] (slots) a small text inside
 */

/**
 * @param {CardOpts} opts
 * @returns {HTMLElement}
 */
function base(opts) {
  if (opts.button) {
    const b = document.createElement("button");
    b.type = "button";
    return b;
  }
  return document.createElement("div");
}

export function installSuitSprite() {
  if (document.getElementById("suit-sprite")) return;
  const svg = document.createElementNS(NS, "svg");
  svg.id = "suit-sprite";
  svg.setAttribute("aria-hidden", "true");
  svg.style.display = "none";
  svg.innerHTML = Object.entries(SUIT_SHAPES)
    .map(([s, shape]) => `<symbol id="suit-${s}" viewBox="0 0 100 100">${shape}</symbol>`)
    .join("");
  document.body.prepend(svg);
}

/** @param {string} suit @param {string} cls */
function suitIcon(suit, cls) {
  return `<svg class="${cls}" aria-hidden="true" focusable="false"><use href="#suit-${suit}"/></svg>`;
}

// A face-up card element.  `opts.button` makes it a focusable <button>; `opts.label`
// overrides the screen-reader label (e.g. "hjerter otte, række").
/** @param {string} code @param {CardOpts} [opts] */
export function cardEl(code, opts = {}) {
  const el = base(opts);
  el.className = "card";
  if (!opts.button) el.setAttribute("role", "img");
  el.dataset.code = code;
  el.setAttribute("aria-label", opts.label || cardName(code));
  if (code === "JK") {
    el.classList.add("joker");
    el.innerHTML = `<span class="rank">★</span><span class="joker-text" aria-hidden="true">JOKER</span>`;
    return el;
  }
  const rank = rankIndex(code[0]);
  const suit = code[1];
  el.classList.add(`suit-${suit}`);
  el.innerHTML =
    `<span class="corner" aria-hidden="true"><span class="rank">${rank}</span>${suitIcon(suit, "pip")}</span>` +
    suitIcon(suit, "centre") +
    `<span class="corner bottom" aria-hidden="true"><span class="rank">${rank}</span>${suitIcon(suit, "pip")}</span>`;
  return el;
}

// A face-down card (a pile back).  `count` adds a badge with the number of cards.
/** @param {CardOpts} [opts] */
export function backEl(opts = {}) {
  const el = base(opts);
  el.className = "card back";
  if (!opts.button) el.setAttribute("role", "img");
  el.setAttribute("aria-label", opts.label || t("card.facedown"));
  if (opts.count !== undefined) {
    const badge = document.createElement("span");
    badge.className = "count";
    badge.textContent = String(opts.count);
    badge.setAttribute("aria-hidden", "true");
    el.append(badge);
  }
  return el;
}

// An empty place (a slot outline), optionally with a small label inside.
/** @param {CardOpts} [opts] */
export function slotEl(opts = {}) {
  const el = base(opts);
  el.className = "card slot";
  if (opts.label) {
    // A labelled place that is not a button is an image of the place (a bare <div>
    // may not carry a label).
    if (!opts.button) el.setAttribute("role", "img");
    el.setAttribute("aria-label", opts.label);
  }
  if (opts.text) {
    const s = document.createElement("span");
    s.className = "slot-text";
    s.textContent = opts.text;
    s.setAttribute("aria-hidden", "true");
    el.append(s);
  }
  return el;
}

/** @param {string} code */
export function rankText(code) {
  return rankIndex(code[0]);
}
