"""No refusal sentence puts a notation code on the screen (issue 14).

A refusal's params are written in the notation (``c2``, ``t14``, ``h0.3``, ``f3``,
``8H``); the page words those marked as ``cards``, ``ranks`` or ``places`` (ui.js
``reasonText``; places by the game view's own words, docs/protocol.md "error").  Here:

* every raise site in the source classifies every param it sends: marked as a card,
  rank or place, or a plain number/seat, or an echo of typed notation (``text``,
  ``action``, ``choices``, ``code``: only the CLI/API/bots type actions, the page sends
  listed legal actions);
* no catalogue sentence holds a code of its own, except those that teach the typed
  notation;
* real refusals, raised by the engines from many positions, rendered from both
  catalogues as the page renders them (marked params replaced by words), hold no code.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from tests.reasons import LANGS, ROOT, catalogue

from spillebord import games
from spillebord.core.errors import IllegalActionError

SRC = ROOT / "src" / "spillebord"
# Params that are numbers, seat numbers or counts: shown as written, never a code.
PLAIN = {"seat", "seats", "pile", "total", "steps", "redeals", "max", "min", "count"}
# Params that echo an action typed in the notation (never from the page).
TYPED = {"text", "action", "choices", "code"}
# Sentences that teach the typed notation and so show codes on purpose; the page never
# gets them (it sends only the legal actions the server listed).
TEACHING = {
    "gammel_jomfru.not_action", "kugler.bad_discard", "kugler.empty_action",
    "kugler.no_card", "kugler.not_step", "kugler.which_marble", "posthus.not_action",
    "studenter.not_action",
}
# Notation codes of every game: kugler fields and start areas, posthus places,
# studenter piles, gammel jomfru piles, card codes.
CODE = re.compile(r"\b(?:[ts]\d{1,3}|h\d\.\d|[a-h][1-8]|f[1-8]|[cp]\d|"
                  r"(?:[2-9TJQKA]|10)[CDHS]|JK)\b")
MARKED = ("cards", "ranks", "places")


def raise_sites() -> Iterator[tuple[str, str, set[str], dict[str, set[str]]]]:
    """(file, key, params, {"cards"/"ranks"/"places": names}) of every call that
    spells ``key="..."`` in the source."""
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            key = kw.get("key")
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            params = {n for n in kw if n not in ("key", "params", "status", *MARKED)}
            given = kw.get("params")
            if isinstance(given, ast.Dict):
                params |= {k.value for k in given.keys if isinstance(k, ast.Constant)}
            marked = {m: {e.value for e in getattr(kw.get(m), "elts", [])
                          if isinstance(e, ast.Constant)} for m in MARKED}
            yield str(path.relative_to(ROOT)), key.value, params, marked


@pytest.mark.slow
def test_the_source_scan_finds_the_place_params() -> None:
    sites = list(raise_sites())
    assert len(sites) > 100
    assert any(k == "kugler.moves_to" and m["places"] == {"place", "to", "wrong"}
               for _, k, _, m in sites)


@pytest.mark.parametrize(("where", "key", "params", "marked"), list(raise_sites()),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_every_param_is_marked_or_plain(where: str, key: str, params: set[str],
                                        marked: dict[str, set[str]]) -> None:
    loose = params - set().union(*marked.values()) - PLAIN - TYPED
    # The server's own sentences (names, chat) carry no board codes.
    if key.startswith("server.") and key != "server.click_nothing":
        return
    assert not loose, f"{where} {key}: {sorted(loose)} are neither card, rank nor place"
    if key in TEACHING:
        return
    for name in params & {"place", "to", "wrong", "last", "start"}:
        assert name in marked["places"], f"{where} {key}: {name} is a place, not marked"


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_holds_a_code_of_its_own(lang: str) -> None:
    bad = {k: v for k, v in catalogue(lang).items()
           if k.startswith("refused.") and k[len("refused."):] not in TEACHING
           and CODE.search(re.sub(r"\{[^{}]*\}", "", v))}
    assert not bad, bad


CATALOGUES = {lang: catalogue(lang) for lang in LANGS}


def rendered(exc: IllegalActionError, lang: str) -> str:
    """The sentence as the page fills it, marked params in words (here stand-ins)."""
    params = dict(exc.params)
    for kind, names in (("card", exc.cards), ("rank", exc.ranks), ("place", exc.places)):
        for name in names:
            params[name] = f"<{kind}>"
    text = CATALOGUES[lang][f"refused.{exc.key}"]
    text = re.sub(r"\{(\w+), plural,[^{}]*(?:\{[^{}]*\}[^{}]*)*\}",
                  lambda m: params.get(m.group(1), ""), text)
    return re.sub(r"\{(\w+)\}", lambda m: params[m.group(1)], text)


def tries(key: str, state: Any) -> list[str]:
    """Actions to try in ``state``: the legal ones with other places and cards."""
    legal = [str(a) for a in state.legal_actions()]
    if key == "posthus":
        cards = {a.split()[0] for a in legal if " " in a} | {"7H", "KS", "9C"}
        places = [f"{c}{r}" for c in "abcdefgh" for r in "1234"]
        return [f"{c} {p}" for c in cards for p in places]
    if key == "studenter":
        ends = ["row", "waste", *(f"h{i}" for i in range(1, 7)),
                *(f"f{i}" for i in range(1, 9))]
        return [f"{a}>{b}" for a in ends for b in ends if a != b]
    if key == "kugler":
        fields = [f"t{i}" for i in range(0, 72, 3)] + [f"h{s}.{k}" for s in range(4)
                                                      for k in (1, 3, 5)]
        fields += [f"s{s}" for s in range(4)]
        out = []
        for a in legal:
            parts = a.split()
            if len(parts) != 2 or "-" not in parts[1]:
                continue
            src, _ = parts[1].split("-")
            out += [f"{parts[0]} {src}-{f}" for f in fields]
            out += [f"{parts[0]} {f}-{src}" for f in fields]
        hand = state.hands[state.turn]
        out += [f"{c} {f}-t{(int(f[1:]) + 5) % 72}" for c in hand for f in fields
                if f[0] == "t"]
        return out
    return legal


def refusals() -> Iterator[IllegalActionError]:
    for key in list(games.keys()):  # tries() knows the places of the games naming them
        game = games.load(key)
        for deal in range(3):
            rng = random.Random(deal)
            state = game.new(deal)
            for _ in range(12):
                if state.is_over:
                    break
                for text in tries(key, state):
                    try:
                        state.apply(text)
                    except IllegalActionError as exc:
                        yield exc
                legal = state.legal_actions()
                state = state.apply_legal(rng.choice(legal))


def test_no_rendered_refusal_shows_a_code() -> None:
    seen: set[str] = set()
    done: set[tuple[str, str]] = set()
    for exc in refusals():
        assert exc.key, str(exc)
        if exc.key in TEACHING or set(exc.params) & TYPED:
            continue
        seen.add(exc.key)
        if (exc.key, repr(sorted(exc.params.items()))) in done:
            continue
        done.add((exc.key, repr(sorted(exc.params.items()))))
        for lang in LANGS:
            text = rendered(exc, lang)
            assert not CODE.search(text), (lang, exc.key, exc.params, text)
    # The test reaches the place-carrying refusals of every game.
    for key in ("posthus.not_gap", "posthus.no_fit.card_card", "posthus.right_of_king",
                "studenter.foundation_needs", "studenter.foundation_base",
                "kugler.moves_to", "kugler.eight_to", "kugler.no_own_marble",
                "kugler.own_marble_on", "kugler.wrong_start", "kugler.start_field",
                "kugler.must_enter_home", "kugler.not_your_home"):
        assert key in seen, (key, sorted(seen))
