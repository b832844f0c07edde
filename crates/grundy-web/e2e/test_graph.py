"""Explain: the game graph of a small position, drawn under the explanation;
past the page's limit, one line says it is too large to draw."""
from playwright.sync_api import expect


def test_explain_shows_the_game_graph(page, shot):
    page.goto(page.base + "#/explain?game=sub:1,2,3&position=7")
    graph = page.get_by_test_id("explain-graph")
    expect(graph.locator("h2")).to_have_text("Game graph of sub:1,2,3 7")
    picture = page.get_by_test_id("graph-picture")
    svg = picture.locator("svg")
    expect(svg).to_be_visible()
    # Every position once, with its value; the two P-positions marked.
    expect(svg.locator("g > title")).to_have_count(8)
    expect(svg.locator("title", has_text="4: grundy 0, P-position")).to_have_count(1)
    expect(svg.locator("title", has_text="7: grundy 3, N-position")).to_have_count(1)
    expect(graph).to_contain_text("All 8 positions reachable")
    picture.scroll_into_view_if_needed()
    shot(page, "explain-graph")


def test_a_large_graph_is_named_in_one_line(page):
    page.goto(page.base + "#/explain?game=nim&position=100")
    line = page.get_by_test_id("graph-too-large")
    expect(line).to_have_text(
        "The game graph of nim 100 has more than 60 positions, too many to draw here "
        "(the command grundy graph draws larger ones).")
    expect(page.get_by_test_id("graph-picture")).to_have_count(0)


def test_the_graph_fits_a_phone(phone, shot):
    phone.goto(phone.base + "#/explain?game=nim&position=2%202")
    svg = phone.get_by_test_id("graph-picture").locator("svg")
    expect(svg).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = svg.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    svg.scroll_into_view_if_needed()
    shot(phone, "explain-graph-phone")
