"""Fixtures: the playground, served by grundy (GRUNDY_BIN, default
target/release/grundy) and, where GRUNDY_SITE names a folder built by
`bash site/build.sh`, also from that static site by `python3 -m http.server`
with grundy's WebAssembly engine in the page (each test then runs on both);
Debian's Chromium driven by Playwright."""
import os
import pathlib
import socket
import subprocess
import sys
import time

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHOTS = pathlib.Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


SITE = os.environ.get("GRUNDY_SITE")
BACKENDS = ["server", "site"] if SITE else ["server"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def static_site():
    """The static site's root URL: GRUNDY_SITE served by python3 -m http.server."""
    if not SITE:
        pytest.skip("GRUNDY_SITE names no built site (bash site/build.sh)")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", SITE, str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def grundy_server():
    """grundy serve's URL."""
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


@pytest.fixture(scope="session", params=BACKENDS)
def server(request):
    """The playground's URL: served by grundy, or from the static site (no
    grundy process: the page computes in WebAssembly)."""
    if request.param == "server":
        return request.getfixturevalue("grundy_server")
    return request.getfixturevalue("static_site") + "playground/"


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
def shot(request):
    """shot(page, name) saves a full-page screenshot in e2e/screenshots/
    (names of the static site's start with site-)."""
    SHOTS.mkdir(exist_ok=True)
    params = getattr(request.node, "callspec", None)
    prefix = "site-" if params and params.params.get("server") == "site" else ""

    def take(pg, name):
        name = prefix + name
        pg.evaluate("window.scrollTo(0, 0)")  # the sticky bar stays at the top of the picture
        pg.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    return take
