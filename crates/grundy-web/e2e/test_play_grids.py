"""Play: whole games of Cram and Chomp made by clicks on the drawn boards."""
from playwright.sync_api import expect

MY_TURN = """([n, selector]) => {
    if (document.querySelector('[data-testid=game-over]')) return true;
    return document.querySelectorAll('[data-testid=timeline-entry]').length >= n
        && document.querySelector(selector + ':not([disabled])');
}"""


def position(page):
    return page.locator("[data-testid=component-board] figcaption .pos").first.inner_text()


def filled(page):
    return page.get_by_test_id("cram-filled").count()


def play_until_over(page, choose, selector, check, max_moves=40):
    """Clicks moves with choose(page) until the game ends; after each of my
    moves the board changes, and the computer answers on the board too."""
    entries = 1
    for _ in range(max_moves):
        page.wait_for_function(MY_TURN, arg=[entries, selector])
        if page.get_by_test_id("game-over").count():
            return
        before = position(page)
        state = check(page)
        choose(page)
        entries += 2
        # my move is in the timeline and the board is no longer the same
        page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=timeline-entry]').length >= n - 1", arg=entries)
        page.wait_for_function(MY_TURN, arg=[entries, selector])
        assert position(page) != before
        if not page.get_by_test_id("game-over").count():
            expect(page.get_by_test_id("computer-move")).to_be_visible()
            check(page, state)
    raise AssertionError("the game did not end")


def test_cram_game_by_clicks(page, shot):
    page.goto(page.base + "#/play")
    page.get_by_test_id("preset").filter(has_text="Cram").click()
    expect(page.get_by_test_id("play-sum")).to_have_value("cram 4x5")
    board = page.get_by_test_id("cram-board")
    expect(board).to_be_visible()
    expect(page.get_by_test_id("cram-cell")).to_have_count(20)
    expect(page.get_by_test_id("cram-filled")).to_have_count(0)

    # a first click marks the cell and offers its neighbours; a click on a
    # cell that is not a neighbour starts again there; the same cell twice clears
    page.locator("[data-testid=cram-cell][data-cell=a1]").click()
    expect(page.get_by_test_id("cram-selected")).to_have_attribute("data-cell", "a1")
    expect(page.get_by_test_id("cram-target")).to_have_count(2)  # b1, a2
    page.locator("[data-testid=cram-cell][data-cell=d3]").click()
    expect(page.get_by_test_id("cram-selected")).to_have_attribute("data-cell", "d3")
    expect(page.get_by_test_id("cram-target")).to_have_count(4)
    page.get_by_test_id("cram-selected").click()
    expect(page.get_by_test_id("cram-selected")).to_have_count(0)

    def choose(pg):
        # a green first cell if there is one, then a green neighbour
        first = pg.locator("[data-testid=cram-cell].win:not([disabled])")
        if not first.count():
            first = pg.locator("[data-testid=cram-cell]:not([disabled])")
        first.first.click()
        target = pg.locator("[data-testid=cram-target].win:not([disabled])")
        if not target.count():
            target = pg.locator("[data-testid=cram-target]:not([disabled])")
        target.first.click()

    def check(pg, before=None):
        n = filled(pg)
        if before is not None:
            # my domino and the computer's: four more filled cells
            assert n == before + 4, (before, n)
            expect(pg.get_by_test_id("computer-move")).to_contain_text("domino")
        return n

    shots = {"taken": False}

    def check_and_shoot(pg, before=None):
        n = check(pg, before)
        if before is not None and not shots["taken"]:
            shot(pg, "play-cram-midgame")
            shots["taken"] = True
        return n

    play_until_over(page, choose, "[data-testid=cram-cell]", check_and_shoot)
    expect(page.get_by_test_id("game-over")).to_be_visible()
    # the timeline names the dominoes as the command line does
    expect(page.get_by_test_id("timeline-entry").nth(1)).to_contain_text("domino")
    shot(page, "play-cram-over")


def test_chomp_game_by_clicks_won_with_hints(page, shot):
    page.goto(page.base + "#/play")
    page.get_by_test_id("preset").filter(has_text="Chomp").click()
    expect(page.get_by_test_id("play-sum")).to_have_value("chomp 6x6")
    expect(page.get_by_test_id("chomp-board")).to_be_visible()
    expect(page.get_by_test_id("chomp-poison")).to_have_count(1)
    expect(page.get_by_test_id("chomp-square")).to_have_count(35)
    # a rectangle is a first-player win (strategy stealing): some square is green
    expect(page.get_by_test_id("status")).to_contain_text("you can win")
    # pointing at row 4 column 3 shows the bite: rows 4-6, columns 3-6
    page.locator("[data-testid=chomp-square][data-row='4'][data-col='3']").hover()
    expect(page.locator(".csq.eaten")).to_have_count(12)
    shot(page, "play-chomp-hover")
    page.mouse.move(0, 0)
    expect(page.locator(".csq.eaten")).to_have_count(0)

    def count(pg, before=None):
        n = pg.get_by_test_id("chomp-square").count()
        if before is not None:
            assert n < before - 1, (before, n)
            expect(pg.get_by_test_id("computer-move")).to_contain_text("take row")
        return n

    def choose(pg):
        pg.locator("[data-testid=chomp-square].win:not([disabled])").first.click()

    play_until_over(page, choose, "[data-testid=chomp-square]", count)
    expect(page.get_by_test_id("game-over")).to_contain_text("You win!")
    assert page.locator(".tl.mistake").count() == 0
    expect(page.get_by_test_id("timeline-entry").nth(1)).to_contain_text("take row")
    shot(page, "play-chomp-won")


def test_grids_fit_a_phone(browser, server, shot):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    pg = context.new_page()
    for text, testid in [("cram%204x5", "cram-board"), ("chomp%206x6", "chomp-board"), ("cram%203x9", "cram-board")]:
        pg.goto(server + "#/play?sum=" + text)
        expect(pg.get_by_test_id(testid)).to_be_visible()
        shot(pg, "phone-play-" + text.replace("%20", "-"))
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390, text
    context.close()


def test_analyse_names_cram_and_chomp_moves(page):
    page.goto(page.base + "#/analyse?sum=cram%202x3")
    expect(page.get_by_test_id("winning-move").first).to_contain_text("[1] cram: domino ")
    page.goto(page.base + "#/analyse?sum=chomp%203x3")
    expect(page.get_by_test_id("winning-move")).to_have_count(1)
    expect(page.get_by_test_id("winning-move")).to_contain_text("[1] chomp: take row 2 column 2")
