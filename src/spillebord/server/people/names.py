"""Display names: one namespace for guests and accounts (docs/server.md, "Names").

A name is read in Unicode NFKC form with its ends trimmed and inner runs of spaces
made one; it then has 3–20 characters, each a letter, a digit, a space, ``-`` or
``_``, at least one of them visible (no default-ignorable characters such as the
Hangul fillers), all of one script (Latin, Cyrillic, Greek, …; digits go with any).
Two names are the same when their ``key`` is equal: the casefolded name's confusable
**skeleton** (Unicode UTS #39, from the confusables data of ``confusable_homoglyphs``:
each character replaced by the prototype it looks like), so "Anna", "ANNA",
"ａｎｎａ" and "Аnna" (Cyrillic А) are one name.  Reserved names — the site's staff
words, the bots' keys, and every bot's display name and seat label in the page's
Danish and English catalogues ("Fremsyn", "Tree search", "Computer 2", "Spiller 2") —
are refused, also when written with look-alikes, spaces, dashes or underscores.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from pathlib import Path

import regex
from confusable_homoglyphs import categories, confusables

from spillebord import bots, games
from spillebord.server.errors import Refusal

CATALOGUES = Path(__file__).resolve().parents[2] / "web" / "static" / "i18n"
INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Zl}\p{Zp}]")

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


def _latin_or_common(text: str) -> bool:
    return all(categories.alias(ch) in ("LATIN", "COMMON", "INHERITED") for ch in text
               if not INVISIBLE.match(ch))


def _target(ch: str) -> str | None:
    """The Latin (or common) look-alike the confusables data gives for ``ch``."""
    for entry in confusables.confusables_data.get(ch, ()):
        target = "".join(c for c in entry["c"] if not INVISIBLE.match(c))
        if target and target != ch and _latin_or_common(target):
            return target
    return None


@functools.lru_cache(maxsize=4096)
def _prototype(ch: str) -> str:
    """``ch``'s prototype: its look-alike, followed while it is one character (a cycle
    of mutual look-alikes ends at its smallest member, so each class has one form)."""
    seen = [ch]
    while True:
        t = _target(seen[-1])
        if t is None:
            return seen[-1]
        if len(t) != 1:
            return t
        if t in seen:
            return min(seen[seen.index(t):])
        seen.append(t)


def _mapped(text: str) -> str:
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(_prototype(ch) for ch in nfd))


def skeleton(text: str) -> str:
    """The case-insensitive confusable skeleton: a function of the casefolded text
    (so "Anna" and "ANNA" are one), UTS #39's skeleton of it in capitals (a capital I
    looks like a small l) and then of that in small letters ("rn" looks like "m")."""
    upper = text.casefold().upper()
    return _mapped(_mapped(upper).casefold()).casefold()


def _compact(text: str) -> str:
    return "".join(ch for ch in skeleton(text) if ch not in " -_")


@functools.lru_cache(maxsize=1)
def _catalogue_words() -> tuple[frozenset[str], tuple[re.Pattern[str], ...]]:
    """The bots' display names and the seat labels of both catalogues: exact words, and
    patterns for labels with a number (``"Computer {n}"``)."""
    words: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for path in sorted(CATALOGUES.glob("*.json")):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            if not key.startswith(("bot.", "seat.")) or "{" in text.replace("{n}", ""):
                continue
            if "{n}" in text:
                parts = [re.escape(_compact(p)) for p in text.split("{n}")]
                number = "(?:" + "|".join(re.escape(_compact(d)) for d in "0123456789") + ")*"
                patterns.append(re.compile(number.join(parts) + "$"))
            else:
                words.add(_compact(text))
    return frozenset(words), tuple(patterns)


@functools.lru_cache(maxsize=1)
def _bot_words() -> frozenset[str]:
    found: set[str] = set()
    for key in list(games.keys()):
        found.update(_compact(name) for name in bots.names(key))
    return frozenset(found)


def reserved(name: str) -> bool:
    compact = _compact(name)
    words, patterns = _catalogue_words()
    return (compact in _reserved_words() or compact in _bot_words() or compact in words
            or compact.startswith(_reserved_prefixes())
            or any(p.match(compact) for p in patterns))


@functools.lru_cache(maxsize=1)
def _reserved_words() -> frozenset[str]:
    return frozenset(_compact(w) for w in RESERVED)


@functools.lru_cache(maxsize=1)
def _reserved_prefixes() -> tuple[str, ...]:
    return tuple(_compact(w) for w in RESERVED_PREFIXES)


def normalise(raw: str) -> str:
    """The name as stored: NFKC, ends trimmed, inner space runs made one."""
    return " ".join(part for part in unicodedata.normalize("NFKC", raw).split(" ") if part)


def name_key(name: str) -> str:
    """The uniqueness key: two names are the same when their keys are equal (the
    skeleton, so look-alikes are one name)."""
    return skeleton(normalise(name))


def legacy_key(name: str) -> str:
    """The key names had before skeletons (casefolded): accounts named then are still
    found at sign-in by it."""
    return normalise(name).casefold()


def _allowed(ch: str) -> bool:
    return ch in " -_" or unicodedata.category(ch)[0] == "L" or unicodedata.category(ch) == "Nd"


def check_name(raw: str) -> str:
    """The normalised name, or a ``Refusal`` saying which rule it breaks."""
    name = normalise(raw)
    if len(name) < MIN_LEN or len(name) > MAX_LEN:
        raise Refusal("bad_name", f"a name has {MIN_LEN}–{MAX_LEN} characters",
                      key="server.name_length", params={"min": MIN_LEN, "max": MAX_LEN})
    bad = next((ch for ch in name if not _allowed(ch) or INVISIBLE.match(ch)), None)
    if bad is not None:
        raise Refusal("bad_name", "a name has only letters, digits, spaces, - and _",
                      key="server.name_characters")
    if confusables.is_mixed_script(name, allowed_aliases=["COMMON", "INHERITED"]):
        raise Refusal("bad_name", "a name is written in one script (not, say, Latin and "
                                  "Cyrillic letters mixed)", key="server.name_script")
    if len(name_key(name)) > 80:  # the stored key's width (look-alikes may be longer)
        raise Refusal("bad_name", "a name has only letters, digits, spaces, - and _",
                      key="server.name_characters")
    if reserved(name):
        raise Refusal("reserved_name", f"the name {name!r} is reserved",
                      key="server.name_reserved")
    return name
