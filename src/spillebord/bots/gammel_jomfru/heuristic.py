"""The heuristic Gammel Jomfru bot: a fixed, documented placement policy.

Most actions are forced (``turn``, ``keep``, an ace's ``centre``, a single fitting
place); the bot only decides when the turned card fits several places.  Then it ranks
the places by, in order:

1. **Keep the turn going.**  The chance that the next card it will turn fits somewhere
   after this placement (then it plays again instead of keeping a card).  The next card
   is known when its face-down pile is its turned-over face-up pile (rule 4 — everyone
   saw those cards, and ``obs.sample()`` keeps such piles as they are) or when the
   face-down pile is empty (the bottom face-up card comes next); otherwise it is any of
   the unseen cards (every card that has been face down since the deal), equally likely.
   An ace always fits (it starts a centre pile).
2. **Load a player rather than the centre.**  A card on another player's pile is one
   more card for them; a card in the centre costs nobody anything.
3. **Load the player holding the most cards** — the likeliest gammel jomfru, kept there.
4. The lowest action text (a deterministic tie-break).

Measured (docs/benchmarks/gammel_jomfru.md): step 1 is worth most; "centre first" is
worse than random placement.  The bot reads only the observation: the view, the legal
actions and one ``obs.sample()`` (whose recycled piles and pool of unseen cards are the
same in every sample of the information set).
"""

from __future__ import annotations

from spillebord.bots import Bot, Observation
from spillebord.games.gammel_jomfru.rules import CENTRE_NEXT, PLAYER_FITS
from spillebord.games.gammel_jomfru.state import JomfruState


def next_card_candidates(sample: JomfruState, seat: int) -> list[str]:
    """The cards ``seat`` may turn next, each equally likely (known → one card)."""
    if sample.down[seat]:
        if sample.recycled[seat]:
            return [sample.down[seat][0]]
        return sorted(c for s in range(sample.seats) if not sample.recycled[s]
                      for c in sample.down[s])
    if sample.up[seat]:
        return [sample.up[seat][0]]
    return []


def fit_chance(sample: JomfruState, action: str, candidates: list[str]) -> float:
    """The share of ``candidates`` that fit somewhere after ``action`` (rule 2)."""
    if not candidates:
        return 0.0
    seat, card = sample.turn, sample.turned
    assert card is not None
    ctops = [p[-1] for p in sample.centre]
    ptops = {p: sample.up[p][-1] for p in range(sample.seats) if p != seat and sample.up[p]}
    if action == "centre":
        ctops.append(card)
    elif action[0] == "c":
        ctops[int(action[1:]) - 1] = card
    else:
        ptops[int(action[1:])] = card
    centre_wants = {CENTRE_NEXT[t] for t in ctops}
    tops = set(ptops.values())
    hits = sum(1 for x in candidates
               if x[0] == "A" or x in centre_wants or not tops.isdisjoint(PLAYER_FITS[x]))
    return hits / len(candidates)


def rank_places(obs: Observation, legal: list[str]) -> list[tuple[float, bool, int, str]]:
    """Each place with its sort key (higher is better), best first."""
    sample = obs.sample()
    assert isinstance(sample, JomfruState)
    held = obs.view()["held"]
    candidates = next_card_candidates(sample, obs.seat)
    keyed: list[tuple[float, bool, int, str]] = []
    for a in legal:
        load = held[int(a[1:])] if a[0] == "p" else -1
        keyed.append((fit_chance(sample, a, candidates), a[0] == "p", load, a))
    keyed.sort(key=lambda k: (-k[0], not k[1], -k[2], k[3]))
    return keyed


class HeuristicBot(Bot):
    """Keep the turn going, then load the player holding the most cards."""

    name = "heuristic"

    def decide(self, obs: Observation) -> str:
        return rank_places(obs, obs.legal_as(str))[0][3]
