"""Your game: a pasted Rhai script, used by value and in play; an edge list on a board."""
from playwright.sync_api import expect

# Take 1 or 4 stones (a subtraction game written as a script): G(n) repeats 0 1 0 1 2.
SCRIPT = """fn name() { "take 1 or 4" }

fn moves(n) {
    let out = [];
    for k in [1, 4] {
        if k <= n { out.push(n - k); }
    }
    out
}
"""


def test_pasted_script_is_used_everywhere(page, shot):
    page.goto(page.base + "#/owngame")
    page.get_by_test_id("own-name").fill("mygame.rhai")
    page.get_by_test_id("own-text").fill(SCRIPT)
    page.get_by_test_id("own-position").fill("7")
    page.get_by_test_id("own-save").click()
    # 0 1 0 1 2 repeating: G(7) = G(2) = 0
    expect(page.get_by_test_id("own-value")).to_have_text("Grundy value 0")
    expect(page.get_by_test_id("own-saved")).to_contain_text("script:mygame.rhai")
    expect(page.get_by_test_id("own-output")).not_to_contain_text("null")
    shot(page, "owngame")

    # the file travels with every request: Analyse
    page.goto(page.base + "#/analyse?sum=script:mygame.rhai%209%20%2B%20nim%201")
    expect(page.get_by_test_id("winner")).to_have_text("First player wins")
    expect(page.get_by_test_id("component-value").first).to_have_text("2")
    expect(page.get_by_test_id("winning-move")).to_have_text(["[1] script:mygame.rhai: 9 -> 8"])

    # and Play: the moves of a script are buttons; a green one is taken, the computer replies
    page.goto(page.base + "#/play?sum=script:mygame.rhai%209")
    expect(page.get_by_test_id("status")).to_contain_text("you can win")
    page.locator("[data-testid=play-move][data-outcome=win]").first.click()
    expect(page.get_by_test_id("computer-move")).to_contain_text("script:mygame.rhai")
    shot(page, "play-script")


def test_example_script_and_graph(page, shot):
    page.goto(page.base + "#/owngame")
    page.get_by_test_id("own-example-script").click()
    page.get_by_test_id("own-save").click()
    expect(page.get_by_test_id("own-value")).to_have_text("Grundy value 2")
    page.get_by_test_id("own-example-graph").click()
    page.get_by_test_id("own-position").fill("d")
    page.get_by_test_id("own-save").click()
    expect(page.get_by_test_id("own-value")).to_have_text("Grundy value 1")
    # the graph is drawn in Play; its winning vertex is green and takes a click
    page.goto(page.base + "#/play?sum=dag:graph.txt%20d")
    expect(page.locator("svg.graph")).to_be_visible()
    shot(page, "play-dag")
    page.locator("[data-testid=dag-target].win").click()
    expect(page.get_by_test_id("game-over")).to_contain_text("You win!")


def test_a_broken_script_is_a_clear_error(page):
    page.goto(page.base + "#/owngame")
    page.get_by_test_id("own-name").fill("broken.rhai")
    page.get_by_test_id("own-text").fill("fn moves(n) { [n - 1 }")
    page.get_by_test_id("own-save").click()
    expect(page.get_by_test_id("error")).to_contain_text("broken.rhai")
