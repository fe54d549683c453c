// session.js over a real WebSocket: a scripted server (the `ws` package) on a loopback
// port, jsdom's WebSocket as the browser's.  The token goes in a first `hello`, never in
// the address; the version follows `state`/`error`; messages wait for the socket; a lost
// socket comes back and asks `sync` from the last version seen; 4404 ends it; `stale`
// re-syncs; events are kept once each in `seq` order.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { WebSocketServer } from "ws";
import { installDom, JS } from "./dom.js";

/** @type {WebSocketServer} */
let server;
/** @type {{ url: string, socket: import("ws").WebSocket, got: any[] }[]} */
const conns = [];
/** @type {((c: { url: string, socket: import("ws").WebSocket, got: any[] }) => void)[]} */
const waiting = [];

/** @type {any} */
let mod;

before(async () => {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => server.once("listening", resolve));
  server.on("connection", (socket, req) => {
    const conn = { url: req.url || "", socket, got: /** @type {any[]} */ ([]) };
    socket.on("message", (data) => conn.got.push(JSON.parse(String(data))));
    conns.push(conn);
    for (const w of waiting.splice(0)) w(conn);
  });
  const addr = /** @type {import("node:net").AddressInfo} */ (server.address());
  installDom(`http://127.0.0.1:${addr.port}/play/m1`);
  Object.defineProperty(globalThis, "WebSocket", { value: window.WebSocket, configurable: true, writable: true });
  mod = await import(`${JS}session.js`);
});

after(() => {
  for (const c of conns) c.socket.terminate();
  server.close();
});

/** @type {any[]} every session a test opened: closed after it, passed or failed */
const sessions = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

/** A new Session of session.js, closed after the test. */
function make(/** @type {string} */ matchId, /** @type {string | null} */ token, /** @type {any} */ handlers) {
  const s = new mod.Session(matchId, token, handlers);
  sessions.push(s);
  return s;
}

/** The next connection the server accepts. */
function nextConn() {
  return new Promise((resolve) => waiting.push(resolve));
}

/** Waits until `check()` is true (polling; at most 5 s). */
async function until(/** @type {() => boolean} */ check, what = "condition") {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A session with handlers that record what they are told. */
function recorder() {
  /** @type {{ [kind: string]: any[] }} */
  const seen = { welcome: [], state: [], error: [], hint: [], verdict: [], choices: [], connection: [] };
  const handlers = {
    onWelcome: (/** @type {any} */ d) => seen.welcome.push(d),
    onState: (/** @type {any} */ d, /** @type {number} */ v) => seen.state.push({ d, v }),
    onError: (/** @type {any} */ d) => seen.error.push(d),
    onHint: (/** @type {any} */ d) => seen.hint.push(d),
    onVerdict: (/** @type {any} */ d) => seen.verdict.push(d),
    onChoices: (/** @type {any} */ d) => seen.choices.push(d),
    onConnection: (/** @type {string} */ s) => seen.connection.push(s),
  };
  return { seen, handlers };
}

/** @param {import("ws").WebSocket} socket @param {string} t @param {number} v @param {any} d */
function send(socket, t, v, d) {
  socket.send(JSON.stringify({ t, v, d }));
}

const state = (/** @type {number[]} */ seqs) => ({
  seat: 0, view: {}, legal: [], to_move: 0, outcome: null, status: "running",
  events: seqs.map((seq) => ({ seq, kind: "act", seat: 0, action: `a${seq}` })),
});

test("the token goes in a first hello, not in the address; queued messages follow it", async () => {
  const { seen, handlers } = recorder();
  const s = make("m1", "secret-token", handlers);
  s.act("8H c2"); // before the socket is open: waits
  const conn = nextConn();
  s.connect();
  const c = await conn;
  assert.equal(c.url, "/ws/m1");
  await until(() => c.got.length >= 2, "hello and the act");
  assert.deepEqual(c.got[0], { t: "hello", v: 0, d: { token: "secret-token" } });
  assert.deepEqual(c.got[1], { t: "act", v: 0, d: { action: "8H c2" } });
  assert.deepEqual(seen.connection.slice(0, 2), ["connecting", "open"]);
  s.close();
});

test("the version follows state and error; acts carry it; each handler gets its message", async () => {
  const { seen, handlers } = recorder();
  const s = make("m1", null, handlers);
  const conn = nextConn();
  s.connect();
  const c = await conn;
  await until(() => seen.connection.includes("open"), "open");
  send(c.socket, "welcome", 3, { seat: null, role: "spectator", match: {} });
  send(c.socket, "state", 3, state([]));
  send(c.socket, "hint", 3, { action: "8H c2" });
  send(c.socket, "verdict", 3, { verdict: "winnable" });
  send(c.socket, "choices", 3, { target: "8H", actions: ["8H c2", "8H f4"] });
  send(c.socket, "error", 9, { code: "illegal", reason: "no" });
  c.socket.send("not json");
  send(c.socket, "pong", 9, {});
  await until(() => seen.error.length === 1, "the error");
  assert.equal(seen.welcome[0].role, "spectator");
  assert.equal(seen.state[0].v, 3);
  assert.equal(seen.hint[0].action, "8H c2");
  assert.equal(seen.verdict[0].verdict, "winnable");
  assert.deepEqual(seen.choices[0].actions, ["8H c2", "8H f4"]);
  assert.equal(s.version, 9);
  s.undo();
  await until(() => c.got.length === 1, "the undo");
  assert.deepEqual(c.got[0], { t: "undo", v: 9, d: {} });
  s.close();
});

test("a stale refusal asks for a sync", async () => {
  const { seen, handlers } = recorder();
  const s = make("m1", null, handlers);
  const conn = nextConn();
  s.connect();
  const c = await conn;
  await until(() => seen.connection.includes("open"), "open");
  send(c.socket, "error", 5, { code: "stale", reason: "old", ref: "act" });
  await until(() => c.got.length === 1, "the sync");
  assert.deepEqual(c.got[0], { t: "sync", v: 5, d: {} });
  s.close();
});

test("a lost socket comes back, says hello again and syncs from the last version", async () => {
  const { seen, handlers } = recorder();
  const s = make("m1", "tok", handlers);
  let conn = nextConn();
  s.connect();
  const first = await conn;
  await until(() => first.got.length === 1, "hello");
  send(first.socket, "state", 7, state([7]));
  await until(() => s.version === 7, "version 7");
  conn = nextConn();
  first.socket.terminate(); // the network drops
  const second = await conn;
  await until(() => second.got.length >= 2, "hello and sync");
  assert.deepEqual(second.got.slice(0, 2), [
    { t: "hello", v: 7, d: { token: "tok" } },
    { t: "sync", v: 7, d: {} },
  ]);
  assert.deepEqual(seen.connection, ["connecting", "open", "lost", "connecting", "open"]);
  s.close();
});

test("the browser's online event reconnects at once, not after the delay", async () => {
  const { seen, handlers } = recorder();
  const s = make("m1", null, handlers);
  s.watchNetwork();
  let conn = nextConn();
  s.connect();
  const first = await conn;
  await until(() => seen.connection.includes("open"), "open");
  s.retry = 5; // the next try would wait 8 s
  conn = nextConn();
  first.socket.terminate();
  await until(() => seen.connection.includes("lost"), "lost");
  const t0 = Date.now();
  window.dispatchEvent(new window.Event("online"));
  await conn;
  assert.ok(Date.now() - t0 < 2000, "reconnected at once");
  s.close();
});

test("close code 1012 (the server restarts) reconnects at once and syncs, even after failures", async () => {
  const { seen, handlers } = recorder();
  const s = make("m1", "tok", handlers);
  let conn = nextConn();
  s.connect();
  const first = await conn;
  await until(() => first.got.length === 1, "hello");
  send(first.socket, "state", 4, state([4]));
  await until(() => s.version === 4, "version 4");
  s.retry = 5; // a plain loss would now wait 8 s
  conn = nextConn();
  const t0 = Date.now();
  first.socket.close(1012);
  const second = await conn;
  assert.ok(Date.now() - t0 < 1000, `reconnected at once (${Date.now() - t0} ms)`);
  await until(() => second.got.length >= 2, "hello and sync");
  assert.deepEqual(second.got.slice(0, 2), [
    { t: "hello", v: 4, d: { token: "tok" } },
    { t: "sync", v: 4, d: {} },
  ]);
  assert.ok(!seen.connection.includes("lost"), `no "lost" shown: ${seen.connection}`);
  s.close();
});

test("close code 4404 (no such match) ends the session: no reconnect", async () => {
  const { seen, handlers } = recorder();
  const s = make("m1", null, handlers);
  const conn = nextConn();
  s.connect();
  const c = await conn;
  await until(() => seen.connection.includes("open"), "open");
  c.socket.close(4404);
  await until(() => seen.connection.includes("not_found"), "not_found");
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(s.ws, null);
  assert.deepEqual(seen.connection, ["connecting", "open", "not_found"]);
  s.close();
});

test("mergeEvents keeps each seq once, in order, whatever the arrival order", () => {
  const log = [];
  mod.mergeEvents(log, state([5, 6]).events);
  mod.mergeEvents(log, state([3, 4, 5]).events); // a sync answer after a newer broadcast
  mod.mergeEvents(log, state([6, 7]).events);
  assert.deepEqual(log.map((e) => e.seq), [3, 4, 5, 6, 7]);
  assert.equal(log.find((e) => e.seq === 5)?.action, "a5");
});

