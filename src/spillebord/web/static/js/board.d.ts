// The contract between the pages (play.js, replay.js) and a game renderer
// (js/games/<key>.js exports createRenderer(root, ctx)), for the type check only.
import type { GameEvent, MoveFacts, Outcome } from "./protocol";
import type { Choice } from "./ui.js";

/** What a renderer draws: one `state` message as the page hands it over. */
export interface RenderState<V = unknown> {
  view: V;
  /** the seat's legal action texts (empty when it is not this seat's turn) */
  legal: string[];
  /** the viewer's seat; null for a spectator or a replay */
  seat: number | null;
  toMove: number | null;
  /** the events since the previous state (for animations and announcements) */
  events: GameEvent[];
  outcome: Outcome | null;
  /** the facts of each legal action (kugler, gammel_jomfru) */
  moves?: { [action: string]: MoveFacts };
}

/** What a renderer may ask of the page. */
export interface RendererCtx {
  act(action: string): void;
  click(target: string): void;
  /** a short line in the status area, read out by screen readers */
  say(text: string): void;
  choose(title: string, options: Choice[]): Promise<string | null>;
  /** an action text in words */
  describe(action: string): string;
  seatName(seat: number): string;
  seatShort(seat: number): string;
  readonly seat: number | null;
  /** true during a lesson's steps (learn.js): the renderer plays nothing by itself */
  readonly lesson?: boolean;
}

export interface Renderer<V = unknown> {
  update(state: RenderState<V>): void;
  /** light the hinted action */
  showHint?(action: string): void;
  /** an action text in words, when the game words its own actions */
  describe?(action: string): string;
  /** an `act` event as a whole log line from its move facts (who, which card, where);
   * null: the page's "<seat>: <described action>" */
  sentence?(ev: GameEvent): string | null;
  /** the status line on the seat's turn when the game has more to say than "your turn" */
  status?(): string | null;
  /** a place of the board (the notation's "c2", "t14", "h3") in words, for refusals */
  placeName?(place: string): string;
  destroy?(): void;
}

export type CreateRenderer<V = unknown> = (root: HTMLElement, ctx: RendererCtx) => Renderer<V>;
