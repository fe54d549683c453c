// Each game's `view` (state.view(seat) on the server: src/spillebord/games/<key>/),
// as the renderers read it.  For the type check only.
import type { Outcome } from "../protocol";

/** A card code: rank and suit ("8H", "TS"), or "JK" for a joker. */
export type Card = string;

export interface StudenterView {
  base: string;
  bonus: number;
  foundations: Card[][];
  helpers: (Card | null)[];
  left_used: boolean;
  outcome: Outcome | null;
  pass: number;
  row: Card[];
  stock_size: number;
  to_move: number | null;
  turn_overs_left: number;
  waste: Card[];
}

export interface PosthusView {
  bonus: number;
  flags: { [flag: string]: boolean };
  gaps: string[];
  grid: (Card | null)[][];
  outcome: Outcome | null;
  redeals_left: number;
  round: number;
  run_places: string[];
  runs: number[];
}

export interface GammelJomfruView {
  centre: Card[][];
  down_counts: number[];
  flags: { [flag: string]: boolean };
  game: string;
  held: number[];
  out: number[];
  recycled: number[];
  seat: number | null;
  seats: number;
  to_move: number | null;
  turn: number;
  turn_limit: number;
  turned: Card | null;
  turns: number;
  up: Card[][];
  outcome?: Outcome | null;
}

export interface KuglerView {
  discard_size: number;
  discard_top: Card | null;
  draw_size: number;
  game: string;
  /** the viewer's hand (empty for a spectator) */
  hand: Card[];
  hand_sizes: { [seat: string]: number };
  home: { [seat: string]: number };
  last: { action: string; seat: number }[];
  marbles: { [seat: string]: string[] };
  moves_marbles_of: number | null;
  outcome: Outcome | null;
  partners: { [seat: string]: number };
  reshuffles: number;
  seat: number | null;
  seats: number;
  to_move: number | null;
  turn_limit: number;
  turns: number;
}
