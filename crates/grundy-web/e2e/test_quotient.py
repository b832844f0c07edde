"""The Misère quotient view: the Cayley table with the P-portion marked, the
presentation and the heap map; and the Analyse page naming the quotient it used."""
from playwright.sync_api import expect


def test_the_quotient_view_draws_the_cayley_table(page, shot):
    page.goto(page.base + "#/quotient?game=0.75&max=12")
    facts = page.get_by_test_id("quotient-facts")
    expect(facts).to_contain_text("order 8, P-portion 2")
    expect(page.get_by_test_id("quotient-presentation")).to_contain_text("a^2 = 1")
    expect(page.get_by_test_id("quotient-heaps")).to_contain_text("5:c")
    cayley = page.get_by_test_id("cayley")
    expect(cayley.locator("button.cell")).to_have_count(64)
    # The dark cells are exactly the products in the P-portion {a, b^2}.
    expect(cayley.locator("button.cell.zero")).to_have_count(16)
    cayley.locator("tbody tr").nth(1).locator("button.cell").nth(0).click()
    expect(page.get_by_test_id("quotient-detail")).to_have_text("a · 1 = a: P")
    shot(page, "quotient-view")
    page.get_by_test_id("quotient-game").fill("knight:8")
    page.get_by_test_id("quotient-run").click()
    expect(page.get_by_test_id("quotient-out")).to_contain_text("heap games")


def test_analyse_shows_the_quotient_it_used(page, shot):
    # Too many large heaps for a search over heap sizes: the quotient of
    # 0.75 (order 8) answers.
    page.goto(page.base + "#/analyse?sum=0.75%2030%2031%2032%2033%2034%2035%2036%2037%2038%2039&misere=1")
    # The heap search gives up first (3.8 s natively; longer in the page).
    expect(page.get_by_test_id("method")).to_contain_text("quotient", timeout=60_000)
    used = page.get_by_test_id("quotient-used")
    expect(used).to_contain_text("order 8")
    expect(used.get_by_test_id("quotient-heaps")).to_contain_text("39:")
    used.scroll_into_view_if_needed()
    shot(page, "analyse-quotient")
    page.get_by_test_id("quotient-open").click()
    expect(page.get_by_test_id("cayley")).to_be_visible()
