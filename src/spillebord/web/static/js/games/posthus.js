// Posthuskabalen renderer: the 4 × 8 grid, runs framed in red, redeal and bonus.
// No rules here: a click on a card picks the legal actions "<card> <gap>" offered by the
// server (asking when two gaps fit); a click on a gap lights up the cards whose action
// ends in that gap.  Arrow keys move the focus over the grid, Enter/Space clicks.

import { cardEl, slotEl } from "../cards.js";
import { slideIn } from "../drag.js";
import { cardName, t } from "../i18n.js";

const COLS = "abcdefgh";

/** @typedef {import("../board").RenderState<import("./views").PosthusView>} State */

/**
 * @param {HTMLElement} root
 * @param {import("../board").RendererCtx} ctx
 * @returns {import("../board").Renderer<import("./views").PosthusView>}
 */
export function createRenderer(root, ctx) {
  root.classList.add("posthus");
  root.innerHTML = "";
  const head = document.createElement("div");
  head.className = "ph-head";
  const roundEl = document.createElement("span");
  roundEl.className = "ph-round";
  const redealBtn = document.createElement("button");
  redealBtn.type = "button";
  redealBtn.className = "ph-redeal";
  redealBtn.addEventListener("click", () => redeal());
  head.append(roundEl, redealBtn);
  // No card can move: say so, and offer the two ways on (redeal, resign).
  const stuck = document.createElement("div");
  stuck.className = "ph-stuck";
  stuck.setAttribute("role", "status");
  stuck.hidden = true;
  const stuckText = document.createElement("p");
  const stuckRedeal = document.createElement("button");
  stuckRedeal.type = "button";
  stuckRedeal.className = "ph-stuck-redeal";
  stuckRedeal.addEventListener("click", () => redeal());
  const stuckResign = document.createElement("button");
  stuckResign.type = "button";
  stuckResign.className = "ph-stuck-resign";
  stuckResign.textContent = t("play.resign");
  stuckResign.addEventListener("click", async () => {
    const ok = await ctx.choose(t("play.resign_confirm"), [{ value: "resign", label: t("play.resign") }]);
    if (ok) ctx.act("resign");
  });
  stuck.append(stuckText, stuckRedeal, " ", stuckResign);
  const grid = document.createElement("div");
  grid.className = "ph-grid";
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", t("posthus.grid"));
  const bonus = document.createElement("div");
  bonus.className = "bonus-corner";
  root.append(head, stuck, grid, bonus);

  /** @type {State} the latest state: update() sets it before anything is drawn */
  let state = /** @type {any} */ (null);
  /** @type {string | null} a gap place whose fitting cards are lit */
  let selectedGap = null;
  let focusPlace = "a1";
  /** @type {string | null} the server's last hint, played by a click on its card */
  let hinted = null;

  /** @returns {boolean} it is this seat's turn and no card can move (only redeal/resign) */
  function noCardMoves() {
    return state.legal.length > 0 && state.legal.every((a) => a === "redeal" || a === "resign");
  }

  // A redeal lowers the bonus (rule book: fewer rounds, more bonus): ask first.
  async function redeal() {
    if (!state.legal.includes("redeal")) return;
    if (state.view.bonus > 0) {
      const ok = await ctx.choose(t("posthus.redeal_confirm", { bonus: state.view.bonus }),
        [{ value: "redeal", label: t("posthus.redeal_do") }]);
      if (!ok) return;
    }
    ctx.act("redeal");
  }

  /** @param {number} r @param {number} c */
  function placeOf(r, c) {
    return COLS[c] + (r + 1);
  }

  // A place in words: "række 2, plads 3" (the notation's c2 never reaches the screen).
  /** @param {string} place */
  function placeWords(place) {
    return t("posthus.place", { row: Number(place.slice(1)), col: COLS.indexOf(place[0]) + 1 });
  }

  /** @param {string} place @returns {string[]} the cards whose action ends in `place` */
  function cardsForGap(place) {
    const suffix = " " + place;
    return state.legal.filter((a) => a.endsWith(suffix)).map((a) => a.split(" ")[0]);
  }

  /** @param {string} code */
  async function clickCard(code) {
    // The card a hint named plays the hinted move (no question which gap).
    if (hinted && hinted.startsWith(code + " ") && state.legal.includes(hinted)) {
      const action = hinted;
      hinted = null;
      selectedGap = null;
      ctx.act(action);
      return;
    }
    if (selectedGap) {
      const action = `${code} ${selectedGap}`;
      if (state.legal.includes(action)) {
        selectedGap = null;
        ctx.act(action);
        return;
      }
    }
    selectedGap = null;
    const options = state.legal.filter((a) => a.startsWith(code + " "));
    if (options.length === 0) {
      ctx.say(t("posthus.no_gap", { card: cardName(code) }));
      draw();
      return;
    }
    if (options.length === 1) {
      ctx.act(options[0]);
      return;
    }
    const choice = await ctx.choose(
      t("posthus.which_gap", { card: cardName(code) }),
      options.map((a) => ({ value: a, label: t("posthus.gap_at", { place: placeWords(a.split(" ")[1]) }) })),
    );
    if (choice) ctx.act(choice);
  }

  /** @param {string} place */
  function clickGap(place) {
    const fits = cardsForGap(place);
    selectedGap = fits.length ? place : null;
    if (fits.length === 0) ctx.say(t("posthus.gap_takes_nothing", { place: placeWords(place) }));
    else {
      ctx.say(t("posthus.gap_takes", { place: placeWords(place), list: fits.map(cardName).join(", ") }));
    }
    draw();
  }

  /** @param {number} r @param {number} c */
  function cell(r, c) {
    const code = state.view.grid[r][c];
    const place = placeOf(r, c);
    let el;
    if (code) {
      el = cardEl(code, { button: true, label: `${cardName(code)}, ${placeWords(place)}` });
      el.addEventListener("click", () => clickCard(code));
      if (selectedGap && state.legal.includes(`${code} ${selectedGap}`)) el.classList.add("highlight");
    } else {
      el = slotEl({ button: true, label: t("posthus.gap_label", { place: placeWords(place) }) });
      el.classList.add("gap");
      el.addEventListener("click", () => clickGap(place));
      if (place === selectedGap) el.classList.add("selected");
    }
    el.dataset.place = place;
    el.setAttribute("role", "gridcell");
    el.tabIndex = place === focusPlace ? 0 : -1;
    el.addEventListener("focus", () => (focusPlace = place));
    return el;
  }

  function draw() {
    const v = state.view;
    roundEl.textContent = t("posthus.round", { round: v.round });
    redealBtn.textContent = t("posthus.redeal", { count: v.redeals_left });
    redealBtn.disabled = !state.legal.includes("redeal");
    stuck.hidden = !noCardMoves();
    stuckText.textContent = t("posthus.stuck");
    stuckRedeal.textContent = redealBtn.textContent;
    stuckRedeal.hidden = !state.legal.includes("redeal");
    stuckResign.hidden = !state.legal.includes("resign");
    bonus.textContent = v.outcome ? "" : t("bonus.corner", { bonus: v.bonus });
    const hadFocus = grid.contains(document.activeElement);
    // Each card is unique here, so its old position is found by its code (slide-in).
    /** @type {{ [code: string]: DOMRect }} */
    const before = {};
    for (const el of grid.querySelectorAll("[data-code]")) {
      if (el instanceof HTMLElement) before[el.dataset.code || ""] = el.getBoundingClientRect();
    }
    grid.innerHTML = "";
    for (let r = 0; r < 4; r++) {
      const row = document.createElement("div");
      row.className = "ph-row";
      row.setAttribute("role", "row");
      const runLen = (v.runs && v.runs[r]) || 0;
      let frame = row;
      if (runLen > 0) {
        frame = document.createElement("div");
        frame.className = "run-frame";
        // The frame is drawing only (a grid row holds cells); the row says the run.
        frame.setAttribute("role", "none");
        row.setAttribute("aria-label", t("posthus.run", { count: runLen }));
        row.append(frame);
      }
      for (let c = 0; c < 8; c++) (c < runLen ? frame : row).append(cell(r, c));
      grid.append(row);
    }
    if (hadFocus) focusAt(focusPlace);
    const ev = state.events && state.events.at(-1);
    const code = ev && ev.kind === "act" && ev.action && ev.action.split(" ")[0];
    if (code && before[code]) slideIn(grid.querySelector(`[data-code="${code}"]`), before[code]);
  }

  /** @param {string} place */
  function focusAt(place) {
    const el = grid.querySelector(`[data-place="${place}"]`);
    if (!(el instanceof HTMLElement)) return;
    for (const other of grid.querySelectorAll("[data-place]")) if (other instanceof HTMLElement) other.tabIndex = -1;
    el.tabIndex = 0;
    el.focus();
    focusPlace = place;
  }

  grid.addEventListener("keydown", (ev) => {
    /** @type {{ [key: string]: [number, number] }} */
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const d = moves[ev.key];
    if (ev.key === "Escape" && selectedGap) {
      selectedGap = null;
      draw();
      return;
    }
    if (!d) return;
    ev.preventDefault();
    const c = COLS.indexOf(focusPlace[0]);
    const r = Number(focusPlace[1]) - 1;
    const nr = Math.min(3, Math.max(0, r + d[0]));
    const nc = Math.min(7, Math.max(0, c + d[1]));
    focusAt(placeOf(nr, nc));
  });

  return {
    placeName: placeWords,
    update(next) {
      state = next;
      hinted = null;
      if (selectedGap && !state.view.gaps.includes(selectedGap)) selectedGap = null;
      draw();
    },
    describe(action) {
      if (action === "redeal" || action === "resign") return t(`act.${action}`);
      const [code, place] = action.split(" ");
      return `${cardName(code)} → ${placeWords(place)}`;
    },
    // A hint from the server is an action text: light up its card and gap.
    // The status line: "no card can move" instead of "your turn" when stuck.
    status: () => (noCardMoves() ? t("posthus.stuck") : null),
    showHint(action) {
      hinted = action;
      for (const el of root.querySelectorAll(".hint")) el.classList.remove("hint", "highlight");
      if (action === "redeal" || action === "resign") {
        if (action === "redeal") redealBtn.classList.add("hint", "highlight");
        return;
      }
      const [code, place] = action.split(" ");
      const cardNode = grid.querySelector(`[data-code="${code}"]`);
      const gapNode = place && grid.querySelector(`[data-place="${place}"]`);
      for (const el of [cardNode, gapNode]) if (el) el.classList.add("hint", "highlight");
    },
    destroy() {
      root.innerHTML = "";
      root.classList.remove("posthus");
    },
  };
}
