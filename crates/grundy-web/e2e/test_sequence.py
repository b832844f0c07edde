"""Sequence: a plot of G(n) run as a long job, its period marked, zoom, cancel."""
import pathlib

from playwright.sync_api import expect


def run(page, game, start, end):
    page.get_by_test_id("seq-game").fill(game)
    page.get_by_test_id("seq-from").fill(str(start))
    page.get_by_test_id("seq-to").fill(str(end))
    page.get_by_test_id("seq-run").click()


def test_period_of_0_07_is_marked(page, shot):
    page.goto(page.base + "#/sequence")
    run(page, "0.07", 0, 1000)
    expect(page.get_by_test_id("seq-done")).to_be_visible()
    expect(page.get_by_test_id("preperiod-line")).to_have_count(1)
    expect(page.get_by_test_id("period-shade")).to_have_count(1)
    facts = page.get_by_test_id("period-facts")
    expect(facts).to_contain_text("Preperiod 53, period 34")
    expect(facts).to_contain_text("proven")
    # The values download as CSV (from the server, or from the page's engine).
    with page.expect_download() as download:
        page.get_by_test_id("download-csv").click()
    text = pathlib.Path(download.value.path()).read_text()
    assert text.startswith("n,grundy\n0,0\n1,0\n2,1\n"), text[:40]
    assert len(text.splitlines()) == 1002
    shot(page, "sequence-0.07")

    # drag across the plot to zoom in, then reset
    svg = page.locator(".seq-svg")
    box = svg.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.1, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.25, y, steps=5)
    page.mouse.up()
    expect(page.get_by_test_id("zoom-reset")).to_be_enabled()
    start = int(page.get_by_test_id("seq-from").input_value())
    end = int(page.get_by_test_id("seq-to").input_value())
    assert 50 <= start < end <= 300, (start, end)
    expect(page.get_by_test_id("seq-done")).to_contain_text(f"{end - start + 1:,} heaps")
    shot(page, "sequence-zoomed")
    page.get_by_test_id("zoom-reset").click()
    expect(page.get_by_test_id("seq-to")).to_have_value("1000")


def test_ten_million_heaps_draw_as_columns(page, shot):
    page.goto(page.base + "#/sequence")
    run(page, "0.07", 0, 10_000_000)
    expect(page.get_by_test_id("seq-done")).to_be_visible(timeout=120_000)
    bars = page.locator(".seq-svg .bars rect").count()
    assert 100 <= bars <= 4000, bars
    expect(page.get_by_test_id("preperiod-line")).to_have_count(1)
    shot(page, "sequence-10M")


def test_rare_values_and_cancel(page, shot):
    # Grundy's game: 1,274 rare values (mask 254) below 10^5
    page.goto(page.base + "#/sequence?game=grundy&from=0&to=99999")
    expect(page.get_by_test_id("seq-done")).to_be_visible(timeout=60_000)
    expect(page.locator(".legend")).to_contain_text("rare values")
    expect(page.locator(".seq-svg .rare").first).to_be_attached()
    shot(page, "sequence-rare")
    run(page, "grundy", 0, 50_000_000)
    expect(page.get_by_test_id("progress")).to_be_visible()
    page.get_by_test_id("seq-cancel").click()
    expect(page.get_by_test_id("seq-cancelled")).to_be_visible(timeout=30_000)


def test_the_pattern_panel_gives_code_to_copy(page, shot):
    page.goto(page.base + "#/sequence?game=sub:1,3,4&from=0&to=100")
    panel = page.get_by_test_id("pattern-panel")
    expect(page.get_by_test_id("pattern-facts")).to_contain_text("Periodic: period 7 from heap 0.")
    expect(page.get_by_test_id("pattern-facts")).to_contain_text("proven")
    expect(page.get_by_test_id("pattern-code")).to_contain_text("int grundy(long long n)")
    page.get_by_test_id("pattern-language").select_option("python")
    expect(page.get_by_test_id("pattern-code")).to_contain_text("def grundy(n):")
    page.get_by_test_id("pattern-copy").click()
    expect(page.get_by_test_id("pattern-copy")).to_have_text(__import__("re").compile("Copied|Selected"))
    page.get_by_test_id("pattern-outcome").check()
    expect(page.get_by_test_id("pattern-code")).to_contain_text("first_player_wins")
    panel.scroll_into_view_if_needed()
    shot(page, "sequence-pattern")


def test_boards_show_the_knights_pattern_and_its_corner(page, shot):
    page.goto(page.base + "#/boards")
    knight = page.get_by_test_id("knight-board")
    # The values have no pattern: who wins is shown, and said so.
    expect(knight.get_by_test_id("pattern-fallback")).to_be_visible()
    knight.get_by_test_id("pattern-outcome").check()
    expect(knight.get_by_test_id("pattern-facts")).to_contain_text("rows repeat every 4 from row 0")
    expect(knight.get_by_test_id("pattern-exceptions")).to_contain_text("7,7 (P)")
    expect(knight.get_by_test_id("pattern-code")).to_contain_text("if (r == 7 && c == 7) return false;")
    shot(page, "boards-pattern")
