"""Kugler og Jokere in the browser: a 4-seat table with three bots where the human plays
by clicking a card, a marble and a destination on the SVG board — including a split 7
in two steps (with the preview in between) and a joker jump.  The deal is chosen so the
human's first hand holds a 7, a joker and a card that brings a marble out."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import (
    api,
    event,
    need_game,
    shot,
    state,
    version,
    wait_after,
    wait_my_turn,
    wait_ready,
)

pytestmark = pytest.mark.browser
OUT_RANKS = "AJQK"


def pick_deal() -> int:
    from spillebord import games

    game = games.load("kugler")
    for deal in range(500):
        hand = game.new(deal=deal, seats=4).view(0)["hand"]
        if "JK" in hand and any(c[0] == "7" for c in hand) and \
                sum(c[0] in OUT_RANKS for c in hand) >= 2:
            return deal
    raise AssertionError("no deal with a 7, a joker and two cards to come out")


def target(page: Any, place: str) -> Any:
    sel = f"#board .target[data-place='{place}'], #board .target[data-loc='{place}']"
    return page.locator(sel).first


def marble(page: Any, loc: str) -> Any:
    return page.locator(f"#board .kg-marble.pickable[data-loc='{loc}']").first


def ways(legal: list[str], card: str, done: list[str], src: str) -> set[str]:
    """The places the marble at ``src`` can go to as the next step after ``done``."""
    out = set()
    for a in legal:
        parts = a.split(" ")
        if parts[0] != card or len(parts) <= 1 + len(done) or parts[1:1 + len(done)] != done:
            continue
        f, t = parts[1 + len(done)].split("-")
        if f == src:
            out.add(t)
    return out


def play_on_board(page: Any, action: str) -> None:
    """Card, then for each step a marble and (where it has a choice) its destination —
    as a player clicks."""
    legal = state(page)["legal"]
    card, *steps = action.split(" ")
    page.locator(f".kg-hand .card[data-code='{card}']").first.click()
    for i, step in enumerate(steps):
        src, dst = step.split("-")
        marble(page, src).click()
        if len(ways(legal, card, steps[:i], src)) > 1:
            target(page, dst).click()
        if i < len(steps) - 1:
            # The split 7's preview: the first marble drawn at its new place, dimmed.
            page.wait_for_selector(f"#board .kg-marble.preview[data-loc='{dst}']")
            assert page.locator(".kg-step").inner_text().strip() != ""
            shot(page, "kugler-split-preview")


def show_all(page: Any) -> None:
    """Before a marble is picked a long list of moves waits behind one button."""
    more = page.locator("#board .kg-show-all")
    if more.count():
        more.click()


def play_by_button(page: Any, action: str) -> None:
    card = action.split(" ")[1] if action.startswith("discard ") else action.split(" ")[0]
    page.locator(f".kg-hand .card[data-code='{card}']").first.click()
    show_all(page)
    page.locator(f"#board [data-action='{action}']").click()


def choose(legal: list[str], keep: set[str]) -> str:
    def uses(a: str) -> str:
        return a.split(" ")[1] if a.startswith("discard ") else a.split(" ")[0]

    free = [a for a in legal if uses(a) not in keep and uses(a)[0] not in keep]
    for group in ([a for a in free if " s" in a and not a.startswith("discard")],
                  [a for a in free if not a.startswith("discard")],
                  free, legal):
        if group:
            return group[0]
    raise AssertionError("no legal action")


def test_kugler_split_seven_and_joker(contexts: Any, server: str) -> None:
    need_game("kugler")
    games = api(server, "/api/games")
    bot = next(g for g in games if g["key"] == "kugler")["bots"][0]
    deal = pick_deal()
    res = api(server, "/api/matches", {"game": "kugler", "deal": deal,
                                       "seats": ["me"] + [{"bot": bot, "level": None}] * 3})
    page = contexts(viewport={"width": 1200, "height": 1000}).new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    assert page.locator("#board svg .kg-field").count() == 4 * 18 + 4 * 5
    assert page.locator("#board .kg-marble").count() == 20
    done = {"split": False, "joker": False}
    for _ in range(200):
        wait_my_turn(page, timeout=60000)
        st = state(page)
        assert not st["outcome"], "the game ended before the split 7 and the joker"
        legal = st["legal"]
        split = [a for a in legal if a[0] == "7" and len(a.split(" ")) == 3]
        joker = [a for a in legal if a.startswith("JK ")]
        v = version(page)
        if split and not done["split"]:
            play_on_board(page, split[0])
            done["split"] = True
            action = split[0]
        elif joker and not done["joker"]:
            play_on_board(page, joker[0])
            done["joker"] = True
            action = joker[0]
        else:
            keep = set()
            if not done["split"]:
                keep.add("7")
            if not done["joker"]:
                keep.add("JK")
            action = choose(legal, keep)
            if action.startswith("discard") or len(action.split(" ")) > 2:
                play_by_button(page, action)
            else:
                play_on_board(page, action)
        wait_after(page, v, timeout=30000)
        assert event(page, v + 1)["action"] == action
        if done["split"] and done["joker"]:
            break
    assert done == {"split": True, "joker": True}, done
    # The last moves are listed and drawn.
    assert page.locator("#log li").count() >= 1
    assert page.locator("#board .kg-last").count() >= 1
    shot(page, "kugler")


def test_kugler_six_and_eight_seat_boards(contexts: Any, server: str) -> None:
    need_game("kugler")
    page = contexts(viewport={"width": 900, "height": 900}).new_page()
    bot = next(g for g in api(server, "/api/games") if g["key"] == "kugler")["bots"][0]
    for n in (6, 8):
        res = api(server, "/api/matches", {"game": "kugler",
                                           "seats": [{"bot": bot, "level": None}] * n})
        page.goto(f"{server}/play/{res['match_id']}")
        wait_ready(page)
        assert page.locator("#board svg .kg-field").count() == n * 18 + n * 5
        assert page.locator("#board .kg-marble").count() == n * 5
        assert page.locator("#role").inner_text().strip() != ""  # a spectator
        shot(page, f"kugler-{n}")


CODE = r"\b(?:t\d{1,3}|s\d|h\d\.\d)\b"  # field codes: t54, s0, h1.3
# Each tap area's width on screen and the distance to the nearest other one.
HIT_SIZES = """els => els.map((e, i) => {
  const r = e.getBoundingClientRect(); const c = [r.x + r.width / 2, r.y + r.height / 2];
  let gap = Infinity;
  els.forEach((o, j) => { if (j === i) return; const q = o.getBoundingClientRect();
    gap = Math.min(gap, Math.hypot(q.x + q.width / 2 - c[0], q.y + q.height / 2 - c[1])); });
  return { size: r.width, gap };
})"""


def screen_words(page: Any) -> str:
    """Every word the player can read or hear: the text and the aria-labels."""
    text: str = page.evaluate(
        "() => document.body.innerText + '\\n' + [...document.querySelectorAll('[aria-label]')]"
        ".map(e => e.getAttribute('aria-label')).join('\\n')")
    return text


@pytest.mark.parametrize(("lang", "width", "height"),
                         [("da", 1366, 768), ("en", 390, 844), ("en", 1366, 768),
                          ("da", 390, 844)])
def test_kugler_speaks_in_words_and_shows_the_way(contexts: Any, server: str, lang: str,
                                                  width: int, height: int) -> None:
    """No field code on screen (moves, the split prompt, the log, labels); the board marks
    each seat's start field, home entry and home; a chosen marble's ways are drawn as
    paths; the hand is in view without scrolling; on a touch phone every playable marble
    and field has a tap area of at least 24 px and plays by tapping."""
    import re

    need_game("kugler")
    bot = next(g for g in api(server, "/api/games") if g["key"] == "kugler")["bots"][0]
    res = api(server, "/api/matches", {"game": "kugler", "deal": pick_deal(),
                                       "seats": ["me"] + [{"bot": bot, "level": None}] * 3})
    phone = width < 500
    ctx = contexts(viewport={"width": width, "height": height}, has_touch=phone)
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    assert page.locator("#board .kg-entry").count() == 4
    starts = page.locator("#board .kg-field.start").evaluate_all(
        "els => els.map(e => e.getAttribute('fill'))")
    assert len(starts) == 4 and all(starts)
    pile = page.locator(".kg-hands .pill").last.inner_text()
    assert pile.startswith("Kortbunken" if lang == "da" else "Draw pile"), pile
    played = 0
    for _ in range(40):
        wait_my_turn(page, timeout=60000)
        st = state(page)
        if st["outcome"] or played >= 4:
            break
        page.evaluate("() => window.scrollTo(0, 0)")
        hand = page.locator(".kg-hand").bounding_box()
        assert hand and hand["y"] >= 0 and hand["y"] + hand["height"] <= height, hand
        moves = [a for a in st["legal"] if not a.startswith("discard")]
        assert set(st["moves"]) == set(st["legal"])  # the server's facts for each move
        v = version(page)
        if not moves:
            play_by_button(page, st["legal"][0])
        else:
            action = max(moves, key=len)  # a split 7 when there is one
            card, *steps = action.split(" ")
            page.locator(f".kg-hand .card[data-code='{card}']").first.click()
            show_all(page)
            buttons = page.locator(".kg-action").all_inner_texts()
            assert buttons and not any(re.search(CODE, b) for b in buttons), buttons
            for i, step_text in enumerate(steps):
                src, dst = step_text.split("-")
                if len(ways(st["legal"], card, steps[:i], src)) == 1:
                    # One way only: picking the marble makes the step.
                    if phone:
                        page.locator(f"#board .kg-hit[data-for='{src}']").first.tap()
                    else:
                        marble(page, src).click()
                    continue
                if phone:
                    for r in page.locator("#board .kg-hit").evaluate_all(HIT_SIZES):
                        assert r["size"] >= min(24, r["gap"] - 0.5), r
                    page.locator(f"#board .kg-hit[data-for='{src}']").first.tap()
                else:
                    marble(page, src).click()
                # The marble's possible ways, one path each, ending on the targets.
                page.wait_for_selector("#board .kg-path")
                # At least one path to each target (a highlighted move in the list adds
                # its own paths, class "hot", on top: seen on the phone after a tap).
                ends = page.locator("#board .kg-path").count()
                targets = page.locator("#board .target").count()
                assert targets > 0 and ends >= targets, (ends, targets)
                words = screen_words(page)
                assert not re.findall(CODE, words), re.findall(CODE, words)
                if phone:
                    # Each field to go to: 24 px, or half the way to the next target.
                    for r in page.locator("#board .kg-hit").evaluate_all(HIT_SIZES):
                        assert r["size"] >= min(24, r["gap"] - 0.5), r
                    page.locator(f"#board .kg-hit[data-for='{dst}']").first.tap()
                else:
                    target(page, dst).click()
                if i < len(steps) - 1:
                    prompt = page.locator(".kg-step").inner_text()
                    assert prompt and not re.search(CODE, prompt), prompt
        wait_after(page, v, timeout=30000)
        played += 1
    assert played >= 2
    log = page.locator("#log li").all_inner_texts()
    assert log and not any(re.search(CODE, line) for line in log), log
    card_word = ("klør", "ruder", "hjerter", "spar", "joker") if lang == "da" else \
        ("clubs", "diamonds", "hearts", "spades", "joker")
    assert all(any(w in line for w in card_word) for line in log), log
    shot(page, f"kugler-words-{lang}-{width}")
