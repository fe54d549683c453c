// Table chat on the game page (docs/web.md, "Chat"): the lines said at this table (the
// earlier ones from GET /api/matches/{id}/chat, then live `chat` messages), each shown
// as plain text (textContent: markup is never rendered); a line field (at most 300
// characters) and quick phrases for phones; a mute toggle per other seat, for the rest
// of this game (kept in sessionStorage for the match).  Spectators read only.

import { getChat } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./ui.js";

/** @typedef {import("./protocol").ChatLine} ChatLine */
/**
 * @typedef {object} ChatContext
 * @property {string} matchId
 * @property {(d: { text?: string, phrase?: string }) => void} send
 * @property {(seat: number) => string} seatName
 * @property {() => number | null} mySeat
 * @property {number} seats
 */

export const PHRASES = ["hello", "good_luck", "good_game", "thanks", "well_played", "oops"];
const MAX = 300;

/**
 * @param {HTMLElement} root
 * @param {ChatContext} ctx
 */
export function createChat(root, ctx) {
  /** @type {Map<number, ChatLine>} */
  const lines = new Map();
  const muteKey = `spillebord.mute.${ctx.matchId}`;
  /** @type {Set<number>} */
  const muted = new Set(JSON.parse(sessionStorage.getItem(muteKey) || "[]"));
  root.hidden = false;
  root.innerHTML = "";
  const list = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const input = el("input", { type: "text", id: "chat-text", maxlength: String(MAX), autocomplete: "off",
    "aria-label": t("chat.line") });
  const send = el("button", { type: "submit", class: "primary", text: t("chat.send") });
  const form = el("form", { class: "chat-form" }, input, send);
  const phrases = el("div", { class: "chat-phrases" });
  for (const key of PHRASES) {
    const b = el("button", { type: "button", class: "chat-phrase", "data-phrase": key, text: t(`chat.phrase.${key}`) });
    b.addEventListener("click", () => ctx.send({ phrase: key }));
    phrases.append(b);
  }
  const mutes = el("details", { class: "chat-mutes" }, el("summary", { text: t("chat.mute_title") }));
  const note = el("p", { class: "chat-note", text: t("chat.spectator") });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    ctx.send({ text });
    input.value = "";
  });
  root.append(el("h2", { text: t("chat.title") }), list, form, phrases, mutes, note);

  function drawMutes() {
    mutes.querySelectorAll("label").forEach((n) => n.remove());
    for (let seat = 0; seat < ctx.seats; seat++) {
      if (seat === ctx.mySeat()) continue;
      const id = `mute-${seat}`;
      const box = el("input", { type: "checkbox", id, checked: muted.has(seat) });
      box.addEventListener("change", () => {
        if (box.checked) muted.add(seat);
        else muted.delete(seat);
        sessionStorage.setItem(muteKey, JSON.stringify([...muted]));
        draw();
      });
      mutes.append(el("label", { class: "check", for: id }, box, t("chat.mute", { who: ctx.seatName(seat) })));
    }
  }

  function draw() {
    const seated = ctx.mySeat() !== null;
    form.hidden = !seated;
    phrases.hidden = !seated;
    note.hidden = seated;
    list.innerHTML = "";
    const shown = [...lines.values()].filter((l) => !muted.has(l.seat)).sort((a, b) => a.id - b.id);
    for (const line of shown.slice(-100)) {
      const who = line.name || ctx.seatName(line.seat);
      const text = line.phrase ? t(`chat.phrase.${line.phrase}`) : line.text;
      list.append(el("li", { "data-seat": String(line.seat) },
        el("span", { class: "chat-who", text: `${who}: ` }), el("span", { class: "chat-text", text })));
    }
    if (!shown.length) list.append(el("li", { class: "chat-empty", text: t("chat.none") }));
    list.scrollTop = list.scrollHeight;
  }

  getChat(ctx.matchId).then((log) => {
    for (const line of log.messages) lines.set(line.id, line);
    draw();
  }).catch(() => null);
  drawMutes();
  draw();
  return {
    /** @param {ChatLine} line */
    add(line) {
      lines.set(line.id, line);
      draw();
    },
    /** The seat is known (after welcome): redraw who may write and whom to mute. */
    refresh() {
      drawMutes();
      draw();
    },
  };
}

/**
 * The chat of a finished match for the replay: the lines said up to `version`.
 * @param {ChatLine[]} lines
 * @param {number} version
 * @param {(seat: number) => string} seatName
 */
export function chatUpTo(lines, version, seatName) {
  const list = el("ol", { class: "chat-lines" });
  for (const line of lines.filter((l) => l.version <= version)) {
    const text = line.phrase ? t(`chat.phrase.${line.phrase}`) : line.text;
    list.append(el("li", {}, el("span", { class: "chat-who", text: `${line.name || seatName(line.seat)}: ` }),
      el("span", { class: "chat-text", text })));
  }
  if (!list.children.length) list.append(el("li", { class: "chat-empty", text: t("chat.none") }));
  return list;
}
