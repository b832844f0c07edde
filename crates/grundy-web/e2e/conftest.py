"""Fixtures: the grundy server (GRUNDY_BIN, default target/release/grundy) and
Debian's Chromium driven by Playwright."""
import os
import pathlib
import subprocess

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHOTS = pathlib.Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def server():
    binary = os.environ.get("GRUNDY_BIN", str(ROOT / "target" / "release" / "grundy"))
    proc = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        prefix = "grundy is serving "
        assert line.startswith(prefix), f"unexpected first line from {binary}: {line!r}"
        yield line[len(prefix):].split()[0]
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def fresh_page(browser, server, width, height):
    """A fresh English page of the playground (no saved language or files) on a
    screen of width x height; yields it, then fails on JavaScript errors."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # a string missing from a catalogue is logged by t() as "grundy: no string for KEY"
    pg.on("console", lambda m: errors.append(m.text) if "no string for" in m.text else None)
    pg.base = server
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(browser, server):
    """A fresh English page of the playground on a desktop screen."""
    yield from fresh_page(browser, server, 1280, 800)


@pytest.fixture
def phone(browser, server):
    """The same on a phone's screen, 390 x 844."""
    yield from fresh_page(browser, server, 390, 844)


@pytest.fixture
def shot():
    """shot(page, name) saves a full-page screenshot in e2e/screenshots/."""
    SHOTS.mkdir(exist_ok=True)

    def take(pg, name):
        pg.evaluate("window.scrollTo(0, 0)")  # the sticky bar stays at the top of the picture
        pg.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    return take
