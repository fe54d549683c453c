"""Kugler og Jokere played by pointing (issue 27, section 2): a card, then a marble, then
— only where the marble has more than one way — the field or marble to go to.  The move
list follows what is picked, never shows two alike entries and names the marble of each
step; a joker jump and a split 7 are done on the board.  The board shows the direction
of travel, each seat's marks in its own colour, and a legend in readable type.  Danish
1366x768 and English 390x844 with touch."""

from __future__ import annotations

import re
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
from .test_kugler import choose, pick_deal, play_by_button, ways

pytestmark = pytest.mark.browser
MARBLE = {"da": "kugle", "en": "marble"}


def rgb(colour: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})", colour.lower())
    assert m, colour
    r, g, b = (int(x, 16) for x in m.groups())
    return r, g, b


def far_apart(colours: list[str]) -> bool:
    """Every two colours differ clearly (Euclidean RGB distance over 120)."""
    cs = [rgb(c) for c in colours]
    return all(sum((a - b) ** 2 for a, b in zip(cs[i], cs[j], strict=True)) ** 0.5 > 120
               for i in range(len(cs)) for j in range(i + 1, len(cs)))


def point(page: Any, loc: str, phone: bool, kind: str) -> None:
    """Tap (phone) or click a marble (kind "marble") or a target on the board."""
    hit = page.locator(f"#board .kg-hit[data-for='{loc}']")
    if phone and hit.count():
        hit.first.tap()
        return
    if kind == "marble":
        page.locator(f"#board .kg-marble.pickable[data-loc='{loc}']").first.click()
    else:
        page.locator(f"#board .target[data-place='{loc}'], "
                     f"#board .target[data-loc='{loc}']").first.click()


def listed(page: Any) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.locator("#board .kg-action").evaluate_all(
        "els => els.map(e => ({ action: e.dataset.action, text: e.textContent }))")
    return found


def assert_list_is_clean(page: Any, lang: str, prefix: str = "") -> list[dict[str, str]]:
    items = listed(page)
    texts = [i["text"] for i in items]
    assert len(texts) == len(set(texts)), f"two alike entries: {texts}"
    assert all(i["action"].startswith(prefix) for i in items), (prefix, items)
    for i in items:
        steps = len(i["action"].split(" ")) - 1
        assert i["text"].count(MARBLE[lang]) >= steps, f"a step without its marble: {i}"
    return items


def play_pointing(page: Any, action: str, lang: str, phone: bool, name: str) -> None:
    legal = state(page)["legal"]
    card, *steps = action.split(" ")
    page.locator(f".kg-hand .card[data-code='{card}']").first.click()
    more = page.locator("#board .kg-show-all")
    if more.count():
        # Point first: the long list waits behind one button; opened, it is clean too.
        assert listed(page) == [] and re.search(r"\d", more.inner_text()), more.inner_text()
        more.click()
    assert_list_is_clean(page, lang, card + " ")
    done: list[str] = []
    for i, st in enumerate(steps):
        src, dst = st.split("-")
        point(page, src, phone, "marble")
        if len(ways(legal, card, done, src)) > 1:
            # Only this marble's moves are listed, and its targets are lit on the board.
            assert_list_is_clean(page, lang, " ".join([card, *done, f"{src}-"]))
            assert page.locator("#board .target").count() == len(ways(legal, card, done, src))
            if phone and card[0] == "7":
                # The marble's few nearby targets are zoomed in on: 24 px tap areas each.
                assert page.locator("#board svg.kg-board.zoomed").count() == 1
                sizes = page.locator("#board .kg-hit").evaluate_all(
                    "els => els.map(e => e.getBoundingClientRect().width)")
                assert sizes and min(sizes) >= 24, sizes
            shot(page, f"{name}-{i}")
            point(page, dst, phone, "target")
        done.append(st)
        if i < len(steps) - 1:
            page.wait_for_selector(f"#board .kg-marble.preview[data-loc='{dst}']")
            prompt = page.locator(".kg-step").inner_text()
            assert MARBLE[lang] in prompt, prompt
            shot(page, f"{name}-preview")


def pointing_turn(page: Any, legal: list[str], done: dict[str, bool], lang: str,
                  phone: bool, name: str) -> str:
    """One turn on the way to a split 7 and a joker jump played by pointing (each marked
    in ``done`` once played); any other turn by its button.  The action played."""
    split = [a for a in legal if a[0] == "7" and len(a.split(" ")) == 3]
    # A joker move whose marble has a choice of marbles to jump to.
    joker = sorted((a for a in legal if a.startswith("JK ")),
                   key=lambda a: -len(ways(legal, "JK", [], a.split(" ")[1].split("-")[0])))
    if split and not done["split"]:
        action = split[0]
        play_pointing(page, action, lang, phone, f"{name}-split")
        done["split"] = True
    elif joker and not done["joker"] and \
            len(ways(legal, "JK", [], joker[0].split(" ")[1].split("-")[0])) > 1:
        action = joker[0]
        play_pointing(page, action, lang, phone, f"{name}-joker")
        done["joker"] = True
    else:
        keep = {c for c, d in (("7", done["split"]), ("JK", done["joker"])) if not d}
        action = choose(legal, keep)
        play_by_button(page, action)
    return action


def board_checks(page: Any, lang: str) -> None:
    starts = page.locator("#board .kg-field.start").evaluate_all(
        "els => els.map(e => e.getAttribute('fill'))")
    assert len(starts) == 4 and far_apart(starts), starts
    homes = page.locator("#board .kg-field.home").evaluate_all(
        "els => els.map(e => e.getAttribute('fill'))")
    assert far_apart(sorted(set(homes))) and len(set(homes)) == 4, homes
    assert page.locator("#board .kg-arrow").count() >= 4  # the direction of travel
    legend = page.locator(".kg-legend")
    size = float(legend.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 14, size
    text = legend.inner_text()
    assert ("kører" if lang == "da" else "travel") in text, text
    assert legend.locator("li svg").count() >= 4 + 5  # a swatch per seat and per mark


@pytest.mark.parametrize(("lang", "width", "height"), [("da", 1366, 768), ("en", 390, 844)],
                         ids=["da-1366", "en-390"])
def test_kugler_joker_and_split_seven_by_pointing(contexts: Any, server: str, lang: str,
                                                  width: int, height: int) -> None:
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
    board_checks(page, lang)
    name = f"kugler-pointing-{lang}-{width}"
    shot(page, f"{name}-board")
    done = {"split": False, "joker": False}
    for _ in range(200):
        wait_my_turn(page, timeout=60000)
        st = state(page)
        assert not st["outcome"], "the game ended before the split 7 and the joker"
        legal = st["legal"]
        v = version(page)
        action = pointing_turn(page, legal, done, lang, phone, name)
        wait_after(page, v, timeout=30000)
        assert event(page, v + 1)["action"] == action
        if all(done.values()):
            break
    assert all(done.values()), done
    log = page.locator("#log li").all_inner_texts()
    assert log
    shot(page, f"{name}-after")
