"""Play: a whole game of Nim won with hints, and a click on every kind of board."""
from playwright.sync_api import expect

def wait_for_my_turn(page, entries):
    """Waits for my move and the computer's reply: the timeline has `entries`
    entries and a move can be made, or the game ended after my move."""
    page.wait_for_function(
        """(n) => {
            const count = document.querySelectorAll('[data-testid=timeline-entry]').length;
            if (document.querySelector('[data-testid=game-over]')) return count >= n - 1;
            return count >= n && document.querySelector('[data-testid=play-move]:not([disabled])');
        }""",
        arg=entries)


def test_win_nim_with_hints(page, shot):
    page.goto(page.base + "#/play")
    page.get_by_test_id("play-sum").fill("nim 3 5 7")
    page.get_by_test_id("play-first").select_option("me")
    expect(page.get_by_test_id("play-hints")).to_be_checked()
    page.get_by_test_id("play-start").click()
    expect(page.get_by_test_id("status")).to_contain_text("you can win")
    shot(page, "play-nim-start")
    # the first move on the board: a green stone; the rest from the list
    page.locator(".stone.win").first.click()
    entries = 3
    wait_for_my_turn(page, entries)
    for _ in range(30):
        if page.get_by_test_id("game-over").count():
            break
        green = page.locator("[data-testid=play-move][data-outcome=win]:not([disabled])")
        expect(green.first).to_be_visible()
        green.first.click()
        entries += 2
        wait_for_my_turn(page, entries)
    expect(page.get_by_test_id("game-over")).to_contain_text("You win!")
    assert page.locator(".tl.mistake").count() == 0
    shot(page, "play-nim-won")

    # undo takes back my last move; redo puts it back
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("game-over")).to_have_count(0)
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    page.get_by_test_id("redo").click()
    expect(page.get_by_test_id("game-over")).to_contain_text("You win!")


def test_a_losing_move_is_marked_in_the_timeline(page):
    page.goto(page.base + "#/play?sum=nim%203%205%207")
    page.locator("[data-testid=play-move][data-outcome=lose]:not([disabled])").first.click()
    expect(page.locator(".tl.mistake")).to_have_count(1)


def test_the_computer_can_start(page):
    page.goto(page.base + "#/play?sum=nim%201%202&first=computer")
    expect(page.get_by_test_id("computer-move")).to_contain_text("The computer played [2] nim: 2 -> 1")


def click_green(page, selector):
    before = page.get_by_test_id("timeline-entry").count()
    page.locator(selector).first.click()
    page.wait_for_function("(n) => document.querySelectorAll('[data-testid=timeline-entry]').length > n", arg=before)


def test_every_board_takes_a_click(page, shot):
    boards = [
        ("kayles 4 7", None),
        ("grundy 8", "[data-testid=gap].win"),
        ("knight:8 7,7 5,6", "[data-testid=knight-target].win"),
        ("choco 4x6", "[data-testid=choco-line].win"),
        ("treblecross ...........", "[data-testid=tcell].win"),
    ]
    for text, selector in boards:
        page.goto(page.base + "#/play?sum=" + text.replace(" ", "%20").replace("+", "%2B"))
        expect(page.get_by_test_id("status")).to_contain_text("you can win")
        name = text.split()[0].split(":")[0]
        shot(page, f"play-{name}")
        if selector is None:
            # Kayles: a run of stones, first and last
            page.locator(".stone.win").first.click()
            expect(page.locator(".stone.selected")).to_have_count(1)
            click_green(page, ".stone.win")
        else:
            click_green(page, selector)
        expect(page.locator(".tl.you").first).to_be_visible()
        assert page.locator(".tl.mistake").count() == 0, text


def test_phone_screen(browser, server, shot):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    pg = context.new_page()
    pg.goto(server + "#/play?sum=nim%203%205%207")
    expect(pg.get_by_test_id("status")).to_contain_text("you can win")
    shot(pg, "phone-play")
    pg.goto(server + "#/analyse?sum=nim%203%205%207")
    expect(pg.get_by_test_id("winner")).to_be_visible()
    shot(pg, "phone-analyse")
    # nothing is wider than the screen
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_a_loopy_game_ends_in_a_draw_by_repetition(page, shot):
    # a two-cycle with no exit: every move keeps the draw
    page.goto(page.base + "#/owngame")
    page.get_by_test_id("own-name").fill("cycle.txt")
    page.get_by_test_id("own-text").fill("a b\nb a\n")
    page.get_by_test_id("own-position").fill("a")
    page.get_by_test_id("own-save").click()
    expect(page.get_by_test_id("own-ok")).to_contain_text("Draw")
    page.goto(page.base + "#/play?sum=dag:cycle.txt%20a")
    expect(page.get_by_test_id("status")).to_contain_text("keeps the draw")
    for _ in range(6):
        if page.get_by_test_id("game-over").count():
            break
        before = page.get_by_test_id("timeline-entry").count()
        page.locator("[data-testid=dag-target].draw").click()
        page.wait_for_function(
            "(n) => document.querySelector('[data-testid=game-over]') || "
            "(document.querySelectorAll('[data-testid=timeline-entry]').length >= n + 2 && "
            "document.querySelector('[data-testid=dag-target]'))", arg=before)
    expect(page.get_by_test_id("game-over")).to_contain_text("draw")
    shot(page, "play-draw")


def test_misere_nim_with_hints_off(page):
    page.goto(page.base + "#/play?sum=nim%201%201%201&misere=1&hints=0")
    expect(page.get_by_test_id("play-misere")).to_be_checked()
    expect(page.get_by_test_id("play-hints")).not_to_be_checked()
    expect(page.locator("[data-testid=play-move][data-outcome]")).to_have_count(0)
    # misère 1 1 1: whatever I do, the computer leaves me the last heap, which I must take
    page.get_by_test_id("play-move").first.click()
    expect(page.get_by_test_id("computer-move")).to_be_visible()
    expect(page.get_by_test_id("play-move")).to_have_count(1)
    page.get_by_test_id("play-move").click()
    expect(page.get_by_test_id("game-over")).to_contain_text("The computer wins")
