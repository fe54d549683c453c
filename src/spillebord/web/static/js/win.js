// The win screen of a solitaire: shown once when the player wins while the page is open —
// the bonus, the time, the moves and the best result on this deal, with a short
// animation of cards falling that the player can switch off (kept in localStorage,
// spillebord.win.animation; off by itself when the system asks for reduced motion).

import { cardEl } from "./cards.js";
import { t } from "./i18n.js";
import { el, showModal } from "./ui.js";

const KEY = "spillebord.win.animation";
const CARDS = ["AH", "KS", "QD", "JC", "TH", "9S", "8D", "7C", "KH", "QS", "AD", "JS"];

/** Is the animation wanted? (the player's choice, else not with reduced motion) */
export function animationOn() {
  const stored = localStorage.getItem(KEY);
  if (stored) return stored === "on";
  return !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {HTMLElement} box */
function animate(box) {
  box.replaceChildren();
  if (!animationOn()) return;
  CARDS.forEach((code, i) => {
    const card = cardEl(code, { label: "" });
    card.setAttribute("aria-hidden", "true");
    card.classList.add("win-card");
    card.style.left = `${4 + ((i * 37) % 88)}%`;
    card.style.animationDelay = `${(i % 6) * 0.18}s`;
    box.append(card);
  });
}

/**
 * @param {{ bonus: number, moves: number, seconds: number, best: string | null,
 *   deal: number | null, formatTime: (s: number) => string, opener?: HTMLElement | null }} win
 */
export function showWin(win) {
  const fall = el("div", { class: "win-fall", "aria-hidden": "true" });
  const toggle = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox" }));
  toggle.checked = animationOn();
  toggle.addEventListener("change", () => {
    localStorage.setItem(KEY, toggle.checked ? "on" : "off");
    animate(fall);
  });
  const close = el("button", { type: "button", class: "primary", text: t("common.close") });
  const facts = el("dl", { class: "win-facts" },
    el("dt", { text: t("win.bonus") }), el("dd", { text: String(win.bonus) }),
    el("dt", { text: t("win.time") }), el("dd", { text: win.formatTime(win.seconds) }),
    el("dt", { text: t("win.moves") }), el("dd", { text: String(win.moves) }));
  const dlg = el("dialog", { class: "win-dialog", "aria-labelledby": "win-title" },
    fall,
    el("h2", { id: "win-title", text: t("win.title") }),
    el("p", { class: "win-lead", text: t("win.lead", { bonus: win.bonus }) }),
    facts);
  if (win.best && win.deal !== null) {
    dlg.append(el("p", { class: "win-best" }, el("strong", { text: t("best.title", { deal: win.deal }) }), el("br"), win.best));
  }
  dlg.append(el("p", { class: "win-actions" },
    el("label", { class: "check" }, toggle, " ", t("win.animation")), " ", close));
  showModal(/** @type {HTMLDialogElement} */ (dlg), close, win.opener ?? null);
  animate(fall);
  close.focus();
  return dlg;
}
