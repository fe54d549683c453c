// Kugler og Jokere board drawing: the rule book's geometry (ruling 2) as SVG for 4, 6 and
// 8 seats — a circular track of 18 fields per seat numbered in the direction of play,
// each seat's start field t(18p), home entry t(18p − 5) with its 5 home fields running
// inwards, and a start area of 5 slots outside the track.  The viewer's seat is at the
// bottom.  Only drawing and place → point lookup here; no move is computed.

const NS = "http://www.w3.org/2000/svg";
const SIZE = 1000;
const C = SIZE / 2;
const R = 380;
// One clearly different colour per seat (partners too: the team is said in words, in the
// team pills and the legend).  The first four are the most different, for 4 seats; no
// yellow, the colour of what can be picked.
export const SEAT_COLOURS = ["#e53935", "#1e6fe0", "#1b1b1b", "#a347d6", "#fb8c00", "#00c4d9", "#f5f5f5", "#7cb342"];

/** @typedef {{ x: number, y: number }} Point */

/**
 * An SVG element with attributes.
 * @param {string} tag
 * @param {{ [name: string]: string | number }} [attrs]
 * @returns {SVGElement}
 */
export function svgEl(tag, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** @param {number} seat @param {number} n seats */
export function teamOf(seat, n) {
  return seat % (n / 2);
}
/** @param {number} seat @param {number} _n seats */
export function seatColour(seat, _n) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

export class Geometry {
  /** @param {number} n seats @param {number | null} [bottomSeat] the viewer's seat */
  constructor(n, bottomSeat) {
    this.n = n;
    this.track = 18 * n;
    this.bottom = bottomSeat || 0;
    this.spacing = (2 * Math.PI * R) / this.track;
    this.fieldR = Math.min(16, this.spacing * 0.38);
  }

  /** @param {number} i track field */
  angle(i) {
    return Math.PI / 2 + (2 * Math.PI * (i - 18 * this.bottom)) / this.track;
  }

  /** @param {number} angle @param {number} radius @returns {Point} */
  at(angle, radius) {
    return { x: C + radius * Math.cos(angle), y: C + radius * Math.sin(angle) };
  }

  /** @param {number} i */
  trackPoint(i) {
    return this.at(this.angle(i), R);
  }

  /** @param {number} p seat @returns {number} the track field of its home entry */
  entry(p) {
    return (((18 * p - 5) % this.track) + this.track) % this.track;
  }

  /** @param {number} p seat @param {number} k home field 1–5 */
  homePoint(p, k) {
    const step = Math.max(this.spacing * 1.05, 2.4 * this.fieldR);
    return this.at(this.angle(this.entry(p)), R - k * step);
  }

  /** @param {number} p seat @param {number} k slot 0–4 */
  startSlot(p, k) {
    const rOut = R + 2.8 * this.fieldR + 10;
    return this.at(this.angle(18 * p) + ((k + 1) * 2.5 * this.fieldR) / rOut, rOut);
  }

  /** @param {number} p seat */
  labelPoint(p) {
    // Midway between two home rows (entries at 18p − 5 and 18p + 13), inside the track.
    return this.at(this.angle(18 * p + 4), R - (this.n > 6 ? 80 : 110));
  }

  // The point of a place name (t12, h0.3, s2; a start area gives its k-th slot).
  /** @param {string} place @param {number} [k] @returns {Point} */
  point(place, k = 0) {
    if (place[0] === "t") return this.trackPoint(Number(place.slice(1)));
    if (place[0] === "h") {
      const [p, kk] = place.slice(1).split(".").map(Number);
      return this.homePoint(p, kk);
    }
    return this.startSlot(Number(place.slice(1)), k);
  }
}

// An arrow outside the track at track position `at` (fractional), pointing the way
// the marbles go (increasing field numbers).
/** @param {Geometry} geo @param {number} at */
function arrow(geo, at) {
  const a = geo.angle(at);
  const c = geo.at(a, R + 2.1 * geo.fieldR);
  const d = geo.fieldR * 1.1;
  const tx = -Math.sin(a);
  const ty = Math.cos(a);
  const nx = Math.cos(a);
  const ny = Math.sin(a);
  const pts = [
    [c.x + d * tx, c.y + d * ty],
    [c.x - d * tx + 0.8 * d * nx, c.y - d * ty + 0.8 * d * ny],
    [c.x - 0.4 * d * tx, c.y - 0.4 * d * ty],
    [c.x - d * tx - 0.8 * d * nx, c.y - d * ty - 0.8 * d * ny],
  ].map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  return svgEl("polygon", { points: pts, class: "kg-arrow", fill: "#fff", "fill-opacity": 0.85 });
}

// The static board: fields (data-place), home rows, start areas and seat labels.
/** @param {SVGElement} svg @param {Geometry} geo @param {string[]} labels the seats' names */
export function drawBoard(svg, geo, labels) {
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `0 0 ${SIZE} ${SIZE}`);
  const n = geo.n;
  svg.append(svgEl("circle", { cx: C, cy: C, r: R + 4.5 * geo.fieldR + 20, fill: "#2a6b45" }));
  const fields = svgEl("g", { class: "kg-fields" });
  // Each home lane: a band in the seat's colour from the field before the home inwards.
  for (let s = 0; s < n; s++) {
    const a = geo.trackPoint(geo.entry(s));
    const b = geo.homePoint(s, 5);
    fields.append(svgEl("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: seatColour(s, n), "stroke-width": 2.2 * geo.fieldR, "stroke-linecap": "round", opacity: 0.5, class: "kg-lane" }));
  }
  // The direction of travel: two arrows outside the track in each seat's stretch.
  for (let s = 0; s < n; s++) {
    for (const f of [9, 14]) fields.append(arrow(geo, 18 * s + f + 0.5));
  }
  for (let i = 0; i < geo.track; i++) {
    const p = geo.trackPoint(i);
    const isStart = i % 18 === 0;
    const f = svgEl("circle", { cx: p.x, cy: p.y, r: geo.fieldR, class: `kg-field${isStart ? " start" : ""}`, "data-place": `t${i}` });
    if (isStart) {
      f.setAttribute("stroke", "#fff");
      f.setAttribute("fill", seatColour(i / 18, n));
    }
    fields.append(f);
  }
  for (let s = 0; s < n; s++) {
    const col = seatColour(s, n);
    // The home entry ("the field before the home"): a dashed ring in the seat's colour.
    const e = geo.trackPoint(geo.entry(s));
    fields.append(svgEl("circle", { cx: e.x, cy: e.y, r: geo.fieldR + 4, fill: "none", stroke: col, "stroke-width": 3, "stroke-dasharray": "4 3", class: "kg-entry", "data-entry": s }));
    for (let k = 1; k <= 5; k++) {
      const p = geo.homePoint(s, k);
      fields.append(svgEl("circle", { cx: p.x, cy: p.y, r: geo.fieldR, class: "kg-field home", stroke: col, "stroke-width": 3, fill: col, "fill-opacity": 0.85, "data-place": `h${s}.${k}` }));
    }
    for (let k = 0; k < 5; k++) {
      const p = geo.startSlot(s, k);
      fields.append(svgEl("circle", { cx: p.x, cy: p.y, r: geo.fieldR * 0.9, fill: "none", stroke: col, "stroke-width": 3, "data-slot": `s${s}.${k}` }));
    }
    const lp = geo.labelPoint(s);
    // Labels near the left or right edge grow inwards, away from the track.
    const side = lp.x - C;
    const anchor = side < -0.35 * R ? "start" : side > 0.35 * R ? "end" : "middle";
    const text = svgEl("text", { x: lp.x, y: lp.y, "text-anchor": anchor, "dominant-baseline": "middle", "font-size": n > 6 ? 20 : 26, fill: "#fff", "font-weight": "bold", class: "kg-label", "data-seat": s });
    text.textContent = labels[s];
    const bg = svgEl("circle", { cx: lp.x, cy: lp.y - (n > 6 ? 22 : 28), r: 9, fill: col, class: "kg-team-dot" });
    fields.append(bg, text);
  }
  svg.append(fields);
  svg.append(svgEl("g", { class: "kg-overlay" }));
  svg.append(svgEl("g", { class: "kg-marbles" }));
  svg.append(svgEl("g", { class: "kg-hits" }));
}
