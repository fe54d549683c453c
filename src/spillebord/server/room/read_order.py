"""Reads of something the database holds, run off the event loop, that may end in any
order (docs/web.md, "Answers that come out of order", is the pages' side of the same
rule): **the newest read shown wins, and an older one that ends later is dropped.**

Each read begun takes the next mark (``begin``); a write made here takes one too
(``written``), so a read begun before it — which may not see it — is older.  ``take``
says whether a read that ended may be applied.  Used by a room's seats in shared mode
(scale/replica.py) and by a finished table's "Spil igen" offer (tables/rematch.py).
"""

from __future__ import annotations


class ReadOrder:
    """The marks of one thing's reads and writes (one per room and thing)."""

    def __init__(self) -> None:
        self._marks = 0
        self._shown = 0  # the mark of what is shown: a read applied, or a write here
        self._newest_read = 0

    def begin(self) -> int:
        """A read begins: its mark, for ``take``."""
        self._marks += 1
        self._newest_read = self._marks
        return self._marks

    def written(self) -> None:
        """It was written here (after the database): any read begun before is older."""
        self._marks += 1
        self._shown = self._marks

    def take(self, mark: int) -> bool:
        """Whether the read ``mark``, ended now, may be shown (nothing newer was); if so,
        it is the one shown from now on."""
        if mark < self._shown:
            return False
        self._shown = mark
        return True

    def overtaken(self, mark: int) -> bool:
        """Whether the read ``mark``, dropped by ``take``, was overtaken only by a write
        here, with no newer read begun (one that would see that write and the rest): a
        change made elsewhere before the write is then seen by no read yet."""
        return self._newest_read == mark
