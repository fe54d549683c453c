// HTTP side of docs/protocol.md: games, players, matches, invites, records, statistics.
// Errors come back as ApiError with the server's {code, reason} and, when the server gave
// one, the message {key, params, cards, ranks}; the pages translate the code
// ("error.<code>") and the key ("refused.<key>") with ui.js errorText(code, reason, err).

// Deal numbers of table games are 63-bit: beyond a JS number's 53 bits.  They are read
// as strings (the page only shows and links them, never computes with them).
/** @typedef {import("./protocol").CreateMatchRequest} CreateMatchRequest */
/** @typedef {import("./protocol").RefusalMessage} RefusalMessage */

/** @param {string} text @returns {any} */
export function parseJson(text) {
  return JSON.parse(text.replace(/("deal"\s*:\s*)(\d{16,})/g, '$1"$2"'));
}

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: no answer)
   * @param {string} code
   * @param {string} reason
   * @param {RefusalMessage} [detail]
   */
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

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {{ [name: string]: string }} [headers]
 * @returns {Promise<any>}
 */
async function request(method, path, body, headers = {}) {
  /** @type {RequestInit & { headers: { [name: string]: string } }} */
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
    // not JSON (a proxy's error page): data stays null
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

/** @returns {Promise<import("./protocol").GameInfo[]>} */
export const getGames = () => request("GET", "/api/games");
/** @param {string} id @returns {Promise<import("./protocol").MatchInfo>} */
export const getMatch = (id) => request("GET", `/api/matches/${encodeURIComponent(id)}`);
/** @param {CreateMatchRequest} spec @returns {Promise<import("./protocol").CreateMatchResponse>} */
export const createMatch = (spec) => request("POST", "/api/matches", spec);
/** @param {string} code @returns {Promise<import("./protocol").InviteInfo>} */
export const getInvite = (code) => request("GET", `/api/invites/${encodeURIComponent(code)}`);
/** @param {string} code @returns {Promise<import("./protocol").ClaimResponse>} */
export const claimInvite = (code) =>
  request("POST", `/api/invites/${encodeURIComponent(code)}/claim`, {});
/** @param {string} player @returns {Promise<import("./protocol").PlayerStats>} */
export const getStats = (player) =>
  request("GET", `/api/players/${encodeURIComponent(player)}/stats`);

/**
 * @param {string} player
 * @param {string} game
 * @param {number | string} deal
 * @param {{ [flag: string]: boolean }} flags
 * @returns {Promise<import("./protocol").BestResult>}
 */
export function getBest(player, game, deal, flags) {
  const q = new URLSearchParams({ game, deal: String(deal), flags: JSON.stringify(flags) });
  return request("GET", `/api/players/${encodeURIComponent(player)}/best?${q}`);
}

/**
 * @param {string} id
 * @param {string | null} token
 * @returns {Promise<import("./protocol").RecordResponse>}
 */
export function getRecord(id, token) {
  /** @type {{ [name: string]: string }} */
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  return request("GET", `/api/matches/${encodeURIComponent(id)}/record`, undefined, headers);
}

// The browser's player id (statistics are kept per id); created once and kept.  Callers
// that ask while the id is being created (the start page asks when it opens, and "Spil"
// clicked before that answer came) share the one request: one guest, not two whose
// second overwrote the first after a game was started as it.  A tab that created its
// guest first wins: the id stored then is the one every tab goes on with.
/** @type {Promise<string> | null} */
let creating = null;
/** @returns {Promise<string>} */
export function ensurePlayer() {
  const id = localStorage.getItem("spillebord.player");
  if (id) return Promise.resolve(id);
  creating ??= request("POST", "/api/players", {})
    .then((/** @type {import("./protocol").NewPlayer} */ data) => {
      const stored = localStorage.getItem("spillebord.player");
      if (stored) return stored;
      localStorage.setItem("spillebord.player", data.player_id);
      return data.player_id;
    })
    .finally(() => { creating = null; });
  return creating;
}

// Names and accounts (docs/protocol.md, "Names and accounts").  The sign-in session is
// an HttpOnly cookie: fetch sends it, the page never reads it.
/** @returns {Promise<import("./protocol").Me>} */
export const getMe = () => request("GET", "/api/me");
/** @param {string} name @returns {Promise<import("./protocol").Me>} */
export const setName = (name) => request("PUT", "/api/me/name", { name });
/** @param {string | null} name @param {string} password @returns {Promise<import("./protocol").Me>} */
export const signUp = (name, password) => request("POST", "/api/account", { name, password });
/** @param {string} name @param {string} password @returns {Promise<import("./protocol").Me>} */
export const signIn = (name, password) => request("POST", "/api/session", { name, password });
/** @returns {Promise<null>} */
export const signOut = () => request("DELETE", "/api/session");
/** A signed-in player's games from the server ("Dine spil" on any device).
 * @returns {Promise<import("./protocol").MyGames>} */
export const getMyGames = () => request("GET", "/api/me/games");
/** @param {string} oldPassword @param {string} newPassword @returns {Promise<null>} */
export const changePassword = (oldPassword, newPassword) =>
  request("PUT", "/api/account/password", { old_password: oldPassword, new_password: newPassword });

/** @param {string} id @returns {Promise<import("./protocol").ChatLog>} */
export const getChat = (id) => request("GET", `/api/matches/${encodeURIComponent(id)}/chat`);

// Ratings (docs/protocol.md, "Ratings").
/** @param {string} id @returns {Promise<import("./protocol").SeatPeople>} */
export const getSeatPeople = (id) => request("GET", `/api/matches/${encodeURIComponent(id)}/players`);
/** @param {string} game @param {number} seats @returns {Promise<import("./protocol").Leaderboard>} */
export const getLeaderboard = (game, seats) =>
  request("GET", `/api/leaderboard/${encodeURIComponent(game)}?seats=${seats}`);
/** @param {string} game @param {number} seats @returns {Promise<import("./protocol").BotLadder>} */
export const getBotLadder = (game, seats) =>
  request("GET", `/api/bot-ladder/${encodeURIComponent(game)}?seats=${seats}`);
/** @param {string} player @returns {Promise<import("./protocol").PlayerRatings>} */
export const getPlayerRatings = (player) =>
  request("GET", `/api/players/${encodeURIComponent(player)}/ratings`);

/** @param {string} matchId @returns {Promise<import("./protocol").MatchRated>} */
export const getMatchRated = (matchId) => request("GET", `/api/matches/${encodeURIComponent(matchId)}/rated`);

// The daily deal (docs/protocol.md, "Daily deal").
/** @param {string} game @returns {Promise<import("./protocol").DailyInfo>} */
export const dailyInfo = (game) => request("GET", `/api/daily/${encodeURIComponent(game)}`);
/** @param {string} game @returns {Promise<import("./protocol").CreateMatchResponse>} */
export const playDaily = (game) => request("POST", `/api/daily/${encodeURIComponent(game)}/play`, {});
/** @param {string} game @param {string} day @returns {Promise<import("./protocol").DailyBoard>} */
export const dailyLeaderboard = (game, day) =>
  request("GET", `/api/daily/${encodeURIComponent(game)}/leaderboard?day=${encodeURIComponent(day)}`);
/** @param {string} matchId @returns {Promise<import("./protocol").DailyAttempt>} */
export const dailyAttempt = (matchId) => request("GET", `/api/daily/attempt/${encodeURIComponent(matchId)}`);
/** @param {string} game @returns {Promise<import("./protocol").DailyDays>} */
export const dailyDays = (game) => request("GET", `/api/daily/${encodeURIComponent(game)}/days`);
/** @param {string} game @returns {Promise<import("./protocol").DailyCommitments>} */
export const dailyCommitments = (game) => request("GET", `/api/daily/${encodeURIComponent(game)}/commitments`);

// Open tables (docs/protocol.md, "Open tables and quick match").
/** @param {string} matchId @param {number | null} seat @returns {Promise<import("./protocol").SeatTaken>} */
export const takeSeat = (matchId, seat) =>
  request("POST", `/api/lobby/${encodeURIComponent(matchId)}/take`, { seat });
/** @param {import("./protocol").QuickMatchRequest} spec @returns {Promise<import("./protocol").QuickSeat>} */
export const quickMatch = (spec) => request("POST", "/api/quick", spec);

// After signing in, this browser plays as the account's player id; after signing out
// (or when the sign-in has ended) it starts again as a new guest.
/** @param {string} id */
export function usePlayer(id) {
  localStorage.setItem("spillebord.player", id);
}
export function forgetPlayer() {
  localStorage.removeItem("spillebord.player");
}

/** "Log ud": forget every seat token, invite and game this browser holds (they were the
 * account's; the server refuses the account's seats to a socket that is not signed in
 * as it, and the games come back from the server on signing in again). */
export function forgetSeats() {
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith("spillebord.token.") || key.startsWith("spillebord.invites.")) localStorage.removeItem(key);
  }
  localStorage.removeItem("spillebord.matches");
}

// Seat tokens are kept per match so a reload or a new tab finds the seat again.
/** @param {string} matchId @param {string} token */
export function saveToken(matchId, token) {
  localStorage.setItem(`spillebord.token.${matchId}`, token);
}
/** @param {string} matchId @returns {string | null} */
export function loadToken(matchId) {
  return localStorage.getItem(`spillebord.token.${matchId}`);
}

// Remember matches this browser started or joined (the start page lists them).
/** @typedef {{ match_id: string, game: string | null, time?: string }} KnownMatch */

/** @param {KnownMatch} entry */
export function rememberMatch(entry) {
  /** @type {KnownMatch[]} */
  const list = JSON.parse(localStorage.getItem("spillebord.matches") || "[]");
  const rest = list.filter((m) => m.match_id !== entry.match_id);
  rest.unshift({ ...entry, time: new Date().toISOString() });
  localStorage.setItem("spillebord.matches", JSON.stringify(rest.slice(0, 50)));
}
/** @returns {KnownMatch[]} */
export function knownMatches() {
  return JSON.parse(localStorage.getItem("spillebord.matches") || "[]");
}
