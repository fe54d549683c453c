// Studenterkabalen renderer: 8 foundations under small yellow base-rank frames, the
// 19-card row fanned sideways, the 6 helpers, stock and waste, and pass + bonus in the
// lower right corner.  A click on row / waste / h1–h6 / stock is sent to the server's
// click-to-move (ruling 10); every legal "source>place" action can also be dragged,
// including row>waste and left>row; "Alle træk" lists every legal action for keyboards.

import { backEl, cardEl, rankText, slotEl } from "../cards.js";
import { enableDrag, rectsOf, slideIn } from "../drag.js";
import { cardName, t } from "../i18n.js";

const FOUND = ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"];
const HELP = ["h1", "h2", "h3", "h4", "h5", "h6"];

/** @typedef {import("./views").StudenterView} View */
/** @typedef {import("../board").RenderState<View>} State */

/** @param {string} cls @param {string} [label] */
function div(cls, label) {
  const d = document.createElement("div");
  d.className = cls;
  if (label) d.setAttribute("aria-label", label);
  return d;
}

/**
 * @param {HTMLElement} root
 * @param {import("../board").RendererCtx} ctx
 * @returns {import("../board").Renderer<View>}
 */
export function createRenderer(root, ctx) {
  root.classList.add("studenter");
  root.innerHTML = "";
  const top = div("st-foundations");
  const rowBox = div("st-row");
  const bottom = div("st-bottom");
  const helpers = div("st-helpers");
  const stockWaste = div("st-stockwaste");
  const corner = div("bonus-corner");
  const tools = div("st-tools");
  const allMoves = document.createElement("button");
  allMoves.type = "button";
  allMoves.className = "st-all-moves";
  allMoves.textContent = t("studenter.all_moves");
  allMoves.addEventListener("click", async () => {
    const options = distinctMoves().map((a) => ({ value: a, label: describeMove(a) }));
    const choice = await ctx.choose(t("studenter.all_moves"), options);
    if (choice) ctx.act(choice);
  });
  // Settings (kept in localStorage): cards up onto the foundations by themselves (off
  // unless chosen), and the end played by itself once every card is in sight (on).
  /** @param {string} key @param {string} label @param {boolean} byDefault */
  function setting(key, label, byDefault) {
    const box = document.createElement("input");
    box.type = "checkbox";
    const stored = localStorage.getItem(key);
    box.checked = stored === null ? byDefault : stored === "on";
    box.addEventListener("change", () => {
      localStorage.setItem(key, box.checked ? "on" : "off");
      if (state) planAuto();
    });
    const wrap = document.createElement("label");
    wrap.className = "st-setting";
    wrap.append(box, " ", label);
    tools.append(wrap);
    return box;
  }
  tools.append(allMoves);
  const autoMove = setting("spillebord.st.automove", t("studenter.auto_move"), false);
  const autoFinish = setting("spillebord.st.autofinish", t("studenter.auto_finish"), true);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let autoTimer;
  // Whether the newest event this page was told of is an undo.  Only a state with new
  // events changes it: a redraw without any (after a refusal — e.g. an auto-move sent
  // just as the player pressed undo, refused as stale — or when names or the language
  // arrive) must not take the undo for a fresh position and play the undone card again.
  let afterUndo = false;
  bottom.append(helpers, stockWaste);
  root.append(top, rowBox, bottom, tools, corner);
  /** @type {State} the latest state: update() sets it before anything is drawn */
  let state = /** @type {any} */ (null);
  /** @type {string | null} */
  let focusKey = null;

  /** @param {string} p */
  function placeName(p) {
    if (p.startsWith("f")) return t("studenter.foundation", { n: p.slice(1) });
    if (p.startsWith("h")) return t("studenter.helper", { n: p.slice(1) });
    return t(`studenter.${p}`);
  }
  /** @param {string} f a foundation place (f1 … f8) */
  const emptyFoundation = (f) => f[0] === "f" && state.view.foundations[Number(f.slice(1)) - 1].length === 0;

  /** @param {string} src @returns {string | undefined} the card a source place offers */
  function cardAt(src) {
    const v = state.view;
    if (src === "row") return v.row.at(-1);
    if (src === "left") return v.row[0];
    if (src === "waste") return v.waste.at(-1);
    if (src[0] === "h") return v.helpers[Number(src.slice(1)) - 1] || undefined;
    return undefined;
  }

  // The legal moves without repeats: a card that may go to any of several empty
  // foundations is one move (they are alike: empty), listed under the first of them.
  function distinctMoves() {
    const seen = new Set();
    return state.legal.filter((a) => {
      if (a === "resign") return false;
      const [src, dst] = a.split(">");
      if (!dst || !emptyFoundation(dst)) return true;
      if (seen.has(src)) return false;
      seen.add(src);
      return true;
    });
  }

  /** @param {string} a */
  function describeMove(a) {
    if (a === "draw") return t("studenter.draw");
    if (a === "redeal") return t("studenter.redeal");
    const [src, dst] = a.split(">");
    const card = state ? cardAt(src) : undefined;
    const to = state && emptyFoundation(dst) ? t("studenter.empty_foundation") : placeName(dst);
    const move = `${placeName(src)} → ${to}`;
    return card ? t("studenter.move", { card: cardName(card), move }) : move;
  }

  // Auto-move: a card from the row, the waste or a helper that goes onto a foundation is
  // put there after a short pause; auto-finish does the same once the stock and the
  // waste are empty (every card in sight).  Never right after an undo (that would undo
  // the undo), and only with the player's seat to move.
  function planAuto() {
    clearTimeout(autoTimer);
    const v = state.view;
    if (!state.legal.length || afterUndo || ctx.lesson) return;
    const finishing = autoFinish.checked && v.stock_size === 0 && v.waste.length === 0;
    if (!autoMove.checked && !finishing) return;
    const up = distinctMoves().find((a) => /^(row|waste|h\d)>f\d$/.test(a));
    if (up) autoTimer = setTimeout(() => ctx.act(up), 300);
  }

  /** @param {string} source */
  function targetsFor(source) {
    const prefix = source + ">";
    return state.legal.filter((a) => a.startsWith(prefix)).map((a) => a.slice(prefix.length));
  }

  enableDrag(root, {
    targetsFor: (s) => (state ? targetsFor(s) : []),
    onDrop: (src, dst) => ctx.act(`${src}>${dst}`),
  });

  /** @param {HTMLElement} el @param {string} target @param {string} key */
  function clickable(el, target, key) {
    el.dataset.key = key;
    el.addEventListener("click", () => ctx.click(target));
    el.addEventListener("focus", () => (focusKey = key));
  }

  /** @param {View} v */
  function drawFoundations(v) {
    top.innerHTML = "";
    top.setAttribute("aria-label", t("studenter.foundations", { base: v.base }));
    v.foundations.forEach((pile, i) => {
      const wrap = div("st-foundation");
      const frame = div("base-frame");
      frame.textContent = rankText(v.base);
      frame.setAttribute("aria-hidden", "true");
      const place = FOUND[i];
      let el;
      const topCard = pile.at(-1);
      const label = `${placeName(place)}: ${topCard ? cardName(topCard) : t("common.empty")}`;
      // A complete foundation shows its top card, marked done (a won game shows every card).
      if (pile.length === 13 && topCard) {
        el = cardEl(topCard, { label: `${label}, ${t("studenter.complete")}` });
        el.classList.add("st-complete");
      } else if (topCard) el = cardEl(topCard, { label });
      else el = slotEl({ label, text: "" });
      el.dataset.drop = place;
      el.dataset.place = place;
      el.dataset.count = String(pile.length);
      wrap.append(frame, el);
      top.append(wrap);
    });
  }

  /** @param {View} v */
  function drawRow(v) {
    rowBox.innerHTML = "";
    rowBox.dataset.drop = "row";
    rowBox.dataset.place = "row-box";
    const n = v.row.length;
    rowBox.setAttribute("aria-label", t("studenter.row_label", { count: n, card: n ? cardName(v.row[n - 1]) : "-" }));
    rowBox.style.setProperty("--n", String(Math.max(n, 1)));
    if (!n) rowBox.append(slotEl({ label: t("studenter.row_empty") }));
    v.row.forEach((code, i) => {
      const last = i === n - 1;
      const first = i === 0 && n > 1;
      const leftOk = first && state.legal.includes("left>row");
      const el = cardEl(code, { button: last || leftOk, label: last ? `${cardName(code)}, ${t("studenter.row_end")}` : first ? `${cardName(code)}, ${t("studenter.row_start")}` : undefined });
      if (last) {
        clickable(el, "row", "row");
        el.dataset.drag = "row";
        el.dataset.place = "row";
      } else if (leftOk) {
        el.dataset.drag = "left";
        el.dataset.key = "left";
        el.classList.add("st-left-movable");
        el.addEventListener("click", () => ctx.act("left>row"));
      }
      if (first) el.dataset.place = "left";
      rowBox.append(el);
    });
  }

  /** @param {View} v */
  function drawHelpers(v) {
    helpers.innerHTML = "";
    v.helpers.forEach((code, i) => {
      const place = HELP[i];
      const el = code ? cardEl(code, { button: true, label: `${placeName(place)}: ${cardName(code)}` })
        : slotEl({ label: `${placeName(place)}: ${t("common.empty")}` });
      el.dataset.place = place;
      if (code) {
        clickable(el, place, place);
        el.dataset.drag = place;
      }
      helpers.append(el);
    });
  }

  /** @param {View} v */
  function drawStockWaste(v) {
    stockWaste.innerHTML = "";
    const canStock = state.legal.includes("draw") || state.legal.includes("redeal");
    const stockLabel = v.stock_size ? t("studenter.stock_label", { count: v.stock_size })
      : t("studenter.stock_empty", { count: v.turn_overs_left });
    const stock = v.stock_size ? backEl({ button: canStock, count: v.stock_size, label: stockLabel })
      : slotEl({ button: canStock, label: stockLabel, text: v.turn_overs_left ? "↺" : "" });
    stock.dataset.place = "stock";
    if (canStock) clickable(stock, "stock", "stock");
    const w = v.waste;
    const wTop = w.at(-1);
    const wasteLabel = wTop ? `${t("studenter.waste")}: ${cardName(wTop)} (${w.length})` : `${t("studenter.waste")}: ${t("common.empty")}`;
    const waste = wTop ? cardEl(wTop, { button: true, label: wasteLabel }) : slotEl({ label: wasteLabel });
    waste.dataset.place = "waste";
    waste.dataset.drop = "waste";
    waste.dataset.count = String(w.length);
    if (w.length) {
      clickable(waste, "waste", "waste");
      waste.dataset.drag = "waste";
    }
    stockWaste.append(stock, waste);
  }

  function draw() {
    const v = state.view;
    const before = rectsOf(root);
    const hadFocus = root.contains(document.activeElement);
    drawFoundations(v);
    drawRow(v);
    drawHelpers(v);
    drawStockWaste(v);
    // One bonus everywhere: once the game is over it is the outcome's (as in the panel),
    // before that the bonus the current pass would give.
    corner.textContent = t("studenter.corner", { pass: v.pass, bonus: v.outcome ? v.outcome.bonus : v.bonus });
    allMoves.disabled = !state.legal.length;
    animateLast(before);
    if (hadFocus) {
      const again = focusKey && root.querySelector(`[data-key="${focusKey}"]`);
      const target = again || root.querySelector("button.card") || allMoves;
      if (target instanceof HTMLElement) target.focus();
    }
  }

  /** @param {import("../drag.js").Rects} before */
  function animateLast(before) {
    const ev = state.events && state.events.at(-1);
    if (!ev || ev.kind !== "act" || !ev.action) return;
    const a = ev.action;
    if (a === "draw") slideIn(root.querySelector('[data-place="waste"]'), before.stock);
    const m = a.match(/^(row|waste|left|h\d)>(f\d|row|waste)$/);
    if (!m) return;
    const dest = m[2] === "row" ? root.querySelector('[data-place="row"]') : root.querySelector(`[data-place="${m[2]}"]`);
    slideIn(dest, before[m[1]] || before["row-box"]);
  }

  root.addEventListener("keydown", (ev) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(ev.key)) return;
    const list = [...root.querySelectorAll("button")].filter((b) => !b.disabled);
    if (!list.length) return;
    ev.preventDefault();
    const i = list.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    const step = ev.key === "ArrowLeft" || ev.key === "ArrowUp" ? -1 : 1;
    list[(i + step + list.length) % list.length].focus();
  });

  return {
    update(next) {
      state = next;
      const newest = next.events.at(-1);
      if (newest) afterUndo = newest.kind === "undo";
      draw();
      planAuto();
    },
    describe: (a) => (a === "resign" ? t("act.resign") : describeMove(a)),
    // A log line from the server's move facts (the card that moved, from the state
    // before the move); undo and redo lines use it too (panel.js).
    sentence(ev) {
      const m = /** @type {import("../protocol").StudenterMove | undefined} */ (ev.move);
      if (!m || !m.card) return null;
      return t("studenter.move", { card: cardName(m.card), move: `${placeName(m.from)} → ${placeName(m.to)}` });
    },
    placeName,
    showHint(action) {
      for (const el of root.querySelectorAll(".hint")) el.classList.remove("hint", "highlight");
      const [src, dst] = action.split(">");
      const s = src === "draw" || src === "redeal" ? "stock" : src;
      for (const p of [s, dst]) {
        const el = p && (root.querySelector(`[data-place="${p}"]`) || (p === "row" ? rowBox : null));
        if (el) el.classList.add("hint", "highlight");
      }
    },
    destroy() {
      clearTimeout(autoTimer);
      root.innerHTML = "";
      root.classList.remove("studenter");
    },
  };
}
