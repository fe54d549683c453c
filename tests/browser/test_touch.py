"""Touch drag on a phone: a finger drags a Studenterkabalen card to a legal place.

The touches are real touch input sent to Chromium through the DevTools protocol
(Input.dispatchTouchEvent), so the page sees the pointer events a phone produces — with
``pointerType == "touch"`` and the browser free to turn the gesture into a scroll unless
the page says ``touch-action: none``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .helpers import need_game, start_solitaire, state, version, wait_after
from .test_studenter import centres, draw_until, source_sel

pytestmark = pytest.mark.browser


def touch_drag(page: Any, src: str, dst: str) -> None:
    x0, y0, x1, y1 = centres(page, src, dst)
    cdp = page.context.new_cdp_session(page)

    def send(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    send("touchStart", x0, y0)
    for i in range(1, 11):
        send("touchMove", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
    send("touchEnd", x1, y1)
    cdp.detach()


def test_studenter_touch_drag_on_a_phone(contexts: Any, server: str) -> None:
    need_game("studenter")
    page = contexts(viewport={"width": 360, "height": 740}, has_touch=True,
                    is_mobile=True).new_page()
    start_solitaire(page, server, "studenter", 11)
    page.evaluate("() => { window.__pointerTypes = []; addEventListener('pointerdown', "
                  "e => window.__pointerTypes.push(e.pointerType), true); }")
    movable = re.compile(r"^(h\d|waste)>(f\d|row)$")
    act = draw_until(page, lambda a: movable.match(a) is not None)
    assert act, "no move to drag came up in this deal"
    src, dst = act.split(">")
    page.locator(source_sel(src)).scroll_into_view_if_needed()
    v = version(page)
    touch_drag(page, src, dst)
    wait_after(page, v)
    assert state(page)["events"][-1]["action"] == act
    assert "touch" in page.evaluate("() => window.__pointerTypes")
