// The WebSocket session of one match (docs/protocol.md, "WebSocket /ws/{match_id}").
// It keeps the latest version, sends the token in a first `hello` (never in the URL),
// and reconnects after a dropped network with a growing delay (at once when the server
// closes with 1012, a restart); after reconnecting it
// asks for `sync` from the last version it saw, so the page gets the events it missed.
// A connection that goes quiet is treated as lost: the page pings every PING_MS and
// drops a socket that heard nothing for SILENT_MS (a dead network often never closes
// the socket), and the browser's "offline" drops it at once.  Handlers: onWelcome,
// onState, onSeats, onError, onHint, onVerdict, onChoices, onConnection(status).

import { parseJson } from "./api.js";

/** @typedef {import("./protocol").ServerMessage} ServerMessage */
/** @typedef {import("./protocol").ClientData} ClientData */
/**
 * What the page does with the server's messages (each optional).
 * @typedef {object} SessionHandlers
 * @property {(d: import("./protocol").WelcomeData) => void} [onWelcome]
 * @property {(d: import("./protocol").StateData, v: number) => void} [onState]
 * @property {(d: import("./protocol").SeatsData) => void} [onSeats]
 * @property {(d: import("./protocol").ErrorData) => void} [onError]
 * @property {(d: import("./protocol").HintData, v?: number) => void} [onHint]
 * @property {(d: import("./protocol").VerdictData, v?: number) => void} [onVerdict]
 * @property {(d: import("./protocol").ChoicesData) => void} [onChoices]
 * @property {(d: import("./protocol").ChatLine) => void} [onChat]
 * @property {(d: import("./protocol").RematchSeat) => void} [onRematch]
 * @property {(status: ConnectionStatus) => void} [onConnection]
 */
/** @typedef {"connecting" | "open" | "lost" | "closed" | "not_found" | "sealed"} ConnectionStatus */

/**
 * Adds `events` to `log`, each `seq` once, and keeps the log in `seq` order: after a
 * reconnect the `sync` answer can bring a missed event after a newer one that the new
 * socket was already told (docs/protocol.md, `state`).
 * @template {{ seq: number }} E
 * @param {E[]} log
 * @param {E[]} events
 * @returns {E[]} the log
 */
export function mergeEvents(log, events) {
  for (const ev of events) if (!log.some((e) => e.seq === ev.seq)) log.push(ev);
  log.sort((a, b) => a.seq - b.seq);
  return log;
}

export const PING_MS = 4000;
export const SILENT_MS = 9000;

/** The "token" of a seat opened by the account's sign-in (`hello {"account": true}`):
 * "Dine spil" links a signed-in player's running games on any device with `#account`. */
export const ACCOUNT_SEAT = "@account";

export class Session {
  /**
   * @param {string} matchId
   * @param {string | null} token the seat's token; null to watch
   * @param {SessionHandlers} handlers
   */
  constructor(matchId, token, handlers) {
    this.matchId = matchId;
    this.token = token;
    this.h = handlers;
    this.version = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {string[]} */
    this.pending = [];
    this.connected = false; // a socket of this session has opened before
    this.heard = 0; // when the open socket last received anything (performance.now())
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.beat = undefined;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.matchId)}`;
  }

  connect() {
    if (this.closed) return;
    // A reconnect resumes from the last version seen: the first state on a new socket
    // carries no events, so `sync` asks for the ones missed meanwhile.
    const resume = this.connected ? this.version : null;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.h.onConnection?.("connecting");
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.connected = true;
      this.heard = performance.now();
      clearInterval(this.beat);
      this.beat = setInterval(() => this.heartbeat(ws), PING_MS);
      if (this.token) this.raw("hello", this.token === ACCOUNT_SEAT ? { account: true } : { token: this.token });
      if (resume !== null) ws.send(JSON.stringify({ t: "sync", v: resume, d: {} }));
      this.h.onConnection?.("open");
      for (const msg of this.pending.splice(0)) ws.send(msg);
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws === ws) this.heard = performance.now();
      this.receive(ev.data);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.lose(ws, ev.code);
    });
  }

  /**
   * The socket is gone (closed, silent or the network went away): say so and try again
   * with a growing delay (at once when the browser reports the network back).
   * @param {WebSocket} ws
   * @param {number} code the close code (1006 when the page gave up on the socket)
   */
  lose(ws, code) {
    if (this.ws !== ws) return;
    this.ws = null;
    clearInterval(this.beat);
    // 4404: no such match; 4403: a ranked daily attempt nobody but its player may watch
    // until its day is over (docs/protocol.md) — trying again would not help.
    if (this.closed || code === 4404 || code === 4403) {
      this.h.onConnection?.(code === 4404 ? "not_found" : code === 4403 ? "sealed" : "closed");
      return;
    }
    // A restart (1012) is not a loss: the page says "connecting", not "connection lost".
    this.h.onConnection?.(code === 1012 ? "connecting" : "lost");
    clearTimeout(this.timer);
    // 1012 (service restart): the server is draining for a restart; the proxy sends the
    // new socket to another worker, so come back at once (spread over 0.25 s).
    const delay = code === 1012 ? Math.random() * 250 : Math.min(8000, 400 * 2 ** this.retry++);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /**
   * Every PING_MS on an open socket: ping, and give the socket up when nothing came
   * for SILENT_MS (the server answers every ping with a pong).
   * @param {WebSocket} ws
   */
  heartbeat(ws) {
    if (this.ws !== ws) return;
    if (performance.now() - this.heard > SILENT_MS) {
      this.abandon(ws);
      return;
    }
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ t: "ping", v: this.version, d: {} }));
  }

  /**
   * Stop using a socket that cannot be trusted any more and reconnect.
   * @param {WebSocket} ws
   */
  abandon(ws) {
    this.lose(ws, 1006);
    try {
      ws.close();
    } catch {
      // already closing
    }
  }

  // Browsers fire "offline" when the network goes (the socket may stay open without
  // telling) and "online" when it is back: drop at once, reconnect at once.
  watchNetwork() {
    window.addEventListener("offline", () => {
      if (this.ws && !this.closed) this.abandon(this.ws);
    });
    window.addEventListener("online", () => {
      if (!this.ws && !this.closed) {
        clearTimeout(this.timer);
        this.connect();
      }
    });
  }

  /** @param {string} text one frame from the server */
  receive(text) {
    /** @type {ServerMessage} */
    let msg;
    try {
      msg = parseJson(text);
    } catch {
      return;
    }
    if (!msg || typeof msg !== "object" || !msg.d) return;
    switch (msg.t) {
      case "welcome":
        this.version = msg.v;
        this.h.onWelcome?.(msg.d);
        break;
      case "state":
        this.version = msg.v;
        this.h.onState?.(msg.d, msg.v);
        break;
      case "seats":
        this.h.onSeats?.(msg.d);
        break;
      case "error":
        if (typeof msg.v === "number") this.version = Math.max(this.version, msg.v);
        this.h.onError?.(msg.d);
        if (msg.d.code === "stale") this.raw("sync", {});
        break;
      case "hint":
        this.h.onHint?.(msg.d, msg.v);
        break;
      case "verdict":
        this.h.onVerdict?.(msg.d, msg.v);
        break;
      case "choices":
        this.h.onChoices?.(msg.d);
        break;
      case "chat":
        this.h.onChat?.(msg.d);
        break;
      case "rematch":
        this.h.onRematch?.(msg.d);
        break;
      default:
        break;
    }
  }

  /**
   * Sends a message now, or when the socket opens.
   * @template {keyof ClientData} T
   * @param {T} t
   * @param {ClientData[T]} d
   */
  raw(t, d) {
    const text = JSON.stringify({ t, v: this.version, d });
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.pending.push(text);
  }

  // The full event log: a `sync` from version 0 (the first state after connecting
  // carries only the events after the version the socket joined at).
  syncAll() {
    const text = JSON.stringify({ t: "sync", v: 0, d: {} });
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  /** @param {string} action */
  act(action) {
    this.raw("act", { action });
  }
  /** @param {string} target */
  click(target) {
    this.raw("click", { target });
  }
  undo() {
    this.raw("undo", {});
  }
  redo() {
    this.raw("redo", {});
  }
  hint() {
    this.raw("hint", {});
  }
  /** Give up the seat: a bot plays it from now on, this socket watches (server/leaving.py). */
  leave() {
    this.raw("leave", {});
  }
  /** "Spil igen" at a finished table: the answer is this seat's seat at the new table. */
  rematch() {
    this.raw("rematch", {});
  }
  /** Solitaires: undo back to the last position a solver verdict found winnable. */
  rewind() {
    this.raw("rewind", {});
  }
  verdict() {
    this.raw("verdict", {});
  }
  /** A line of table chat: text, or a quick phrase's key. @param {{ text?: string, phrase?: string }} d */
  chat(d) {
    this.raw("chat", d);
  }

  // Test and debug aid: drop the socket as a network failure would.
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.beat);
    if (this.ws) this.ws.close();
  }
}
