// The fair-deal box of the game page (docs/protocol.md, "Fair deals"): while a table
// game runs it shows the seal (the SHA-256 commitment published when the match was
// created); when the game is over it fetches the reveal and checks it here, in the
// browser, with SubtleCrypto.  Solitaires have no box: their deal number is public.

import { getMatch } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./ui.js";

/** @typedef {import("./protocol").MatchInfo} MatchInfo */
/** @typedef {import("./protocol").FairDeal} FairDeal */

/** SHA-256 of `text` as lowercase hex, or null where SubtleCrypto is missing (plain HTTP).
 * @param {string} text @returns {Promise<string | null>} */
export async function sha256Hex(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The check's details (the SHA-256 sentence and the seal), folded behind "Sådan
 * efterprøver du" so an ordinary reader sees only the plain sentence above it.
 * @param {...(Node | string)} children @returns {HTMLElement} */
export function howToCheck(...children) {
  return el("details", { class: "fair-detail" }, el("summary", { text: t("fair.check") }), el("p", {}, ...children));
}

/** @param {HTMLElement} box @param {string} matchId */
export function createFairBox(box, matchId) {
  let shown = "";
  let revealing = false;

  /** @param {FairDeal} fair */
  async function showReveal(fair) {
    const text = fair.text || `${fair.deal}:${fair.salt}`;
    const deal = text.split(":")[0];
    const hash = await sha256Hex(text);
    const key = hash === null ? "fair.revealed" : hash === fair.commitment ? "fair.verified" : "fair.mismatch";
    box.replaceChildren(
      el("h3", { text: t("fair.title") }),
      el("p", { class: key === "fair.mismatch" ? "fair-bad" : "fair-ok", "data-check": key.slice(5), text: t(key, { deal }) }),
      howToCheck(t("fair.how", { text }), " ", el("code", { text: fair.commitment })),
    );
  }

  /** @param {MatchInfo} match @param {boolean} over */
  async function update(match, over) {
    const fair = match.fair;
    if (!fair || match.seats.length === 1) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    if (fair.deal !== null && fair.deal !== undefined) {
      if (shown !== "reveal") {
        shown = "reveal";
        await showReveal(fair);
      }
      return;
    }
    if (over && !revealing) {
      revealing = true; // the welcome's match info was from before the end: ask again
      const fresh = await getMatch(matchId).catch(() => null);
      if (fresh?.fair?.deal !== null && fresh?.fair?.deal !== undefined) {
        shown = "reveal";
        await showReveal(fresh.fair);
        return;
      }
      revealing = false;
    }
    // Only before anything is shown: an ask at the end that fails late (after a
    // reconnect's welcome revealed the deal) must not seal a revealed deal again.
    if (!shown) {
      shown = "sealed";
      box.replaceChildren(
        el("h3", { text: t("fair.title") }),
        el("p", { "data-check": "sealed", text: t("fair.sealed") }),
        howToCheck(t("fair.seal"), " ", el("code", { text: fair.commitment, title: fair.algorithm })),
      );
    }
  }

  return { update };
}
