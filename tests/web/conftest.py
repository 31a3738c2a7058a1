"""Debian's Chromium, driven by Playwright, for the browser tests. No browser is ever
downloaded (never ``playwright install``): Playwright launches /usr/bin/chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from .roomkit import Stage

CHROMIUM = "/usr/bin/chromium"
NO_CHROMIUM = f"{CHROMIUM} is not installed (Debian's chromium package); the browser tests need it"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Module-scoped: Playwright's sync API keeps an event loop running in this thread
    while it is open, which would break every later test that calls asyncio.run."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(NO_CHROMIUM + " (in CI they must run: .ci/run installs it)")
        pytest.skip(NO_CHROMIUM)
    # Playwright refuses --user-data-dir in launch(): it gives each launch a fresh
    # temporary profile of its own, and deletes it when the browser closes.
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def stage(browser: Browser) -> Iterator[Stage]:
    """The test's rooms and players: every page is closed and every server stopped after."""
    s = Stage(browser)
    try:
        yield s
    finally:
        s.close()
