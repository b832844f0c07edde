"""The static site (`bash site/build.sh`, served by python3 -m http.server,
no grundy process): the guide's examples run in the page through their Run
buttons and print exactly what the native binary prints; the playground
answers a sum of boards; a long run shows progress and stops. The other
files of this folder run each playground test on the site too."""
import json
import os
import pathlib
import re
import shlex
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import ROOT

BINARY = os.environ.get("GRUNDY_BIN", str(ROOT / "target" / "release" / "grundy"))
DOCS = ROOT / "docs" / "src"
# Commands that write files, read the clock or serve cannot run in a page the same way.
ELSEWHERE = re.compile(r"--(out|plot|certificate|checkpoint)\b|\bserve\b|\bcensus\b|\btime\b|--verify")


def native(args):
    """What the native binary prints, standard output and error in the order
    it writes them (as a terminal, and the page, show them), with `? N`
    after it when the status is not 0, as the page adds."""
    done = subprocess.run([BINARY, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          stdin=subprocess.DEVNULL, cwd=ROOT, timeout=120)
    text = done.stdout
    if done.returncode != 0:
        text += f"? {done.returncode}\n"
    return text


def guide_examples():
    """(page, command) of the tutorial's console examples that a page can run."""
    found = []
    for md in sorted((DOCS / "tutorial").glob("*.md")):
        block = False
        for line in md.read_text().splitlines():
            if line.startswith("```"):
                block = line.strip() == "```console" if not block else False
                continue
            if block and line.startswith("$ grundy ") and not ELSEWHERE.search(line):
                found.append((md.relative_to(DOCS).with_suffix(".html").as_posix(), line[2:]))
    return found


def run_in_page(pg, command):
    """Clicks the Run button of `command` on the open page; what it printed."""
    box = pg.locator(".grundy-run").filter(has=pg.locator(f"input[value={json.dumps(command)}]")).first
    # An exercise's answer is folded away: open it, as a reader does.
    box.evaluate("b => { const d = b.closest('details'); if (d) d.open = true; }")
    box.scroll_into_view_if_needed()
    box.get_by_role("button", name="Run").click()
    expect(box).not_to_have_attribute("data-state", "running", timeout=60_000)
    expect(box).to_have_attribute("data-state", re.compile(r"^\d+$"))
    return box.locator(".grundy-run-output").text_content()


@pytest.fixture
def guide(browser, static_site):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(20000)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.base = static_site
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_guide_examples_print_what_the_binary_prints(guide, shot):
    examples = guide_examples()
    assert len(examples) >= 20, examples
    checked = 0
    opened = None
    for page_name, command in examples:
        if page_name != opened:
            guide.goto(guide.base + page_name)
            opened = page_name
        expect(guide.locator(".grundy-run").first).to_be_visible()
        printed = run_in_page(guide, command)
        assert printed == native(shlex.split(command)[1:]), f"{page_name}: {command}"
        checked += 1
    assert checked >= 20
    shot(guide, "site-guide-example")


def test_an_edited_example_and_bad_input(guide, shot):
    guide.goto(guide.base + "tutorial/nim.html")
    box = guide.locator(".grundy-run").first
    box.locator("input").fill("grundy value nim 3 x")
    box.get_by_role("button", name="Run").click()
    expect(box).to_have_attribute("data-state", "2", timeout=30_000)
    printed = box.locator(".grundy-run-output").text_content()
    assert printed == native(["value", "nim", "3", "x"])
    assert printed.endswith("? 2\n")
    shot(guide, "site-bad-input")


def test_a_script_example_reads_its_file(guide):
    guide.goto(guide.base + "tutorial/nim.html")
    box = guide.locator(".grundy-run").first
    command = "grundy seq script:examples/kayles.rhai --to 20"
    box.locator("input").fill(command)
    box.get_by_role("button", name="Run").click()
    expect(box).to_have_attribute("data-state", "0", timeout=30_000)
    assert box.locator(".grundy-run-output").text_content() == native(shlex.split(command)[1:])


def test_a_long_run_shows_progress_and_stops(guide, shot):
    guide.goto(guide.base + "tutorial/nim.html")
    box = guide.locator(".grundy-run").first
    box.locator("input").fill("grundy seq 0.6 --to 40000000 --json")
    box.get_by_role("button", name="Run").click()
    expect(box.locator("progress")).to_be_visible(timeout=30_000)
    shot(guide, "site-progress")
    box.get_by_role("button", name="Stop").click()
    expect(box).to_have_attribute("data-state", "130", timeout=10_000)
    expect(box.locator(".grundy-run-output")).to_contain_text("(stopped)")
    # The page's engine starts afresh for the next command.
    box.locator("input").fill("grundy value nim 1 2")
    box.get_by_role("button", name="Run").click()
    expect(box).to_have_attribute("data-state", "0", timeout=30_000)
    assert box.locator(".grundy-run-output").text_content() == native(["value", "nim", "1", "2"])


def test_the_playground_answers_boards_with_no_server(browser, static_site, shot):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    pg = context.new_page()
    pg.goto(static_site + "playground/#/analyse?sum=cram%204x5%20%2B%20chomp%205x5%20%2B%20nim%203")
    expect(pg.get_by_test_id("winner")).to_be_visible(timeout=60_000)
    answer = json.loads(subprocess.run([BINARY, "value", "cram", "4x5", "+", "chomp", "5x5", "+", "nim", "3",
                                        "--json"], capture_output=True, text=True, check=True).stdout)
    expect(pg.get_by_test_id("component-value")).to_contain_text([str(c["grundy"]) for c in answer["components"]])
    expect(pg.get_by_test_id("winner")).to_contain_text(re.compile(answer["winner"], re.I))
    moves = pg.get_by_test_id("winning-move")
    expect(moves).to_have_count(len(answer["winning_moves"]))
    shot(pg, "site-boards-sum")
    context.close()


def test_the_guide_links_to_the_playground(guide):
    guide.goto(guide.base)
    expect(guide.locator("a[href$='playground/']").first).to_be_attached()


def test_a_game_at_the_prompt_replays_its_moves(guide, shot):
    guide.goto(guide.base + "tutorial/playing.html")
    box = guide.locator(".grundy-run").filter(has=guide.locator("textarea")).first
    typed = box.locator("textarea").input_value()
    assert typed.split("\n")[:2] == ["hint", "2:2"], typed
    box.get_by_role("button", name="Run").click()
    expect(box).to_have_attribute("data-state", "0", timeout=30_000)
    done = subprocess.run([BINARY, "play", "nim", "2", "3"], input=typed + "\n", stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=60)
    assert box.locator(".grundy-run-output").text_content() == done.stdout
    assert "winner: you" in done.stdout
    shot(guide, "site-play-transcript")


# What a page cannot print as the native binary does: the processor's
# instruction paths, timings, the memory a process holds, a missing file.
DIFFERS = re.compile(r"this processor supports|^search: |holding \d+ MB|filled the memory budget|No such file", re.M)


def all_console_examples():
    """(page, variables, arguments) of every console example of the guide."""
    found = []
    for md in sorted(DOCS.rglob("*.md")):
        block = False
        for line in md.read_text().splitlines():
            if line.startswith("```"):
                block = line.strip() == "```console" if not block else False
                continue
            if not block or not re.match(r"^\$ (?:[A-Z_]+=\S*\s+)*grundy\s", line) or ELSEWHERE.search(line):
                continue
            words = shlex.split(line[2:])
            at = words.index("grundy")
            variables = dict(w.split("=", 1) for w in words[:at])
            found.append((md.relative_to(DOCS).as_posix(), variables, words[at + 1:]))
    return found


def test_every_example_of_the_guide_prints_what_the_binary_prints(browser, static_site):
    """Each console example of the guide, through the page's engine (what a
    Run button calls), against the binary: standard output and error in the
    order written, and the status."""
    context = browser.new_context()
    pg = context.new_page()
    pg.goto(static_site + "playground/")
    differ = []
    checked = 0
    for page_name, variables, args in all_console_examples():
        done = subprocess.run([BINARY, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              stdin=subprocess.DEVNULL, cwd=ROOT, timeout=120, env={**os.environ, **variables})
        native = done.stdout + (f"? {done.returncode}\n" if done.returncode else "")
        if DIFFERS.search(native):
            continue
        files = {}
        for arg in args:
            for name in re.split(r"[\s+]", arg):
                m = re.match(r"^(?:[a-z]+:)?([\w./-]+\.(?:rhai|dag|txt))$", name)
                if m and (ROOT / m.group(1)).is_file():
                    files[m.group(1)] = (ROOT / m.group(1)).read_text()
        printed = pg.evaluate("""async ([args, files, env]) => {
            const engine = await import('./engine.js');
            let out = '';
            const status = await engine.runCli(args, { files, env, onWrite: (_, text) => { out += text; } });
            return out + (status ? `? ${status}\\n` : '');
        }""", [args, files, variables])
        checked += 1
        if printed != native:
            differ.append(f"{page_name}: grundy {' '.join(args)}\n  native: {native!r}\n  page:   {printed!r}")
    context.close()
    assert checked >= 350, checked
    assert not differ, "\n".join(differ)


def test_a_request_past_the_pages_time_budget_names_it(browser, static_site, shot):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    pg = context.new_page()
    # playground/?seconds=2: two seconds a request (60 unless asked).
    pg.goto(static_site + "playground/?seconds=2#/analyse?sum=cram%206x7")
    expect(pg.get_by_test_id("error")).to_contain_text("more than the page's 2 s per request", timeout=30_000)
    expect(pg.get_by_test_id("error")).to_contain_text("native grundy")
    shot(pg, "site-time-budget")
    # The engine starts afresh for the next request.
    pg.get_by_test_id("sum-input").fill("nim 1 2")
    pg.get_by_test_id("analyse-button").click()
    expect(pg.get_by_test_id("winner")).to_contain_text("First", timeout=30_000)
    context.close()
