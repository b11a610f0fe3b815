"""Headless Chromium (Debian's, installed by `make test`) driven by Playwright against the real server."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

# The whole-game walk's checks live in a helper module two test files share: its asserts explain themselves too.
pytest.register_assert_rewrite("tests.browser.tapping")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not (shutil.which(CHROMIUM) or os.path.exists(CHROMIUM)):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium; CI must have it")
        pytest.skip(f"{CHROMIUM} is missing (sudo apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="tc-chromium-")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=1, timezone_id="UTC")  # a phone
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"
