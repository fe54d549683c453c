"""Display names: one namespace for guests and accounts (docs/server.md, "Names").

A name is read in Unicode NFKC form with its ends trimmed and inner runs of spaces
made one; it then has 3–20 characters, each a letter, a digit, a space, ``-`` or
``_``.  Two names are the same when their ``key`` (the casefolded form) is equal, so
"Anna", "ANNA" and "ａｎｎａ" are one name.  Reserved names (the site's staff words and
the bots' names, in Danish and English) are refused, also when written with spaces,
dashes or underscores between the letters.
"""

from __future__ import annotations

import functools
import unicodedata

from spillebord import bots, games
from spillebord.server.errors import Refusal

MIN_LEN = 3
MAX_LEN = 20
# Compared after casefolding and removing spaces, - and _ ("A-d m_i n" is "admin").
RESERVED = frozenset({
    "admin", "administrator", "administrador", "moderator", "mod", "staff", "support",
    "system", "server", "root", "spillebord", "computer", "computeren", "bot", "bots",
    "robot", "robotten", "guest", "gæst", "gæsten", "anonymous", "anonym", "nobody",
    "ingen", "null", "none", "undefined", "you", "dig", "mig", "me", "spectator",
    "tilskuer", "random", "tilfældig", "heuristic", "regelbaseret", "search", "søgende",
})
RESERVED_PREFIXES = ("admin", "spillebord", "moderator")


@functools.lru_cache(maxsize=1)
def _bot_words() -> frozenset[str]:
    found: set[str] = set()
    for key in list(games.keys()):
        found.update(name.casefold() for name in bots.names(key))
    return frozenset(found)


def normalise(raw: str) -> str:
    """The name as stored: NFKC, ends trimmed, inner space runs made one."""
    return " ".join(part for part in unicodedata.normalize("NFKC", raw).split(" ") if part)


def name_key(name: str) -> str:
    """The uniqueness key: two names are the same when their keys are equal."""
    return normalise(name).casefold()


def _allowed(ch: str) -> bool:
    return ch in " -_" or unicodedata.category(ch)[0] == "L" or unicodedata.category(ch) == "Nd"


def check_name(raw: str) -> str:
    """The normalised name, or a ``Refusal`` saying which rule it breaks."""
    name = normalise(raw)
    if len(name) < MIN_LEN or len(name) > MAX_LEN:
        raise Refusal("bad_name", f"a name has {MIN_LEN}–{MAX_LEN} characters",
                      key="server.name_length", params={"min": MIN_LEN, "max": MAX_LEN})
    bad = next((ch for ch in name if not _allowed(ch)), None)
    if bad is not None:
        raise Refusal("bad_name", "a name has only letters, digits, spaces, - and _",
                      key="server.name_characters")
    compact = "".join(ch for ch in name.casefold() if ch not in " -_")
    if (compact in RESERVED or compact in _bot_words()
            or compact.startswith(RESERVED_PREFIXES)):
        raise Refusal("reserved_name", f"the name {name!r} is reserved",
                      key="server.name_reserved")
    return name
