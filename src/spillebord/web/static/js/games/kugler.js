// Kugler og Jokere renderer: the SVG board (kugler_board.js), your hand, teams and hand
// sizes, the last moves.  A move is picked in steps that only ever narrow the server's
// legal list: a card, then a marble (the "from" of a step), then a destination (its
// "to").  A split 7 is two such steps; after the first, the board shows a preview and the
// second marble is chosen among the actions that begin with that first step.  Every
// remaining candidate is also a button (keyboard and touch), and "discard X" is a button.

import { cardEl } from "../cards.js";
import { cardName, t } from "../i18n.js";
import { Geometry, drawBoard, seatColour, svgEl } from "./kugler_board.js";

/** @typedef {import("./views").KuglerView} View */
/** @typedef {{ seat: number, loc: string, slot: number, preview: boolean }} Marble */

/**
 * @param {HTMLElement} root
 * @param {import("../board").RendererCtx} ctx
 * @returns {import("../board").Renderer<View>}
 */
export function createRenderer(root, ctx) {
  root.classList.add("kugler");
  root.innerHTML = "";
  const info = document.createElement("div");
  info.className = "kg-hands";
  const svg = svgEl("svg", { class: "kg-board", role: "group", "aria-label": t("kugler.board") });
  const step = document.createElement("p");
  step.className = "kg-step";
  step.setAttribute("aria-live", "polite");
  const hand = document.createElement("div");
  hand.className = "kg-hand";
  hand.setAttribute("aria-label", t("kugler.hand"));
  const actions = document.createElement("div");
  actions.className = "kg-actions";
  const legend = document.createElement("div");
  legend.className = "kg-legend";
  // One wrapper inside the board: the board box is the container its layout asks about.
  const wrap = document.createElement("div");
  wrap.className = "kg-wrap";
  wrap.append(info, svg, step, hand, actions, legend);
  root.append(wrap);
  /** @type {import("../board").RenderState<View>} the latest state: update() sets it before anything is drawn */
  let state = /** @type {any} */ (null);
  /** @type {Geometry | null} */
  let geo = null;
  /** @type {string | null} chosen card code */
  let card = null;
  /** @type {string[]} chosen steps of a split 7 so far ("from-to") */
  let steps = [];
  /** @type {string | null} chosen marble location for the next step */
  let from = null;

  const parse = (/** @type {string} */ a) => a.split(" ");
  function cardActions() {
    return state.legal.filter((a) => !a.startsWith("discard ") && parse(a)[0] === card);
  }
  // Actions whose first steps are the chosen ones, with their next step.
  function candidates() {
    return cardActions().filter((a) => {
      const s = parse(a).slice(1);
      return s.length > steps.length && steps.every((x, i) => s[i] === x);
    });
  }
  function nextSteps() {
    return candidates().map((a) => parse(a)[1 + steps.length]);
  }
  /** @type {boolean} the whole list asked for before a marble is picked */
  let showAll = false;
  function reset() {
    showAll = false;
    card = null;
    steps = [];
    from = null;
  }

  // -- words ------------------------------------------------------------------------
  // Moves are worded from the server's move facts (state.moves for the legal actions,
  // ev.move for events; docs/protocol.md) — never as field codes.
  /** @param {number} seat */
  const whose = (seat) => (seat === ctx.seat ? t("seat.your") : t("seat.whose", { name: (ctx.seatShort || ctx.seatName)(seat) }));
  /** @param {number} seat */
  const partnerOf = (seat) => (state ? (seat + state.view.seats / 2) % state.view.seats : -1);

  /** @param {{ seat: number, from: string, to: string }} e */
  function effectText(e) {
    const key = e.to[0] === "s" ? "kugler.effect.start" : e.to[0] === "h" ? "kugler.effect.home" : "kugler.effect.entry";
    return t(key, { whose: whose(e.seat) });
  }

  // A step in words; `withMarble` names the marble that moves ("din kugle i start: …"),
  // as the move buttons do, so no two of them read alike.
  /** @param {import("../protocol").KuglerStep} st @param {number | null} actor @param {boolean} [withMarble] */
  function stepText(st, actor, withMarble = false) {
    let text;
    if (st.kind === "out") text = withMarble ? t("kugler.step.out_whose", { whose: whose(st.seat) }) : t("kugler.step.out");
    else if (st.kind === "jump") {
      const hit = st.effects.find((e) => e.from === st.to);
      text = t("kugler.step.jump", { target: whereText(hit ? hit.seat : st.seat, st.to) });
    } else if (st.home_field) text = t("kugler.step.home", { fields: st.fields, field: st.home_field });
    else text = t(st.kind === "back" ? "kugler.step.back" : "kugler.step.forward", { fields: st.fields });
    if (st.jumps.includes(partnerOf(st.seat)) && st.seat === actor) text = t("kugler.step.past_partner", { step: text });
    if (withMarble && st.kind !== "out") text = t("kugler.marble_step", { marble: whereText(st.seat, st.from), step: text });
    else if (!withMarble && actor !== null && actor !== undefined && st.seat !== actor) text = t("kugler.step.partner", { step: text });
    const hits = st.kind === "jump" ? st.effects.filter((e) => e.from !== st.to) : st.effects;
    return [text, ...hits.map(effectText)].join(", ");
  }

  /** @param {string} a @returns {import("../protocol").KuglerMove | undefined} */
  const factsOf = (a) => /** @type {import("../protocol").KuglerMove | undefined} */ (((state && state.moves) || {})[a]);

  /** @param {string} a */
  function describeAction(a) {
    if (a.startsWith("discard ")) return t("kugler.discard", { card: cardName(a.slice(8)) });
    const m = factsOf(a);
    const c = parse(a)[0];
    if (!m) return cardName(c);
    return t("kugler.action", { card: cardName(c), what: m.steps.map((st) => stepText(st, state.seat, true)).join("; ") });
  }

  // The facts of the next step `stepText` ("from-to") among the remaining candidates.
  /** @param {number} index @param {string} text */
  function stepFacts(index, text) {
    for (const a of cardActions()) {
      const m = factsOf(a);
      if (m && parse(a)[1 + index] === text && m.steps[index]) return m.steps[index];
    }
    return null;
  }

  /** @param {number} seat @param {string} loc */
  function whereText(seat, loc) {
    if (loc[0] === "s") return t("kugler.where.start", { whose: whose(seat) });
    if (loc[0] === "h") return t("kugler.where.home", { whose: whose(seat), field: Number(loc.split(".")[1]) });
    // On the track: the field said from the nearest start field behind it, as refusals say it.
    return t("kugler.where.track", { whose: whose(seat), place: placeWords(loc) });
  }

  // A field or start area in words, for refusals: "dit startfelt", "Annas hjemmefelt 3",
  // "feltet 4 felter efter Bos startfelt" — as whereText words a marble's place.  Every
  // place word is neuter in Danish ("dit felt"), hence seat.your_neuter.
  /** @param {string} loc */
  function placeWords(loc) {
    /** @param {number} seat */
    const owner = (seat) => (seat === ctx.seat ? t("seat.your_neuter") : whose(seat));
    if (loc[0] === "s") return t("kugler.start_area", { whose: owner(Number(loc.slice(1))) });
    if (loc[0] === "h") {
      const [seat, field] = loc.slice(1).split(".").map(Number);
      return t("kugler.home_field", { whose: owner(seat), field });
    }
    const i = Number(loc.slice(1));
    const seats = state ? state.view.seats : 4;
    const seat = Math.floor(i / 18);
    const fields = i % 18;
    if (fields === 0) return t("kugler.start_field", { whose: owner(seat) });
    if (fields === 13) return t("kugler.entry_field", { whose: owner((seat + 1) % seats) });
    return t("kugler.track_field", { whose: owner(seat), fields });
  }

  /** @param {string} placeName */
  function place(placeName) {
    const [f, to] = [from, placeName];
    const chosen = `${f}-${to}`;
    const all = candidates().filter((a) => parse(a)[1 + steps.length] === chosen);
    const complete = all.find((a) => parse(a).length === 2 + steps.length);
    const longer = all.filter((a) => parse(a).length > 2 + steps.length);
    if (complete && !longer.length) {
      reset();
      ctx.act(complete);
      return;
    }
    steps.push(chosen);
    from = null;
    draw();
  }

  // A marble is picked: with one way to go it goes (or, in a split 7, that step is
  // taken); with more, its targets light up and the list keeps only its moves.
  /** @param {string} loc */
  function pickMarble(loc) {
    from = loc;
    const tos = new Set(nextSteps().filter((s) => s.split("-")[0] === loc).map((s) => s.split("-")[1]));
    if (tos.size === 1) place([...tos][0]);
    else draw();
  }

  function marbleLocations() {
    // Where each marble stands, with the preview of chosen split steps applied.
    /** @type {Marble[]} */
    const locs = [];
    const v = state.view;
    for (let s = 0; s < v.seats; s++) {
      let k = 0;
      for (const loc of v.marbles[String(s)]) locs.push({ seat: s, loc, slot: loc[0] === "s" ? k++ : 0, preview: false });
    }
    for (const st of steps) {
      const [a, b] = st.split("-");
      const m = locs.find((x) => x.loc === a && !x.preview);
      if (m) Object.assign(m, { loc: b, preview: true });
    }
    return locs;
  }

  /** @param {Geometry} geom */
  function drawMarbles(geom) {
    const layer = svg.querySelector(".kg-marbles");
    const overlay = svg.querySelector(".kg-overlay");
    if (!layer || !overlay) return;
    layer.innerHTML = "";
    overlay.innerHTML = "";
    const v = state.view;
    for (const el of /** @type {NodeListOf<SVGElement>} */ (svg.querySelectorAll(".kg-field.target"))) {
      el.classList.remove("target");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.onclick = null;
      el.onkeydown = null;
    }
    // The last moves: dashed lines from → to, newest brightest.
    (v.last || []).slice(-Math.min(3, v.seats)).forEach((m, i, arr) => {
      for (const s of parse(m.action).slice(1)) {
        const [a, b] = s.split("-");
        if (!a || !b) continue;
        const p = geom.point(a);
        const q = geom.point(b);
        overlay.append(svgEl("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "kg-last", opacity: (i + 1) / arr.length }));
      }
    });
    const pickFrom = card ? new Set(nextSteps().map((s) => s.split("-")[0])) : new Set();
    const seenStart = new Set();
    for (const m of marbleLocations()) {
      const p = geom.point(m.loc, m.slot);
      const c = svgEl("circle", { cx: p.x, cy: p.y, r: geom.fieldR * 0.85, fill: seatColour(m.seat, v.seats), class: "kg-marble", "data-loc": m.loc, "data-seat": m.seat });
      if (m.preview) c.classList.add("preview");
      const startKey = m.loc[0] === "s" ? m.loc : null;
      const first = !startKey || !seenStart.has(startKey);
      if (startKey) seenStart.add(startKey);
      const name = whereText(m.seat, m.loc);
      if (pickFrom.has(m.loc) && !m.preview && first) {
        c.classList.add("pickable");
        if (from === m.loc) c.classList.add("chosen");
        makeButton(c, name, () => pickMarble(m.loc));
      } else {
        // Every marble has a name for screen readers, not only the playable ones.
        c.setAttribute("role", "img");
        c.setAttribute("aria-label", name);
      }
      layer.append(c);
    }
    // The latest move slides in from where it started (skipped for reduced motion).
    const ev = state.events && state.events.at(-1);
    if (ev && ev.kind === "act" && ev.action && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
      for (const s of parse(ev.action).slice(1)) {
        const [a, b] = s.split("-");
        const m = b && layer.querySelector(`[data-loc="${b}"]`);
        if (!m || !a) continue;
        const p = geom.point(a);
        const q = geom.point(b);
        m.animate([{ transform: `translate(${p.x - q.x}px, ${p.y - q.y}px)` }, { transform: "none" }],
          { duration: 260, easing: "ease-out" });
      }
    }
    if (from) {
      const tos = nextSteps().filter((s) => s.split("-")[0] === from).map((s) => s.split("-")[1]);
      for (const to of new Set(tos)) {
        /** @type {SVGElement | null} */
        const onMarble = layer.querySelector(`[data-loc="${to}"]`);
        // a joker's target is a marble
        /** @type {SVGElement | null} */
        const el = onMarble || svg.querySelector(`[data-place="${to}"]`);
        if (!el) continue;
        el.classList.add("target");
        const facts = stepFacts(steps.length, `${from}-${to}`);
        makeButton(el, t("kugler.to_place", { what: facts ? stepText(facts, state.seat, true) : "" }), () => place(to));
        if (onMarble) onMarble.classList.add("pickable");
        // The way the marble would go, drawn as a path (highlighted on hover and focus).
        if (facts) {
          const line = drawPath(facts, "kg-path");
          const on = () => line.classList.add("hot");
          const off = () => line.classList.remove("hot");
          el.addEventListener("pointerenter", on);
          el.addEventListener("pointerleave", off);
          el.addEventListener("focus", on);
          el.addEventListener("blur", off);
        }
      }
    }
    zoom(geom);
    addHitAreas();
  }

  // On a small board (a phone) the chosen marble and its targets are zoomed in on when
  // they lie close together (a 7, a 4 back): the fields to tap grow with the zoom.  The
  // whole board comes back with the next pick or move.
  /** @param {Geometry} geom */
  function zoom(geom) {
    let box = "0 0 1000 1000";
    const small = svg.getBoundingClientRect().width < 450;
    if (small && from) {
      const els = [...svg.querySelectorAll(".target"), ...svg.querySelectorAll(".kg-marble.chosen")];
      const xs = els.map((e) => Number(e.getAttribute("cx")));
      const ys = els.map((e) => Number(e.getAttribute("cy")));
      if (els.length > 1) {
        const side = Math.max(300, Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) + 8 * geom.fieldR;
        if (side < 800) {
          const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
          const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
          const clamp = (/** @type {number} */ c) => Math.min(1000 - side, Math.max(0, c - side / 2));
          box = `${clamp(cx).toFixed(0)} ${clamp(cy).toFixed(0)} ${side.toFixed(0)} ${side.toFixed(0)}`;
        }
      }
    }
    svg.setAttribute("viewBox", box);
    svg.classList.toggle("zoomed", box !== "0 0 1000 1000");
  }

  // A step's way as a polyline: from the marble's place through every field passed.
  /** @param {import("../protocol").KuglerStep} st @param {string} cls */
  function drawPath(st, cls) {
    const g = /** @type {Geometry} */ (geo);
    const places = st.kind === "jump" ? [st.from, st.to] : [st.from, ...st.path];
    const pts = places.map((pl) => g.point(pl, 0)).map((q) => `${q.x},${q.y}`).join(" ");
    const line = svgEl("polyline", { points: pts, class: cls });
    svg.querySelector(".kg-overlay")?.append(line);
    return line;
  }

  // Touch screens: the marbles to pick (then the fields to go to) get a transparent tap
  // area of 24 CSS pixels across (the drawn circles are about 10 px on a phone), on top
  // of the board.  Two tap areas never cover each other's centre: next to another
  // target one is at most half the distance wide (the move's button is the big target
  // then).  A mouse clicks exactly what it points at, so no tap areas without touch.
  function addHitAreas() {
    const hits = svg.querySelector(".kg-hits");
    if (!hits || !geo) return;
    const g = geo;
    hits.innerHTML = "";
    if (!(navigator.maxTouchPoints > 0 || matchMedia("(pointer: coarse)").matches)) return;
    const scale = svg.getBoundingClientRect().width / (Number((svg.getAttribute("viewBox") || "0 0 1000").split(" ")[2]) || 1000) || 1;
    const wanted = 12.5 / scale;
    /** @type {SVGElement[]} */
    const els = [...svg.querySelectorAll(from ? ".target" : ".kg-marble.pickable")].map((e) => /** @type {SVGElement} */ (e));
    const at = els.map((el) => [Number(el.getAttribute("cx")), Number(el.getAttribute("cy"))]);
    els.forEach((el, i) => {
      let r = Math.max(wanted, g.fieldR);
      at.forEach((q, j) => {
        if (j !== i) r = Math.min(r, Math.hypot(q[0] - at[i][0], q[1] - at[i][1]) / 2);
      });
      const hit = svgEl("circle", { cx: at[i][0], cy: at[i][1], r: Math.max(r, g.fieldR * 0.85), class: "kg-hit", "aria-hidden": "true" });
      hit.dataset.for = el.dataset.place || el.dataset.loc;
      hit.addEventListener("click", () => el.dispatchEvent(new MouseEvent("click")));
      hits.append(hit);
    });
  }

  /** @param {SVGElement} el @param {string} label @param {() => void} fn */
  function makeButton(el, label, fn) {
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.setAttribute("aria-label", label);
    el.onclick = fn;
    el.onkeydown = (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        fn();
      }
    };
  }

  function drawHand() {
    const v = state.view;
    hand.innerHTML = "";
    const myTurn = state.legal.length > 0;
    (v.hand || []).forEach((code, i) => {
      const usable = state.legal.some((a) => parse(a)[0] === code);
      const dim = myTurn && !usable;
      const el = cardEl(code, { button: myTurn, label: `${cardName(code)}${dim ? `, ${t("kugler.unusable")}` : ""}` });
      el.dataset.index = String(i);
      if (dim) el.classList.add("unusable");
      if (code === card) el.classList.add("chosen");
      if (myTurn) {
        el.addEventListener("click", () => {
          reset();
          card = code;
          draw();
        });
      }
      hand.append(el);
    });
  }

  function drawActions() {
    actions.innerHTML = "";
    step.textContent = "";
    if (!card) {
      if (state.legal.length) step.textContent = t("kugler.pick_card");
      return;
    }
    // The moves left by what is picked (card, steps, marble), each worded once.
    const list = candidates().filter((a) => !from || parse(a)[1 + steps.length].split("-")[0] === from);
    const first = steps.length ? stepFacts(0, steps[0]) : null;
    if (steps.length) step.textContent = t("kugler.split_first", { first: first ? stepText(first, state.seat, true) : "" });
    else if (from) step.textContent = t("kugler.pick_to");
    else step.textContent = list.length ? t("kugler.pick_marble", { card: cardName(card) }) : t("kugler.no_moves", { card: cardName(card) });
    // Point first: before a marble is picked a long list waits behind one button.
    const LONG = 6;
    if (!from && !showAll && list.length > LONG) {
      const more = document.createElement("button");
      more.type = "button";
      more.className = "kg-show-all";
      more.textContent = t("kugler.show_all", { n: new Set(list.map(describeAction)).size, card: cardName(card) });
      more.addEventListener("click", (ev) => {
        showAll = true;
        draw();
        // From the keyboard (no pointer: detail 0) the focus goes on to the first move.
        if (ev.detail === 0) /** @type {HTMLButtonElement | null} */ (actions.querySelector("button.kg-action"))?.focus();
      });
      actions.append(more);
    }
    const shown = new Set();
    for (const a of !from && !showAll && list.length > LONG ? [] : list) {
      const label = describeAction(a);
      if (shown.has(label)) continue;
      shown.add(label);
      const b = document.createElement("button");
      b.type = "button";
      b.className = "kg-action";
      b.dataset.action = a;
      b.textContent = label;
      b.addEventListener("click", () => {
        reset();
        ctx.act(a);
      });
      // Hovering or focusing a move's button previews its way on the board.
      /** @type {SVGElement[]} */
      let lines = [];
      const show = () => {
        const m = factsOf(a);
        if (m) lines = m.steps.map((st) => drawPath(st, "kg-path hot"));
      };
      const hide = () => {
        for (const l of lines) l.remove();
        lines = [];
      };
      b.addEventListener("pointerenter", show);
      b.addEventListener("pointerleave", hide);
      b.addEventListener("focus", show);
      b.addEventListener("blur", hide);
      actions.append(b);
    }
    const discard = `discard ${card}`;
    if (state.legal.includes(discard)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "kg-discard";
      b.dataset.action = discard;
      b.textContent = t("kugler.discard", { card: cardName(card) });
      b.addEventListener("click", () => {
        reset();
        ctx.act(discard);
      });
      actions.append(b);
    }
    if (steps.length || from) {
      const back = document.createElement("button");
      back.type = "button";
      back.className = "kg-restart";
      back.textContent = t("kugler.restart");
      back.addEventListener("click", () => {
        steps = [];
        from = null;
        draw();
      });
      actions.append(back);
    }
  }

  function drawInfo() {
    const v = state.view;
    info.innerHTML = "";
    const teams = v.seats / 2;
    for (let tm = 0; tm < teams; tm++) {
      const members = [tm, tm + teams];
      const span = document.createElement("span");
      span.className = "pill kg-team";
      span.style.borderLeft = `12px solid ${seatColour(members[0], v.seats)}`;
      span.style.borderRight = `12px solid ${seatColour(members[1], v.seats)}`;
      span.textContent = t("kugler.team", {
        n: tm + 1,
        members: members.map((s) => t("kugler.member", { name: ctx.seatName(s), cards: v.hand_sizes[String(s)], home: v.home[String(s)] })).join(" & "),
      });
      info.append(span);
    }
    const pile = document.createElement("span");
    pile.className = "pill";
    pile.textContent = t("kugler.piles", { draw: v.draw_size, discard: v.discard_top ? cardName(v.discard_top) : "-" });
    info.append(pile);
  }

  // The legend: each seat's colour by name, then the board's marks as small pictures.
  function drawLegend() {
    const v = state.view;
    legend.innerHTML = "";
    const h = document.createElement("h3");
    h.textContent = t("kugler.legend.title");
    const seats = document.createElement("ul");
    seats.className = "kg-legend-seats";
    for (let s = 0; s < v.seats; s++) {
      const li = document.createElement("li");
      li.append(swatch({ tag: "circle", fill: seatColour(s, v.seats), stroke: "#fff" }), ctx.seatName(s));
      seats.append(li);
    }
    const marks = document.createElement("ul");
    marks.className = "kg-legend-marks";
    const col = seatColour(state.seat ?? 0, v.seats);
    /** @type {[Swatch, string][]} */
    const items = [
      [{ tag: "arrow" }, "kugler.legend.direction"],
      [{ tag: "circle", fill: col, stroke: "#fff" }, "kugler.legend.start"],
      [{ tag: "circle", fill: "#f3efe2", stroke: col, dash: true }, "kugler.legend.entry"],
      [{ tag: "lane", fill: col }, "kugler.legend.home"],
      [{ tag: "circle", stroke: col }, "kugler.legend.area"],
    ];
    for (const [sw, key] of items) {
      const li = document.createElement("li");
      li.append(swatch(sw), t(key));
      marks.append(li);
    }
    legend.append(h, seats, marks);
  }

  /** @typedef {{ tag: "circle" | "arrow" | "lane", fill?: string, stroke?: string, dash?: boolean }} Swatch */
  /** @param {Swatch} sw */
  function swatch(sw) {
    const s = svgEl("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", class: "kg-swatch" });
    if (sw.tag === "arrow") s.append(svgEl("polygon", { points: "3,5 21,12 3,19 8,12", fill: "#fff" }));
    else if (sw.tag === "lane") {
      s.append(svgEl("rect", { x: 1, y: 8, width: 22, height: 8, rx: 4, fill: sw.fill || "#fff", opacity: 0.5 }));
      for (const x of [5, 12, 19]) s.append(svgEl("circle", { cx: x, cy: 12, r: 3.2, fill: sw.fill || "#fff", stroke: "#111", "stroke-width": 0.8 }));
    } else {
      s.append(svgEl("circle", { cx: 12, cy: 12, r: 8, fill: sw.fill || "none",
        stroke: sw.stroke || "none", "stroke-width": 3, ...(sw.dash ? { "stroke-dasharray": "4 3" } : {}) }));
    }
    return s;
  }

  function draw() {
    const v = state.view;
    const bottom = state.seat ?? 0;
    if (!geo || geo.n !== v.seats || geo.bottom !== bottom) {
      geo = new Geometry(v.seats, bottom);
      /** @type {string[]} */
      const labels = [];
      for (let s = 0; s < v.seats; s++) labels.push(ctx.seatName(s));
      drawBoard(svg, geo, labels);
    }
    for (const lab of /** @type {NodeListOf<SVGElement>} */ (svg.querySelectorAll(".kg-label"))) {
      const s = Number(lab.dataset.seat);
      const name = (ctx.seatShort || ctx.seatName)(s);
      lab.textContent = `${name} (${v.hand_sizes[String(s)]})${s === v.to_move ? " ◀" : ""}`;
      lab.setAttribute("fill", s === v.to_move ? "#f2c94c" : "#fff");
    }
    drawInfo();
    drawLegend();
    drawMarbles(geo);
    drawHand();
    drawActions();
  }

  return {
    update(next) {
      const keep = state && next.legal.join("|") === state.legal.join("|");
      state = next;
      if (!keep) reset();
      draw();
    },
    describe: (a) => (a === "resign" ? t("act.resign") : describeAction(a)),
    placeName: placeWords,
    // A log line from an event's move facts: who played which card and what it did.
    sentence(ev) {
      const m = /** @type {import("../protocol").KuglerMove | undefined} */ (ev.move);
      if (!m) return null;
      const who = ctx.seatName(ev.seat);
      if (m.discard) return t("kugler.log.discard", { who, card: cardName(m.card) });
      return t("kugler.log.play", { who, card: cardName(m.card), what: m.steps.map((st) => stepText(st, ev.seat)).join("; ") });
    },
    destroy() {
      root.innerHTML = "";
      root.classList.remove("kugler");
    },
  };
}
