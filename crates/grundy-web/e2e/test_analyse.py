"""Analyse: a sum typed in command-line syntax, its values, winner and winning moves."""
from playwright.sync_api import expect


def test_sum_shows_winner_and_moves_as_the_cli_writes_them(page, shot):
    page.goto(page.base)
    box = page.get_by_test_id("sum-input")
    box.fill("sub:1,2,3 3 4 5")
    box.press("Enter")
    expect(page.get_by_test_id("winner")).to_have_text("First player wins")
    moves = page.get_by_test_id("winning-move")
    expect(moves).to_have_count(3)
    expect(moves.nth(0)).to_have_text("[1] sub:1-3: 3 -> 1")
    expect(moves.nth(1)).to_have_text("[2] sub:1-3: 4 -> 2")
    expect(moves.nth(2)).to_have_text("[3] sub:1-3: 5 -> 3")
    # the nim-sum worked out in binary: values 3, 0, 1 give 2
    work = page.get_by_test_id("nimsum-work")
    expect(work).to_contain_text("odd number of 1s")
    expect(work.locator("tr.xor")).to_contain_text("2")
    assert "sum=sub%3A1%2C2%2C3%203%204%205" in page.url or "sum=sub:1,2,3%203%204%205" in page.url
    shot(page, "analyse")

    # a click plays the move and analyses what it leaves
    moves.nth(0).click()
    expect(box).to_have_value("sub:1-3 1 4 5")
    expect(page.get_by_test_id("winner")).to_have_text("Second player wins")


def test_splits_nothing_and_treblecross_are_written_like_the_cli(page):
    page.goto(page.base + "#/analyse?sum=kayles%204")
    expect(page.get_by_test_id("winning-move")).to_have_text(["[1] 0.77: 4 -> 1 + 1"])
    page.get_by_test_id("sum-input").fill("0.07 9 + nim 3")
    page.get_by_test_id("sum-input").press("Enter")
    expect(page.get_by_test_id("winning-move")).to_have_text(
        ["[1] 0.07: 9 -> 6 + 1", "[1] 0.07: 9 -> 4 + 3", "[2] nim: 3 -> (nothing)"])
    page.get_by_test_id("sum-input").fill("treblecross ..X......X")
    page.get_by_test_id("sum-input").press("Enter")
    expect(page.get_by_test_id("winning-move")).to_have_text(["[1] treblecross: mark cell 6", "[1] treblecross: mark cell 7"])


def test_misere_shows_genus_and_method(page, shot):
    page.goto(page.base + "#/analyse?sum=0.07%205%209%20%2B%20nim%203")
    expect(page.get_by_test_id("winner")).to_have_text("First player wins")
    page.get_by_test_id("misere").check()
    expect(page.get_by_test_id("winner")).to_contain_text("misère")
    expect(page.get_by_test_id("method")).to_contain_text("genus")
    expect(page.get_by_test_id("component-value").first).to_have_text("0^120")
    expect(page.get_by_test_id("winning-move").first).to_have_text("[2] 0.07: 9 -> 6 + 1")
    shot(page, "analyse-misere")


def test_bad_input_is_a_red_box_with_the_servers_message(page, shot):
    page.goto(page.base)
    page.get_by_test_id("sum-input").fill("nim x")
    page.get_by_test_id("analyse-button").click()
    expect(page.get_by_test_id("error")).to_contain_text("a heap size is a non-negative integer")
    shot(page, "analyse-error")


def test_an_example_from_the_help_fills_the_box(page):
    page.goto(page.base)
    page.get_by_test_id("games-help").locator("summary").click()
    page.get_by_test_id("example").filter(has_text="knight:8 3,4 7,7").click()
    expect(page.get_by_test_id("sum-input")).to_have_value("knight:8 3,4 7,7")
    expect(page.get_by_test_id("winning-move")).to_have_text(["[1] knight:8: 3,4 -> 1,5"])


def test_a_shared_address_with_a_plain_plus(page):
    page.goto(page.base + "#/analyse?sum=nim 3 + sub:1,2,3 4")
    expect(page.get_by_test_id("sum-input")).to_have_value("nim 3 + sub:1,2,3 4")
    expect(page.get_by_test_id("components").locator("tbody tr")).to_have_count(2)


def test_integers_past_two_to_the_53_are_shown_exactly(page):
    # JSON numbers up to 2^64 would be rounded to the nearest double by a
    # plain JSON.parse (2^64 - 1 shows as 18446744073709552000).
    page.goto(page.base + "#/analyse?sum=nim%2018446744073709551615%20%2B%20nim%201")
    expect(page.get_by_test_id("component-value")).to_have_text(["18446744073709551615", "1"])
    expect(page.get_by_test_id("winning-move")).to_have_text(["[1] nim: 18446744073709551615 -> 1"])
    expect(page.locator("#page")).to_contain_text("18446744073709551614")
    expect(page.locator("#page")).not_to_contain_text("18446744073709552000")
    page.get_by_test_id("sum-input").fill("nim 9007199254740993")
    page.get_by_test_id("sum-input").press("Enter")
    expect(page.get_by_test_id("component-value")).to_have_text(["9007199254740993"])
