// HTTP side of docs/protocol.md: games, players, matches, invites, records, statistics.
// Errors come back as ApiError with the server's {code, reason} and, when the server gave
// one, the message {key, params, cards, ranks}; the pages translate the code
// ("error.<code>") and the key ("refused.<key>") with ui.js errorText(code, reason, err).

// Deal numbers of table games are 63-bit: beyond a JS number's 53 bits.  They are read
// as strings (the page only shows and links them, never computes with them).
export function parseJson(text) {
  return JSON.parse(text.replace(/("deal"\s*:\s*)(\d{16,})/g, '$1"$2"'));
}

export class ApiError extends Error {
  constructor(status, code, reason, detail = {}) {
    super(reason || code);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.key = detail.key;
    this.params = detail.params;
    this.cards = detail.cards;
    this.ranks = detail.ranks;
  }
}

async function request(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  const player = localStorage.getItem("spillebord.player");
  if (player) init.headers["X-Player"] = player;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    // A deal number read as a string (parseJson) goes back as the number it is.
    init.body = JSON.stringify(body).replace(/("deal":)"(\d+)"/g, "$1$2");
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", String(err));
  }
  let data = null;
  try {
    data = parseJson(await res.text());
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = data && data.detail;
    if (detail && typeof detail === "object" && !Array.isArray(detail)) {
      throw new ApiError(res.status, detail.code || "http", detail.reason || "", detail);
    }
    throw new ApiError(res.status, "http", JSON.stringify(detail || res.statusText));
  }
  return data;
}

export const getGames = () => request("GET", "/api/games");
export const getMatch = (id) => request("GET", `/api/matches/${encodeURIComponent(id)}`);
export const createMatch = (spec) => request("POST", "/api/matches", spec);
export const claimInvite = (code) =>
  request("POST", `/api/invites/${encodeURIComponent(code)}/claim`, {});
export const getStats = (player) =>
  request("GET", `/api/players/${encodeURIComponent(player)}/stats`);

export function getBest(player, game, deal, flags) {
  const q = new URLSearchParams({ game, deal: String(deal), flags: JSON.stringify(flags) });
  return request("GET", `/api/players/${encodeURIComponent(player)}/best?${q}`);
}

export function getRecord(id, token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  return request("GET", `/api/matches/${encodeURIComponent(id)}/record`, undefined, headers);
}

// The browser's player id (statistics are kept per id); created once and kept.
export async function ensurePlayer() {
  let id = localStorage.getItem("spillebord.player");
  if (id) return id;
  const data = await request("POST", "/api/players", {});
  id = data.player_id;
  localStorage.setItem("spillebord.player", id);
  return id;
}

// Seat tokens are kept per match so a reload or a new tab finds the seat again.
export function saveToken(matchId, token) {
  localStorage.setItem(`spillebord.token.${matchId}`, token);
}
export function loadToken(matchId) {
  return localStorage.getItem(`spillebord.token.${matchId}`);
}

// Remember matches this browser started or joined (the start page lists them).
export function rememberMatch(entry) {
  const list = JSON.parse(localStorage.getItem("spillebord.matches") || "[]");
  const rest = list.filter((m) => m.match_id !== entry.match_id);
  rest.unshift({ ...entry, time: new Date().toISOString() });
  localStorage.setItem("spillebord.matches", JSON.stringify(rest.slice(0, 50)));
}
export function knownMatches() {
  return JSON.parse(localStorage.getItem("spillebord.matches") || "[]");
}
