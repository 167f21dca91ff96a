"""Browser tests: Playwright for Python driving Debian's chromium against a real server
started here on a free loopback port. Everything skips when /usr/bin/chromium is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("THIRTEEN_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).parent / "screenshots"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}")
    pytest.importorskip("playwright.sync_api")
    from thirteen.web.process import ServerProcess

    db = tmp_path_factory.mktemp("web") / "browser.sqlite3"
    with ServerProcess(db) as s:
        yield s


@pytest.fixture(scope="session")
def browser(server: Any) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def _page(browser: Any, **context: Any) -> Iterator[Any]:
    """A page in a fresh browser context (so a fresh player); no JavaScript error allowed."""
    ctx = browser.new_context(**context)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(10_000)
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def page(browser: Any, server: Any) -> Iterator[Any]:
    """A desktop-sized window."""
    yield from _page(browser, viewport={"width": 1280, "height": 900})


@pytest.fixture
def phone(browser: Any, server: Any) -> Iterator[Any]:
    """A phone's touch screen, 390 x 844."""
    yield from _page(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                     has_touch=True)


@pytest.fixture
def caching(browser: Any, server: Any) -> Iterator[Any]:
    """A page of a browser that keeps the pages left in its back/forward cache, as browsers
    do (Playwright starts Chromium without it)."""
    b = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=ARGS,
                                    ignore_default_args=["--disable-back-forward-cache"])
    try:
        yield from _page(b, viewport={"width": 1280, "height": 900})
    finally:
        b.close()
