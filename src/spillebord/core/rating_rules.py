"""What a finished table game counts for (issue 28; docs/server.md, "Ratings";
docs/security.md, "The cheating player: ratings") — pure rules the rater applies:

- **Rated at all** (``unrated_because``): every seat a human whose player had an account
  with a name *before the game's first move* (signed in from its start), no player in two
  seats; otherwise nobody's rating moves.  The reasons, as codes the pages word:
  ``solitaire``, ``bots``, ``guests``, ``same_player``.
- **Leaving loses** (``left_ranking``): a human seat a bot played — any move made for it
  by a bot (``by_bot``: takeover of an absent player, the turn timer, "Forlad bordet") —
  is rated as a loss for its account: ranked last, below every seat no bot played
  (leavers tie with each other), whatever the game's own result.  Only the leavers'
  ratings move: no other account gains or loses anything from that game (a partner in
  Kugler keeps its rating too).
- **Pair limit** (``PAIR_LIMIT``): when two accounts of the game already had that many
  games rated together in the 24 hours before it, the game moves nobody's rating (a
  leaver still loses) — farming with a second account gains at most three games a day.
- **Provisional** (``established``): a rating is provisional until ``ESTABLISHED_GAMES``
  rated games against ``ESTABLISHED_OTHERS`` distinct *opponents* — accounts that sat on
  another team of a rated game the player's rating moved in (``opponent``: a Kugler
  partner is no opponent); leaderboards list established ratings only (a provisional
  player sees their own, marked).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

PAIR_LIMIT = 3
PAIR_WINDOW = timedelta(hours=24)
ESTABLISHED_GAMES = 10
ESTABLISHED_OTHERS = 3


def unrated_because(kinds: Sequence[str], accounts: Sequence[bool],
                    players: Sequence[str | None]) -> str | None:
    """Why a table with these seats is not rated (None: it is).  ``kinds`` per seat
    (``human``/``bot``), ``accounts`` whether the seat's player had a named account from
    the game's start, ``players`` the seat's player id (None: not taken)."""
    if len(kinds) < 2:
        return "solitaire"
    if any(k != "human" for k in kinds):
        return "bots"
    if not all(accounts) or any(p is None for p in players):
        return "guests"
    if len(set(players)) != len(players):
        return "same_player"
    return None


def left_ranking(ranking: Sequence[Sequence[int]], left: set[int],
                 seats: int) -> list[list[int]]:
    """The game's ranking with every seat in ``left`` moved to a shared last place (seats
    missing from ``ranking`` count as last too)."""
    out = [[s for s in group if s not in left] for group in ranking]
    out = [g for g in out if g]
    placed = {s for g in out for s in g}
    rest = [s for s in range(seats) if s not in placed and s not in left]
    if rest:
        out.append(rest)
    if left:
        out.append(sorted(left))
    return out


def opponent(teams: Sequence[Sequence[int]], seat: int, other: int) -> bool:
    """Whether ``other`` played against ``seat`` at a table of these teams (the game's
    ``teams()``: a partner is not an opponent; in a game without teams every other
    seat is one)."""
    return other != seat and not any(seat in team and other in team for team in teams)


def established(games: int, others: int) -> bool:
    """``others``: distinct opponents (``opponent``), not every other account."""
    return games >= ESTABLISHED_GAMES and others >= ESTABLISHED_OTHERS
