// The generic view: the page's board for a game without a renderer of its own (its
// manifest names none, or the module could not be loaded).  It says so, and offers the
// seat's legal actions as buttons worded by the page (card codes become card names),
// so the game can still be played to the end; no board is ever left blank.

import { t } from "../i18n.js";

/**
 * @param {HTMLElement} root
 * @param {import("../board").RendererCtx} ctx
 * @returns {import("../board").Renderer}
 */
export function createRenderer(root, ctx) {
  root.classList.add("generic");
  root.innerHTML = "";
  const note = document.createElement("p");
  note.className = "generic-note";
  note.setAttribute("role", "note");
  note.textContent = t("play.generic_board");
  const list = document.createElement("div");
  list.className = "generic-actions";
  list.setAttribute("role", "group");
  list.setAttribute("aria-label", t("play.generic_moves"));
  root.append(note, list);
  return {
    update(state) {
      list.replaceChildren(...state.legal.map((action) => {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.action = action;
        button.textContent = ctx.describe(action);
        button.addEventListener("click", () => ctx.act(action));
        return button;
      }));
      list.hidden = state.legal.length === 0;
    },
  };
}
