"""The lesson pages /learn/{game} (issue #33), played in Chromium as a newcomer would:
every lesson to its end, in Danish at 1366×768 and in English at 390×844, with one
wrong move on the way explained in the page's words (never a code); then the position
plays on.  axe-core finds no serious or critical violation on the page, the start page
offers the lessons to a first-time player and the rules dialog links to its lesson."""

from __future__ import annotations

import re
from typing import Any

import pytest

from spillebord import learn

from .helpers import shot, start_solitaire
from .test_axe import serious

pytestmark = [pytest.mark.browser, pytest.mark.slow]
VIEWS = {"da": {"width": 1366, "height": 768}, "en": {"width": 390, "height": 844}}
# What must never be on screen: card and place codes, action texts, catalogue keys.
CODE = re.compile(r"\b([2-9TJQKA][CDHS]|[tsh]\d{1,2}(\.\d)?|[a-h][1-4]|\w+>\w+)\b"
                  r"|\b(learn|refused|error|server|core)\.[a-z_]+")


def wait_step(page: Any, step: str) -> None:
    page.wait_for_function(f"() => document.body.dataset.step === '{step}'"
                           " && !window.__learn.busy", timeout=30000)


def choose_in_dialog(page: Any, action: str) -> None:
    page.locator(f"dialog.choice-dialog button[data-value='{action}']").click()


def point(page: Any, game: str, action: str) -> None:
    """Make ``action`` on the board the way a player would in that game's view."""
    if game == "posthus":
        if action == "redeal":
            page.locator("#board .ph-redeal").click()
            dialog = page.locator(f"dialog.choice-dialog button[data-value='{action}']")
            if dialog.count():
                dialog.click()
            return
        card = action.split()[0]
        page.locator(f"#board [data-code='{card}']").click()
        if page.locator("dialog.choice-dialog").count():
            choose_in_dialog(page, action)
    elif game == "studenter":
        page.locator("#board .st-all-moves").click()
        choose_in_dialog(page, action)
    elif game == "gammel_jomfru":
        page.locator(f"#board [data-action='{action}']").first.click()
    elif game == "kugler":
        card = "discard" if action.startswith("discard") else action.split()[0]
        if card == "discard":
            card = action.split()[1]
        page.locator(f".kg-hand .card[data-code='{card}']").first.click()
        more = page.locator("#board .kg-show-all")
        if more.count():
            more.click()
        page.locator(f"#board [data-action='{action}']").first.click()
    else:  # the generic view: a button per legal action
        page.locator(f"#board [data-action='{action}']").first.click()


def wrong_move(page: Any, game: str, taught: str, legal: list[str]) -> bool:
    """Try a move the step does not teach, by pointing where the board allows it;
    False when this step offers no other move."""
    others = [a for a in legal if a not in (taught, "resign")]
    if game == "studenter" and "draw" in others:
        page.locator("#board [data-place='stock']").click()  # a click: the server resolves it
        return True
    if game == "kugler":
        other = next((a for a in others if a.split()[0] != taught.split()[0]), None)
        if other is None:
            return False
        point(page, game, other)
        return True
    if game == "posthus" and others:
        point(page, game, others[0])
        return True
    if game == "gammel_jomfru":
        # Every step of this lesson is forced and the board lights only the one legal
        # place: the wrong move goes through the page's own sending (onto the own pile).
        if taught != "p1":
            return False
        page.evaluate("() => window.__learn.send({action: 'p0'})")
        return True
    return False


def visible_words(page: Any) -> str:
    texts: list[str] = page.locator("#intro, #lesson, #finished, #status, #log").all_inner_texts()
    return "\n".join(texts)


@pytest.mark.parametrize("lang", ["da", "en"])
@pytest.mark.parametrize("game", learn.lesson_games())
def test_lesson_played_to_its_end(contexts: Any, server: str, game: str, lang: str) -> None:
    ctx = contexts(viewport=VIEWS[lang])
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}')")
    page = ctx.new_page()
    page.goto(f"{server}/learn/{game}")
    page.wait_for_selector("body[data-ready='1']")
    lesson = learn.load(game)
    taught = [s for s in lesson.steps if s.seat == 0]
    explained = None
    for n, step in enumerate(taught):
        wait_step(page, str(n))
        last = page.evaluate("() => window.__learn.last")
        assert last["expect"] == step.action
        assert page.locator("#progress").inner_text()
        assert page.locator("#do").inner_text().strip()
        if explained is None and wrong_move(page, game, step.action, last["legal"]):
            page.wait_for_function("() => window.__learn.explained > 0 && !window.__learn.busy")
            explained = page.locator("#explain").inner_text()
            assert explained.strip() and not CODE.search(explained), explained
            assert page.evaluate("() => document.body.dataset.step") == str(n)  # not played
            shot(page, f"learn-{game}-{lang}-explained")
            assert not serious(page), serious(page)
        point(page, game, step.action)
    wait_step(page, "done")
    assert explained, "no wrong move was explained on the way"
    assert page.locator("#finished").is_visible()
    words = visible_words(page)
    assert not CODE.search(words), CODE.search(words)
    # The position plays on: a real position, the learner's turn (table games: after the
    # computers' moves), not over.
    last = page.evaluate("() => window.__learn.last")
    assert last["lesson_over"] and last["outcome"] is None
    page.wait_for_function("() => window.__learn.last.to_move === 0")
    assert page.evaluate("() => window.__learn.last.legal.length") > 0
    if lesson.steps[-1].seat == 0 and len({s.seat for s in lesson.steps}) == 1 and \
            learn.start(lesson).seats > 1:
        # Gammel Jomfru ends on the next player's turn: the computers played since.
        assert page.locator("#log li").count() > len(lesson.steps)
    shot(page, f"learn-{game}-{lang}-done")
    assert not serious(page), serious(page)


def test_start_page_offers_the_lessons_and_rules_link_to_them(contexts: Any,
                                                              server: str) -> None:
    page = contexts(viewport=VIEWS["da"]).new_page()
    page.goto(server + "/")
    offer = page.locator("#learn-offer")
    offer.wait_for(state="visible")
    links = offer.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert sorted(links) == sorted(f"/learn/{g}" for g in learn.lesson_games())
    shot(page, "learn-offer")
    # A player with games behind them is not offered it again.
    page.evaluate("() => localStorage.setItem('spillebord.matches',"
                  " JSON.stringify([{match_id: 'x', game: 'posthus'}]))")
    page.reload()
    page.wait_for_timeout(800)
    assert page.locator("#learn-offer").is_hidden()
    # Every game's "Regler" dialog links to its lesson.
    start_solitaire(page, server, "posthus")
    page.click("#rules")
    link = page.locator("dialog.rules-dialog a[href='/learn/posthus']")
    link.wait_for()
    link.click()
    page.wait_for_url("**/learn/posthus")
    page.wait_for_selector("body[data-step='0']")
