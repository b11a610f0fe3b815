"""What every table's scoreboard shows whatever the game, in headless Chromium against a real served
Session of the toy game: reader faults as banners, zones the camera cannot see.

Each game's own panel, player page and big screen are in tests/browser/test_<game>_pages.py (the
harness: tests/browser/live.py); every game's pages at every player count, in test_layout.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import WAIT_MS
from tests.browser.live import watched  # noqa: F401 (fixture)
from tests.serving import Served

pytestmark = pytest.mark.browser


def test_a_faulty_reader_is_a_banner_and_clears_when_it_recovers(served: Served, watched: Any) -> None:
    watched.goto(f"http://127.0.0.1:{served.port}/")
    watched.wait_for_selector("#live.on", timeout=WAIT_MS)
    assert watched.locator("#health-banner .banner").count() == 0
    served.session.report_health("array:2", {"status": "down", "detail": "the array says it does not answer"})
    banner = watched.locator('#health-banner .banner[data-component="array:2"]')
    banner.wait_for(timeout=WAIT_MS)
    assert "Reader array:2 is DOWN" in banner.inner_text() and "bad" in (banner.get_attribute("class") or "")
    served.session.report_health("camera", {"status": "reconnecting", "detail": "lost the camera"})
    camera = watched.locator('#health-banner .banner[data-component="camera"]')
    camera.wait_for(timeout=WAIT_MS)
    assert "Camera is reconnecting" in camera.inner_text() and "warn" in (camera.get_attribute("class") or "")
    served.session.report_health("array:2", {"status": "silent", "detail": "no heartbeat"})
    watched.wait_for_selector('#health-banner .banner[data-status="silent"]', timeout=WAIT_MS)
    served.session.report_health("array:2", {"status": "ok", "detail": ""})
    served.session.report_health("camera", {"status": "ok", "detail": ""})
    watched.wait_for_function("() => document.querySelectorAll('#health-banner .banner').length === 0", timeout=WAIT_MS)
    assert watched.locator('#health .reader.ok[data-component="array:2"]').count() == 1


def test_zones_the_camera_cannot_see_are_listed_on_the_scoreboard(served: Served, watched: Any) -> None:
    watched.goto(f"http://127.0.0.1:{served.port}/")
    watched.wait_for_selector("#live.on", timeout=WAIT_MS)
    assert watched.locator("#unseen").is_hidden()
    hand = {"zone": "pile-2", "reason": "something large over it (a hand?)"}
    served.session.report_health("camera", {"status": "ok", "detail": "", "unseen": [hand, {"zone": "slot-3", "reason": "glare"}]})
    watched.wait_for_selector("#unseen:not([hidden])", timeout=WAIT_MS)
    assert watched.locator("#unseen").inner_text() == "Camera cannot see: pile-2 (something large over it (a hand?)), slot-3 (glare)"
    assert watched.locator("#health-banner .banner").count() == 0  # the camera works: no fault banner
    served.session.report_health("camera", {"status": "ok", "detail": "", "unseen": []})
    watched.wait_for_selector("#unseen[hidden]", state="attached", timeout=WAIT_MS)
