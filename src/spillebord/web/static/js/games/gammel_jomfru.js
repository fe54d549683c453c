// Gammel Jomfru renderer: a table for 2–8 seats round the centre piles.
// Each seat shows its face-down count and face-up top; the turned card waits in the
// middle.  On your turn you click your face-down pile ("turn"), then one of the places
// that light up — exactly the targets of the server's legal actions (centre, cN, pN,
// keep).  Nothing here knows where a card fits.

import { backEl, cardEl, rankText, slotEl } from "../cards.js";
import { cardName, t } from "../i18n.js";

/** @typedef {import("../board").RenderState<import("./views").GammelJomfruView>} State */

/**
 * @param {HTMLElement} root
 * @param {import("../board").RendererCtx} ctx
 * @returns {import("../board").Renderer<import("./views").GammelJomfruView>}
 */
export function createRenderer(root, ctx) {
  root.classList.add("gammel-jomfru");
  root.innerHTML = "";
  const table = document.createElement("div");
  table.className = "gj-table";
  const centre = document.createElement("div");
  centre.className = "gj-centre";
  centre.setAttribute("aria-label", t("gj.centre"));
  // The setting "play forced moves by themselves" (on unless the player turned it off):
  // a turn whose legal list holds one action is sent after a short pause.
  const autoKey = "spillebord.gj.autoplay";
  const auto = document.createElement("label");
  auto.className = "gj-auto";
  const autoBox = document.createElement("input");
  autoBox.type = "checkbox";
  autoBox.checked = localStorage.getItem(autoKey) !== "off";
  autoBox.addEventListener("change", () => {
    localStorage.setItem(autoKey, autoBox.checked ? "on" : "off");
    if (state) planAuto();
  });
  auto.append(autoBox, " ", t("gj.autoplay"));
  root.append(auto, table);
  /** @type {State} the latest state: update() sets it before anything is drawn */
  let state = /** @type {any} */ (null);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let autoTimer;

  // A forced move is sent AUTO_MS after the board showing it was painted (the frame
  // after the draw), so each one is seen and read out before the next: a person can
  // follow them, and the first turn never passes before the board is there.
  const AUTO_MS = 600;
  /** @type {number} */
  let autoFrame = 0;
  function planAuto() {
    clearTimeout(autoTimer);
    cancelAnimationFrame(autoFrame);
    if (!autoBox.checked || state.legal.length !== 1 || ctx.lesson) return;
    const only = state.legal[0];
    autoFrame = requestAnimationFrame(() => {
      autoTimer = setTimeout(() => ctx.act(only), AUTO_MS);
    });
  }

  // What the player is asked to do, in words: "Læg hjerter ni på midterbunke 2 eller
  // behold det."  Only the server's legal list is read (its actions' places).
  function prompt() {
    const legal = state.legal.filter((a) => a !== "resign");
    if (!legal.length) return null;
    let text;
    if (legal.length === 1 && legal[0] === "turn") text = t("gj.status.turn");
    else {
      const card = cardName(state.view.turned);
      const places = legal.filter((a) => a !== "keep" && a !== "turn").map((a) => {
        if (a === "centre") return t("gj.where.new_centre");
        if (a[0] === "c") return t("gj.where.centre", { n: Number(a.slice(1)) });
        return t("gj.where.seat", { name: (ctx.seatShort || ctx.seatName)(Number(a.slice(1))) });
      });
      const keep = legal.includes("keep");
      if (!places.length) text = t("gj.status.keep", { card });
      else text = t(keep ? "gj.status.put_or_keep" : "gj.status.put", { card, places: orList(places) });
    }
    return legal.length === 1 && autoBox.checked ? t("gj.status.auto", { what: text }) : text;
  }

  /** @param {string[]} items "a", "a eller b", "a, b eller c" */
  function orList(items) {
    return items.reduce((acc, x, i) => (i === 0 ? x : i === items.length - 1 ? t("gj.or", { a: acc, b: x }) : t("gj.and_list", { a: acc, b: x })), "");
  }

  /** @param {HTMLElement} el @param {string} action */
  function actButton(el, action) {
    el.classList.add("highlight", "target");
    el.dataset.action = action;
    el.addEventListener("click", () => ctx.act(action));
  }

  /** @param {number} s */
  function seatBox(s) {
    const v = state.view;
    const box = document.createElement("section");
    box.className = "gj-seat";
    box.dataset.seat = String(s);
    if (s === v.to_move) box.classList.add("to-move");
    if (s === state.seat) box.classList.add("mine");
    const outIdx = v.out.indexOf(s);
    const name = document.createElement("h3");
    name.className = "gj-name";
    name.textContent = ctx.seatName(s);
    if (s === v.to_move) {
      const pill = document.createElement("span");
      pill.className = "pill turn-pill";
      pill.textContent = t("table.to_move");
      name.append(" ", pill);
    }
    if (outIdx >= 0) {
      const pill = document.createElement("span");
      pill.className = "pill";
      pill.textContent = t("gj.out_place", { place: outIdx + 1 });
      name.append(" ", pill);
    }
    box.setAttribute("aria-label", t("gj.seat_label", {
      name: ctx.seatName(s), down: v.down_counts[s], up: v.up[s].length,
    }));
    const piles = document.createElement("div");
    piles.className = "gj-piles";
    const mineToTurn = s === state.seat && state.legal.includes("turn");
    let down;
    if (v.down_counts[s] > 0) {
      down = backEl({ button: mineToTurn, count: v.down_counts[s],
        label: t("gj.down_label", { count: v.down_counts[s] }) });
    } else {
      down = slotEl({ button: mineToTurn, label: t("gj.down_label", { count: 0 }) });
    }
    down.classList.add("gj-down");
    if (mineToTurn) actButton(down, "turn");
    const upCards = v.up[s];
    const top = upCards[upCards.length - 1];
    const upAction = s === state.seat ? "keep" : `p${s}`;
    const canDrop = state.legal.includes(upAction);
    const upLabel = top
      ? t("gj.up_label", { card: cardName(top), count: upCards.length })
      : t("gj.up_empty");
    const up = top ? cardEl(top, { button: canDrop, label: upLabel })
      : slotEl({ button: canDrop, label: upLabel });
    up.classList.add("gj-up");
    up.dataset.count = String(upCards.length);
    if (canDrop) actButton(up, upAction);
    const held = document.createElement("div");
    held.className = "gj-held";
    held.textContent = t("gj.held", { count: v.held[s] });
    piles.append(down, up);
    box.append(name, piles, held);
    return box;
  }

  function drawCentre() {
    const v = state.view;
    centre.innerHTML = "";
    const turned = document.createElement("div");
    turned.className = "gj-turned";
    const tl = document.createElement("div");
    tl.className = "label";
    tl.textContent = t("gj.turned");
    turned.append(tl);
    if (v.turned) turned.append(cardEl(v.turned, { label: t("gj.turned_label", { card: cardName(v.turned) }) }));
    else turned.append(slotEl({ label: t("gj.no_turned") }));
    const piles = document.createElement("div");
    piles.className = "gj-centre-piles";
    piles.setAttribute("role", "group");
    piles.setAttribute("aria-label", t("gj.centre_piles"));
    // Each centre pile carries its number, as the log names it ("midterbunke 2").
    /** @param {HTMLElement} el @param {number} n */
    const numbered = (el, n) => {
      const fig = document.createElement("div");
      fig.className = "gj-centre-pile";
      const no = document.createElement("span");
      no.className = "gj-pile-no";
      no.textContent = String(n);
      no.setAttribute("aria-hidden", "true");
      fig.append(el, no);
      return fig;
    };
    v.centre.forEach((pile, i) => {
      const top = pile[pile.length - 1];
      const action = `c${i + 1}`;
      const can = state.legal.includes(action);
      const el = cardEl(top, { button: can, label: t("gj.centre_pile", { n: i + 1, card: cardName(top) }) });
      if (can) actButton(el, action);
      piles.append(numbered(el, i + 1));
    });
    if (state.legal.includes("centre")) {
      const slot = slotEl({ button: true, label: t("gj.new_centre"), text: rankText("A") });
      actButton(slot, "centre");
      piles.append(numbered(slot, v.centre.length + 1));
    }
    centre.append(turned, piles);
    const turns = document.createElement("div");
    turns.className = "label gj-turns";
    turns.textContent = t("gj.turns", { n: v.turns, limit: v.turn_limit });
    centre.append(turns);
  }

  function draw() {
    const v = state.view;
    const hadFocus = root.contains(document.activeElement);
    table.innerHTML = "";
    table.dataset.seats = String(v.seats);
    // Seats sit round an ellipse, my seat at the bottom, then clockwise.
    const me = state.seat ?? 0;
    for (let k = 0; k < v.seats; k++) {
      const s = (me + k) % v.seats;
      const box = seatBox(s);
      const angle = Math.PI / 2 + (2 * Math.PI * k) / v.seats;
      box.style.setProperty("--x", `${50 + 37 * Math.cos(angle)}%`);
      box.style.setProperty("--y", `${50 + 38 * Math.sin(angle)}%`);
      table.append(box);
    }
    drawCentre();
    table.append(centre);
    if (hadFocus) {
      const target = root.querySelector(".target") || root.querySelector("button");
      if (target instanceof HTMLElement) target.focus();
    }
  }

  // Arrow keys cycle through the lit places (and the face-down pile to turn).
  root.addEventListener("keydown", (ev) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(ev.key)) return;
    const targets = [...root.querySelectorAll("button")];
    if (!targets.length) return;
    ev.preventDefault();
    const i = targets.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    const step = ev.key === "ArrowLeft" || ev.key === "ArrowUp" ? -1 : 1;
    targets[(i + step + targets.length) % targets.length].focus();
  });

  return {
    update(next) {
      state = next;
      draw();
      planAuto();
    },
    status: prompt,
    describe(action) {
      if (action[0] === "p") return t("gj.act.onto_player", { name: ctx.seatName(Number(action.slice(1))) });
      if (action[0] === "c" && action !== "centre") return t("gj.act.onto_centre", { n: action.slice(1) });
      return t(`gj.act.${action}`);
    },
    // A log line from the server's move facts (docs/protocol.md): the card and the place.
    sentence(ev) {
      const m = /** @type {import("../protocol").GammelJomfruMove | undefined} */ (ev.move);
      if (!m || ev.kind === "undo") return null;
      const who = ctx.seatName(ev.seat);
      const card = cardName(m.card);
      let text;
      if (ev.action === "turn") text = t(m.recycled ? "gj.log.turn_recycled" : "gj.log.turn", { who, card });
      else if (m.place === "seat" && m.seat === ctx.seat) text = t("gj.log.seat_you", { who, card, onto: cardName(m.onto) });
      else if (m.place === "seat") text = t("gj.log.seat", { who, card, onto: cardName(m.onto), name: ctx.seatName(m.seat ?? 0) });
      else if (m.place === "own") text = t("gj.log.keep", { who, card });
      else text = t(m.place === "centre" ? "gj.log.centre" : "gj.log.pile", { who, card, pile: m.pile ?? 0 });
      return m.out ? t("gj.log.out", { text }) : text;
    },
    destroy() {
      clearTimeout(autoTimer);
      cancelAnimationFrame(autoFrame);
      root.innerHTML = "";
      root.classList.remove("gammel-jomfru");
    },
  };
}
