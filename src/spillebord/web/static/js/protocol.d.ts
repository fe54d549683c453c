// The wire protocol of docs/protocol.md as TypeScript declarations, for the type check
// of the page modules (JSDoc `import("./protocol").X`).  Nothing here is served code.
// Each declaration that describes a part of the document carries `@wire <section>`:
// tests/js/protocol.test.js checks that every message type and field the document names
// is declared here and that every field declared here is named in its section.

/** A seat's or spectator's view of the game: `state.view(seat)`, shaped by each game. */
export type GameView = { [field: string]: unknown };

// ---------------------------------------------------------------------------- HTTP

/** @wire HTTP API */
export interface HttpError {
  detail: HttpErrorDetail;
}

/** @wire HTTP API */
export interface HttpErrorDetail extends RefusalMessage {
  code: string;
  reason: string;
  errors?: { loc: (string | number)[]; msg: string }[];
}

/** Text in both languages of the pages. */
export interface Texts {
  da: string;
  en: string;
}

/** @wire GET /api/games */
export interface GameInfo {
  key: string;
  name: Texts;
  blurb: Texts;
  seats: number[];
  default_seats: number;
  solitaire: boolean;
  flags: GameFlag[];
  bots: string[];
  bot_options: { [bot: string]: { [option: string]: BotOptionSpec } };
  levels: BotLevel[];
  default_level: number | null;
  solver: boolean;
  winnable: boolean;
  /** the flags of the shipped table of rated deals ("difficulty" works with these), or null */
  difficulty: { [flag: string]: boolean } | null;
  /** the page module js/games/<renderer>.js, or null: the generic view */
  renderer: string | null;
  /** every outcome reason the game can end with (Outcome.reason) */
  reasons: string[];
}

/** @wire GET /api/games */
export interface GameFlag {
  name: string;
  default: boolean;
  da: string;
  en: string;
}

/** @wire GET /api/games */
export interface BotOptionSpec {
  type: "int" | "float" | "str" | "bool";
  min?: number;
  max?: number;
  choices?: string[];
}

/** @wire GET /api/games */
export interface BotLevel {
  level: number;
  bot: string;
}

/** @wire POST /api/players */
export interface NewPlayer {
  player_id: string;
}

/** @wire GET /api/me, PUT /api/me/name, POST /api/account, POST /api/session */
export interface Me {
  player_id: string;
  /** null until the player picks one */
  name: string | null;
  /** whether the player has a password (and acts only when signed in) */
  account: boolean;
}

/** @wire GET /api/me/games */
export interface MyGames {
  player_id: string;
  games: MyGame[];
}

/** @wire GET /api/me/games */
export interface MyGame {
  match_id: string;
  game: string;
  status: MatchStatus;
  seat: number;
  /** the table's number of seats (1: a solitaire) */
  seats: number;
  /** the player gave the seat up (a bot played it on): a loss */
  left: boolean;
  result: "won" | "lost" | "draw" | null;
  place: number | null;
  bonus: number | null;
  /** a solitaire's hints so far; null at a table game */
  hints: number | null;
  reason: string | null;
  opponents: MyOpponent[];
  created: string;
  finished: string | null;
  /** "/play/{id}#account": the account's sign-in opens the seat on any device (a guest's: "/play/{id}") */
  play_url: string;
  replay_url: string | null;
}

/** @wire GET /api/me/games */
export interface MyOpponent {
  seat: number;
  kind: "human" | "bot";
  bot: string | null;
  level: number | null;
  name: string | null;
  claimed: boolean;
  left: boolean;
}

/** @wire GET /api/lobby, WebSocket /ws/lobby */
export interface LobbyList {
  tables: LobbyTable[];
}

/** @wire WebSocket /ws/lobby */
export interface LobbyMessage {
  t: "lobby" | "table" | "gone";
  d: LobbyList | LobbyTable | { match_id: string };
}

/** @wire GET /api/lobby */
export interface LobbyTable {
  match_id: string;
  game: string;
  flags: { [flag: string]: boolean };
  seats: LobbySeat[];
  free: number;
  created: string;
  fill_after: number | null;
  fill_level: number | null;
  /** the turn timer in seconds (null: no limit) */
  turn_seconds: number | null;
  /** whether the game will count for the ratings (if every seat is signed in) and why not */
  rated: RatedStatus;
}

/** Whether a table game counts for the ratings; `why` a reason code when it does not. */
export interface RatedStatus {
  rated: boolean;
  why: "solitaire" | "bots" | "guests" | "same_player" | "pair_limit" | null;
}

/** @wire GET /api/matches/{id}/rated */
export interface MatchRated extends RatedStatus {
  match_id: string;
  /** the rater has looked at the finished game: this is what it counted */
  final: boolean;
}

/** @wire GET /api/lobby */
export interface LobbySeat {
  seat: number;
  kind: string;
  bot: string | null;
  level: number | null;
  taken: boolean;
  name: string | null;
  /** the seated player's rating for this game and seat count, if rated */
  rating: number | null;
  /** the seat's account is a declared bot (a program plays it) */
  bot_account: boolean;
}

/** What anyone may know of a day's deal (server/daily.py ``public``): the commitment;
 * deal, salt, start and text only once the day is over. */
export interface DaySeal {
  day: string;
  algorithm: string;
  /** null for days chosen before deals were sealed */
  commitment: string | null;
  start: number | null;
  deal: number | null;
  salt: string | null;
  /** "<deal>:<salt>", the exact text the commitment hashes */
  text: string | null;
}

/** @wire GET /api/daily/{game} */
export interface DailyInfo extends DaySeal {
  game: string;
  /** the deal's level in the shipped table of rated deals (null: sealed days, or the game has none) */
  difficulty: "easy" | "medium" | "hard" | null;
  /** the caller's match of the day, if started */
  attempt: string | null;
  /** whether that attempt has finished */
  attempt_finished: boolean;
  streak: number;
}

/** @wire GET /api/daily/attempt/{match_id} */
export interface DailyAttempt {
  match_id: string;
  daily: boolean;
  game?: string;
  day?: string;
  finished?: boolean;
}

/** @wire GET /api/daily/{game}/leaderboard */
export interface DailyBoard extends DaySeal {
  game: string;
  /** what the board ranks by, in order */
  ranks: ("bonus" | "moves" | "seconds")[];
  players: DailyRow[];
}

/** @wire GET /api/daily/{game}/leaderboard */
export interface DailyRow {
  rank: number | null;
  name: string | null;
  /** null until the day is over */
  match_id: string | null;
  finished: boolean;
  bonus: number;
  won: boolean;
  moves: number;
  seconds: number;
  undos: number;
}

/** @wire GET /api/daily/{game}/days */
export interface DailyDays {
  game: string;
  days: DaySeal[];
}

/** @wire GET /api/daily/{game}/commitments */
export interface DailyCommitments {
  game: string;
  algorithm: string;
  today: string;
  days: { day: string, commitment: string | null }[];
}

/** @wire GET /api/matches/{id}/players */
export interface SeatPeople {
  seats: { seat: number, name: string | null, rating: number | null, bot_account: boolean }[];
}

/** @wire GET /api/leaderboard/{game} */
export interface Leaderboard {
  game: string;
  class: string;
  /** what an established rating needs: rated games, distinct other accounts */
  established: { games: number, others: number };
  players: LeaderboardRow[];
  /** the caller's own provisional rating (not listed), or null */
  mine: LeaderboardRow | null;
}

/** @wire GET /api/leaderboard/{game} */
export interface LeaderboardRow {
  /** null for the caller's own provisional row */
  rank: number | null;
  name: string;
  player_id: string;
  rating: number;
  mu: number;
  sigma: number;
  games: number;
  /** distinct other accounts met in rated games */
  others: number;
  provisional: boolean;
}

/** @wire POST /api/bot-account */
export interface BotSignUp {
  name: string;
  password: string;
  about: string | null;
}

/** @wire POST /api/bot-account */
export interface BotSignedUp {
  player_id: string;
  name: string;
  account: true;
  bot: true;
  about: string | null;
}

/** @wire GET /api/bot-accounts/{player_id} */
export interface BotAccount {
  player_id: string;
  bot: boolean;
  name: string | null;
  about: string | null;
}

/** @wire GET /api/bot-ladder/{game}?seats=N */
export interface BotLadder {
  game: string;
  class: string;
  entries: BotLadderEntry[];
}

/** @wire GET /api/bot-ladder/{game}?seats=N */
export interface BotLadderEntry {
  rank: number;
  /** "account": a declared bot account; "level" / "bot": one of the site's own bots */
  kind: "account" | "level" | "bot";
  player_id: string | null;
  name: string | null;
  about: string | null;
  level: number | null;
  bot: string | null;
  rating: number;
  mu: number;
  sigma: number;
  /** μ ± 1.96 σ */
  ci95: [number, number];
  games: number;
}

/** @wire GET /api/players/{player_id}/ratings */
export interface PlayerRatings {
  player_id: string;
  ratings: PlayerRating[];
  history: RatingChange[];
}

/** @wire GET /api/players/{player_id}/ratings */
export interface PlayerRating {
  game: string;
  class: string;
  mu: number;
  sigma: number;
  games: number;
  rating: number;
  others: number;
  provisional: boolean;
}

/** @wire GET /api/players/{player_id}/ratings */
export interface RatingChange {
  match_id: string;
  game: string;
  class: string;
  mu_before: number;
  sigma_before: number;
  mu: number;
  sigma: number;
  time: string;
  rating_before: number;
  rating: number;
}

/** @wire POST /api/lobby/{match_id}/take */
export interface SeatTaken {
  match_id: string;
  seat: number;
  token: string;
  play_url: string;
}

/** @wire POST /api/quick */
export interface QuickSeat extends SeatTaken {
  /** whether a new table was opened */
  opened: boolean;
}

/** @wire POST /api/quick */
export interface QuickMatchRequest {
  game: string;
  seats: number;
  flags: { [flag: string]: boolean };
  fill_after: number | null;
  fill_level: number | null;
  /** the turn timer (10–600 s; null or absent: no limit); only a table with the same one fits */
  turn_seconds?: number | null;
}

/** A seat in `POST /api/matches`: mine, open (invite) or a bot. */
export type SeatSpec = "me" | "human" | BotSeatSpec;

/** @wire POST /api/matches */
export interface BotSeatSpec {
  bot?: string;
  level?: number | null;
  options?: { [option: string]: unknown };
}

/** @wire POST /api/matches */
export interface CreateMatchRequest {
  game: string;
  flags?: { [flag: string]: boolean };
  seats?: SeatSpec[];
  deal?: number | "random" | "winnable";
  /** with "winnable": a rated deal of this difficulty (GameInfo.difficulty) */
  difficulty?: "easy" | "medium" | "hard" | null;
  takeover_seconds?: number | null;
  /** the turn timer (table games): the page offers 30, 60 or 120 s */
  turn_seconds?: number | null;
  player?: string;
  /** listed in the lobby (open tables) */
  public?: boolean;
  /** seconds until bots take the open seats; null = never */
  fill_after?: number | null;
  fill_level?: number | null;
}

/** @wire POST /api/matches */
export interface CreateMatchResponse {
  match_id: string;
  seat: number | null;
  token: string | null;
  play_url: string;
  invites: Invite[];
  commitment: string;
}

/** @wire POST /api/matches */
export interface Invite {
  seat: number;
  code: string;
  url: string;
}

/** @wire GET /api/matches/{id} */
export interface MatchInfo {
  match_id: string;
  game: string;
  flags: { [flag: string]: boolean };
  seats: SeatInfo[];
  status: MatchStatus;
  version: number;
  to_move: number | null;
  outcome: Outcome | null;
  /** 63-bit for table games: read as a string beyond 16 digits (api.js parseJson). */
  deal: number | string | null;
  fair: FairDeal | null;
  takeover_seconds: number | null;
  /** the turn timer's length in seconds (null: no timer) */
  turn_seconds: number | null;
  turn: TurnTimer | null;
  rematch: RematchOffer | null;
  created: string;
  finished: string | null;
}

export type MatchStatus = "running" | "finished";

/** @wire Fair deals */
export interface FairDeal {
  algorithm: string;
  commitment: string;
  deal: number | string | null;
  salt: string | null;
  /** "<deal>:<salt>", the text the commitment hashes (exact, unlike a 63-bit number) */
  text: string | null;
}

/** @wire GET /api/matches/{id} */
export interface SeatInfo {
  seat: number;
  kind: "human" | "bot";
  bot: string | null;
  level: unknown;
  options: { [option: string]: unknown };
  claimed: boolean;
  connected: boolean;
  bot_playing: boolean;
  /** why a bot plays this human seat: given up, turn timer run out, away ("" for none) */
  bot_reason: "" | "left" | "timer" | "away";
  /** the player gave the seat up ("leave"); a bot plays it for the rest of the game */
  left: boolean;
}

/** @wire ← seats, ← state, GET /api/matches/{id} */
export interface TurnTimer {
  seat: number;
  seconds: number;
  /** milliseconds left when the server made the message (count down from receipt) */
  left_ms: number;
}

/** @wire ← seats, GET /api/matches/{id} */
export interface RematchOffer {
  /** the new table */
  match_id: string;
  /** the seats that accepted so far */
  accepted: number[];
}

/** @wire ← rematch */
export interface RematchSeat {
  match_id: string;
  seat: number;
  token: string;
  play_url: string;
}

/** @wire ← seats */
export interface SeatsData {
  seats: SeatInfo[];
  /** "Spil igen": once a seat accepted (absent before) */
  rematch?: RematchOffer;
  /** only at a table with a turn timer (null: no turn is timed now) */
  turn?: TurnTimer | null;
}

/** @wire ← state */
export interface Outcome {
  winners: number[];
  ranking: number[][];
  reason: string;
  bonus: number;
  losers?: number[];
  extra?: OutcomeExtra;
}

/** @wire ← state */
export interface OutcomeExtra {
  /** gammel_jomfru ended by the turn limit: cards held per seat */
  cards?: number[];
  /** kugler: marbles home per team ("0+2") */
  marbles_home?: { [team: string]: number };
}

/** @wire GET /api/invites/{code} */
export interface InviteInfo {
  match_id: string;
  game: string;
  seat: number;
  used: boolean;
  status: MatchStatus;
  commitment: string | null;
}

/** @wire POST /api/invites/{code}/claim */
export interface ClaimRequest {
  player?: string;
}

/** @wire POST /api/invites/{code}/claim */
export interface ClaimResponse {
  match_id: string;
  seat: number;
  token: string;
  play_url: string;
  commitment: string;
}

/** @wire GET /api/matches/{id}/record */
export interface RecordResponse {
  record: GameRecord;
  events: RecordEvent[];
  outcome: Outcome | null;
  status: MatchStatus;
  clock: Clock | null;
}

/** @wire GET /api/matches/{id}/record */
export interface GameRecord {
  format: number;
  game: string;
  seats: number;
  /** null while it is a ranked daily attempt whose day is not over */
  deal: number | string | null;
  deal_algorithm: string;
  flags: { [flag: string]: boolean };
  actions: string[];
}

/** @wire GET /api/matches/{id}/record */
export interface RecordEvent extends GameEvent {
  time: string;
}

/** @wire GET /api/matches/{id}/replay?step=N */
export interface ReplayStep {
  step: number;
  total: number;
  seat: number | null;
  view: GameView;
  to_move: number | null;
}

/** @wire GET /api/players/{player_id}/stats */
export interface PlayerStats {
  player_id: string;
  games: number;
  finished: number;
  wins: number;
  bonus: number;
  by_game: { [game: string]: GameTotals };
  timeline: TimelinePoint[];
  bots: BotResults[];
}

/** @wire GET /api/players/{player_id}/stats */
export interface GameTotals {
  games: number;
  finished: number;
  wins: number;
  bonus: number;
  win_rate: number | null;
  first: string | null;
  last: string | null;
  current_streak: number;
  longest_streak: number;
  best_seconds: number | null;
  best_moves: number | null;
  /** solitaires: hints in the finished games (null for a table game) */
  hints: number | null;
  /** solitaires: wins without a hint */
  won_without_hints: number | null;
  /** solitaires: hints per finished game (null before the first) */
  hints_per_game: number | null;
  /** solitaires: hints per won game (null before the first win) */
  hints_per_win: number | null;
}

/** @wire GET /api/players/{player_id}/stats */
export interface TimelinePoint {
  time: string;
  match_id: string;
  game: string;
  won: boolean;
  bonus: number;
  cumulative_bonus: number;
  cumulative_wins: number;
  moves?: number;
  seconds?: number;
  /** solitaires: the hints the player was given in that game */
  hints?: number;
}

/** @wire GET /api/players/{player_id}/stats */
export interface BotResults {
  game: string;
  bot: string;
  /** the game's level the bot played; null for a bot chosen by name */
  level: number | null;
  games: number;
  player_wins: number;
  bot_wins: number;
}

/** @wire GET /api/players/{player_id}/best?game=posthus&deal=7&flags={...} */
export interface BestResult {
  game: string;
  deal: number | string;
  played: number;
  wins: number;
  best: BestGame | null;
}

/** @wire GET /api/players/{player_id}/best?game=posthus&deal=7&flags={...} */
export interface BestGame {
  match_id: string;
  won: boolean;
  bonus: number;
  finished: string;
  moves: number;
  seconds: number;
}

/** @wire PUT /api/me/name */
export interface NameRequest {
  name: string;
}

/**
 * Sign up (`name` may be null when the guest has one) and sign in.
 * @wire POST /api/account
 * @wire POST /api/session
 */
export interface SignRequest {
  name: string | null;
  password: string;
}

/** @wire PUT /api/account/password */
export interface PasswordChange {
  old_password: string;
  new_password: string;
}

// ----------------------------------------------------------------------- WebSocket

/** @wire WebSocket /ws/{match_id} */
export interface Frame<T extends string, D> {
  t: T;
  v: number;
  d: D;
}

/** One event of the match: an action, an undo or a redo (solitaires). */
export interface GameEvent {
  seq: number;
  kind: "act" | "undo" | "redo";
  seat: number;
  action: string;
  by?: "bot";
  move?: MoveFacts;
}

/** Moves made and time played of a solitaire (`state.clock`, the record's `clock`). */
export interface Clock {
  moves: number;
  seconds: number;
}

/** What an action does, for wording it (`state.moves`, an event's `move`). */
export type MoveFacts = KuglerMove | GammelJomfruMove | StudenterMove;

/** @wire ← state */
export interface StudenterMove {
  card: string | null;
  from: string;
  to: string;
}

/** @wire ← state */
export interface KuglerMove {
  card: string;
  discard: boolean;
  seat: number;
  steps: KuglerStep[];
}

/** @wire ← state */
export interface KuglerStep {
  seat: number;
  from: string;
  to: string;
  kind: "out" | "forward" | "back" | "jump";
  fields: number;
  home_field: number | null;
  path: string[];
  jumps: number[];
  effects: { seat: number; from: string; to: string }[];
}

/** @wire ← state */
export interface GammelJomfruMove {
  card: string | null;
  place: "centre" | "pile" | "seat" | "own" | null;
  pile: number | null;
  seat: number | null;
  onto: string | null;
  recycled: boolean;
  out: boolean;
}

/**
 * The key of a refusal's sentence and its placeholders (an `error`, an HTTP `detail`).
 * @wire ← error
 */
export interface RefusalMessage {
  key?: string;
  params?: { [name: string]: string };
  cards?: string[];
  ranks?: string[];
  /** the params whose value is a place of the game's board; the page words them */
  places?: string[];
}

/** @wire ← welcome */
export interface WelcomeData {
  seat: number | null;
  role: "player" | "spectator";
  match: MatchInfo;
}

/** @wire ← state */
export interface StateData {
  seat: number | null;
  view: GameView;
  legal: string[];
  to_move: number | null;
  outcome: Outcome | null;
  events: GameEvent[];
  can_undo?: boolean;
  can_redo?: boolean;
  clock?: Clock;
  moves?: { [action: string]: MoveFacts };
  status: MatchStatus;
  /** only at a table with a turn timer (null: no turn is timed now) */
  turn?: TurnTimer | null;
  /** solitaires: hints given in this game so far */
  hints?: number;
}

/** @wire ← error */
export interface ErrorData extends RefusalMessage {
  code: string;
  reason: string;
  ref?: string;
}

/** @wire ← hint */
export interface HintData {
  action: string | null;
  /** the position's verdict: "unwinnable" → no move is suggested (offer `rewind`) */
  verdict?: "winnable" | "unwinnable" | "unknown";
  /** hints given in this game so far, this one included */
  hints?: number;
}

/** @wire ← verdict */
export interface VerdictData {
  verdict: "winnable" | "unwinnable" | "unknown";
}

/** @wire ← choices */
export interface ChoicesData {
  target: string;
  actions: string[];
}

/** @wire ← chat, GET /api/matches/{id}/chat */
export interface ChatLine {
  id: number;
  seat: number;
  name: string | null;
  text: string;
  phrase: string | null;
  version: number;
  time: string;
}

/** @wire GET /api/matches/{id}/chat */
export interface ChatLog {
  messages: ChatLine[];
}

/** @wire → chat */
export interface ChatData {
  text?: string;
  phrase?: string;
}

/** @wire ← pong */
export type PongData = { [key: string]: unknown };

export type ServerMessage =
  | Frame<"welcome", WelcomeData>
  | Frame<"state", StateData>
  | Frame<"seats", SeatsData>
  | Frame<"error", ErrorData>
  | Frame<"hint", HintData>
  | Frame<"verdict", VerdictData>
  | Frame<"choices", ChoicesData>
  | Frame<"rematch", RematchSeat>
  | Frame<"pong", PongData>
  | Frame<"chat", ChatLine>;

/** @wire → hello */
export interface HelloData {
  /** the seat's token; or instead of it ... */
  token?: string;
  /** ... true: the seat of the socket's signed-in account ("Dine spil" on another device) */
  account?: boolean;
}

/** @wire → act */
export interface ActData {
  action: string;
}

/** @wire → click */
export interface ClickData {
  target: string;
}

/** The empty `d` of `sync`, `undo`, `redo`, `hint`, `verdict`, `leave`, `rematch` and `rewind`. */
export type Empty = { [key: string]: never };

export type ClientMessage =
  | Frame<"hello", HelloData>
  | Frame<"act", ActData>
  | Frame<"sync", Empty>
  | Frame<"undo", Empty>
  | Frame<"redo", Empty>
  | Frame<"click", ClickData>
  | Frame<"hint", Empty>
  | Frame<"verdict", Empty>
  | Frame<"leave", Empty>
  | Frame<"rematch", Empty>
  | Frame<"rewind", Empty>
  | Frame<"ping", { [key: string]: unknown }>
  | Frame<"chat", ChatData>;

/** Every client message type with the type of its `d`. */
export type ClientData = { [M in ClientMessage as M["t"]]: M["d"] };

/** @wire GET /api/matches/{id}/analysis */
export interface AnalysisPosition {
  verdict: "winnable" | "unwinnable" | "unknown";
  /** false: the verdict follows from the order within the round, not a solve of its own */
  solved: boolean;
}

/** @wire GET /api/matches/{id}/analysis */
export interface AnalysisMark {
  kind: "lost" | "resigned" | "redeal";
  round: number;
  /** 1-based: the move from position step − 1 */
  step: number;
  action: string;
  exact: boolean;
  last_winnable: number;
  first_unwinnable: number | null;
  /** the solver's winning line from position last_winnable */
  line: string[];
}

/** @wire GET /api/matches/{id}/analysis */
export interface SolitaireAnalysis {
  kind: "solitaire";
  version: number;
  budget: { seconds: number; per_position: number };
  positions: AnalysisPosition[];
  marks: AnalysisMark[];
  summary: { solves: number; rounds: number; unknown: number; start: string; lost: number; redeals: number };
}

/** @wire GET /api/matches/{id}/analysis */
export interface AnalysisChoice {
  step: number;
  seat: number;
  action: string;
  value: number;
  best: string;
  best_value: number;
  doubtful: boolean;
}

/** @wire GET /api/matches/{id}/analysis */
export interface TableAnalysis {
  kind: "table";
  version: number;
  /** units: "share" (of 1) or "points" (Kugler og Jokere's board value) */
  budget: { seconds: number; level: number; doubt: number; units: "share" | "points" };
  moves: AnalysisChoice[];
  seats: number[];
  summary: { choices: number; doubtful: { [seat: string]: number }; unknown: number };
}

/** @wire Lessons */
export interface LessonMove {
  actions: string[];
  action?: string;
  click?: string;
}

/** @wire Lessons */
export interface LessonStep {
  seat: number;
  /** catalogue keys (the learner's steps only) */
  do?: string;
  why?: string;
}

/** @wire Lessons */
export interface LessonEvent extends GameEvent {
  view: unknown;
  to_move: number | null;
}

/** @wire Lessons */
export interface LessonAnswer {
  ok: boolean;
  actions: string[];
  step: number | null;
  lesson_over: boolean;
  taught: number;
  expect: string | null;
  view: unknown;
  legal: string[];
  moves: { [action: string]: MoveFacts };
  to_move: number | null;
  outcome: Outcome | null;
  events: LessonEvent[];
  message?: RefusalMessage;
  choices?: string[];
}

/** @wire Lessons */
export interface LessonOutline {
  game: string;
  seats: number;
  intro: string;
  done: string;
  steps: LessonStep[];
}
