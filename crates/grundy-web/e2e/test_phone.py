"""A phone's screen (390 x 844) on every page, with long input: long heaps,
boards written row by row, long positions, long ranges and names wrap or
scroll inside their own boxes, and no page ever scrolls sideways."""
from playwright.sync_api import expect

BIG = "1" + "0" * 30  # a heap of 10^30
HUGE = "1" + "0" * 60  # 10^60
WIDE = "4503599627370495"  # 2^52 - 1: a nim-sum of 52 binary columns
CRAM_ROWS = "/".join(["........"] * 8)  # Cram 8x8 written row by row

# What sticks out of the screen with no scrolling box of its own to hold it
# (for the message of a failed check).
STICKING_OUT = """() => {
  const screen = window.innerWidth;
  const out = [];
  for (const e of document.body.querySelectorAll('*')) {
    const box = e.getBoundingClientRect();
    if (box.width === 0 || box.right <= screen + 0.5) continue;
    let held = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible' && a.getBoundingClientRect().right <= screen + 0.5) { held = true; break; }
    }
    if (!held) out.push(`${e.tagName.toLowerCase()}.${e.getAttribute('class') || ''} to ${Math.round(box.right)}px`);
  }
  return out.slice(0, 6);
}"""


def assert_no_sideways_scroll(pg, what):
    width = pg.evaluate("document.documentElement.scrollWidth")
    screen = pg.evaluate("window.innerWidth")
    assert width <= screen, f"{what}: the page is {width}px wide on a {screen}px screen; {pg.evaluate(STICKING_OUT)}"


def right_edge(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"]


def test_long_heaps_fit_a_phone_on_every_page(phone, shot):
    pg = phone

    # Analyse: a heap of 10^30 wraps inside its cells; the table fits the screen
    pg.goto(pg.base + f"#/analyse?sum=cram%208x8%20%2B%20nim%20{BIG}")
    expect(pg.get_by_test_id("winner")).to_have_text("First player wins")
    expect(pg.get_by_test_id("component-value").nth(1)).to_have_text(BIG)
    expect(pg.get_by_test_id("winning-move")).to_have_text([f"[2] nim: {BIG} -> (nothing)"])
    pg.get_by_test_id("games-help").locator("summary").click()
    expect(pg.get_by_test_id("example").first).to_be_visible()
    assert right_edge(pg.get_by_test_id("components")) <= 390
    assert right_edge(pg.get_by_test_id("games-help")) <= 390
    shot(pg, "phone-long-analyse")
    assert_no_sideways_scroll(pg, "Analyse, cram 8x8 + nim 10^30")

    # a board row by row, a heap of 10^60, a nim-sum of 52 columns that scrolls in its own box
    pg.get_by_test_id("sum-input").fill(f"cram {CRAM_ROWS} + sub:1-3 {HUGE} + nim {WIDE}")
    pg.get_by_test_id("sum-input").press("Enter")
    expect(pg.get_by_test_id("component-value").nth(2)).to_have_text(WIDE)
    work = pg.get_by_test_id("nimsum-work")
    expect(work.locator("tr.xor")).to_be_visible()
    assert right_edge(pg.get_by_test_id("components")) <= 390
    assert work.evaluate("box => box.scrollWidth > box.clientWidth")
    shot(pg, "phone-long-analyse-nimsum")
    assert_no_sideways_scroll(pg, "Analyse, a Cram board row by row and 10^60")

    # misère: the server's message about the long heap in a red box
    pg.goto(pg.base + f"#/analyse?sum=0.07%205%209%20%2B%20nim%20{BIG}&misere=1")
    expect(pg.get_by_test_id("error")).to_contain_text("too many moves")
    assert_no_sideways_scroll(pg, "Analyse, misère error")

    # Explain: two long positions, each option's long text, the button to analyse both
    pg.goto(pg.base + f"#/explain?game=sub:1-3&position={HUGE}%20{BIG}")
    expect(pg.get_by_test_id("mex-text")).to_have_count(2)
    expect(pg.get_by_test_id("analyse-sum")).to_contain_text(HUGE)
    tree = pg.get_by_test_id("explain-tree").nth(1)
    tree.locator("summary", has_text=f"{BIG} -> {'9' * 30}").first.click()
    expect(tree.get_by_test_id("mex-text")).to_have_count(2)
    shot(pg, "phone-long-explain")
    assert_no_sideways_scroll(pg, "Explain, 10^60 and 10^30")

    # a long Treblecross row, and a heap whose options cannot be listed
    pg.goto(pg.base + "#/explain?game=treblecross&position=" + "." * 40)
    # The hash changes in place: wait until the two sub:1-3 positions are gone.
    expect(pg.get_by_test_id("mex-text")).to_have_count(1)
    expect(pg.get_by_test_id("mex-text")).to_contain_text("mex = 6")
    assert_no_sideways_scroll(pg, "Explain, a row of 40 cells")
    pg.goto(pg.base + f"#/explain?game=nim&position={BIG}")
    expect(pg.get_by_test_id("error")).to_contain_text("too many moves")
    assert_no_sideways_scroll(pg, "Explain, nim 10^30")

    # Sequence: two million heaps; then a range too long to compute
    pg.goto(pg.base + "#/sequence?game=0.07&from=0&to=2000000")
    expect(pg.get_by_test_id("seq-done")).to_be_visible(timeout=120_000)
    expect(pg.get_by_test_id("period-facts")).to_contain_text("period 34")
    assert right_edge(pg.locator(".seq-svg")) <= 390
    shot(pg, "phone-long-sequence")
    assert_no_sideways_scroll(pg, "Sequence, 0 to 2,000,000")
    pg.get_by_test_id("seq-to").fill("9007199254740991")
    pg.get_by_test_id("seq-run").click()
    expect(pg.get_by_test_id("error")).to_contain_text("9007199254740992 heaps")
    assert_no_sideways_scroll(pg, "Sequence, a range too long")

    # Boards: a 24 x 24 knight board and a 30 x 30 bar scroll inside their cards
    pg.goto(pg.base + "#/boards?n=24&choco=30x30")
    expect(pg.locator("[data-testid=knight-board] [data-testid=cell-23-23]")).to_be_attached()
    expect(pg.locator("[data-testid=choco-board] [data-testid=cell-29-29]")).to_be_attached()
    shot(pg, "phone-long-boards")
    assert_no_sideways_scroll(pg, "Boards, 24 x 24 and 30 x 30")


def test_long_games_fit_a_phone_in_play(phone, shot):
    pg = phone
    # a heap of 10^60 beside a Cram board: the heap's number and its moves wrap
    pg.goto(pg.base + f"#/play?sum=cram%203x4%20%2B%20sub:1-3%20{HUGE}")
    expect(pg.get_by_test_id("status")).to_contain_text("you can win")
    expect(pg.get_by_test_id("component-board").nth(1)).to_contain_text(f"A heap of {HUGE}")
    expect(pg.get_by_test_id("play-move").filter(has_text=HUGE)).to_have_count(3)
    assert_no_sideways_scroll(pg, "Play, cram 3x4 + sub:1-3 10^60")
    pg.locator("[data-testid=play-move][data-outcome=win]").first.click()
    expect(pg.get_by_test_id("computer-move")).to_be_visible()
    expect(pg.get_by_test_id("timeline-entry")).to_have_count(3)
    shot(pg, "phone-long-play")
    assert_no_sideways_scroll(pg, "Play, after a move each")

    # boards larger than the screen scroll inside their own box
    for text, board in [("knight:24%2023,23", ".chess"), ("choco%2020x20", ".choco"),
                        ("treblecross%20" + "." * 60, ".treble")]:
        pg.goto(pg.base + "#/play?sum=" + text)
        expect(pg.get_by_test_id("status")).to_contain_text("Your turn")
        expect(pg.locator(board)).to_be_visible()
        assert right_edge(pg.get_by_test_id("component-board")) <= 390, text
        shot(pg, "phone-long-play-" + text.split("%20")[0].split(":")[0])
        assert_no_sideways_scroll(pg, "Play, " + text)

    # a heap whose moves cannot be listed: the message in a red box
    pg.goto(pg.base + f"#/play?sum=nim%20{BIG}")
    expect(pg.get_by_test_id("error")).to_contain_text("too many moves")
    assert_no_sideways_scroll(pg, "Play, nim 10^30")


def test_a_long_named_graph_fits_a_phone(phone, shot):
    pg = phone
    name = "a_graph_with_a_rather_long_file_name_that_has_no_spaces.txt"
    far = "the_vertex_at_the_end_of_a_very_long_path_" + "0" * 30
    pg.goto(pg.base + "#/owngame")
    pg.get_by_test_id("own-name").fill(name)
    pg.get_by_test_id("own-text").fill(f"start {far}\nstart b\nb {far}\n")
    pg.get_by_test_id("own-position").fill("start")
    pg.get_by_test_id("own-save").click()
    expect(pg.get_by_test_id("own-ok")).to_contain_text(f"dag:{name} start")
    expect(pg.get_by_test_id("own-saved")).to_contain_text(name)
    shot(pg, "phone-long-owngame")
    assert_no_sideways_scroll(pg, "Your game, a long file name")

    pg.get_by_test_id("own-analyse").click()
    expect(pg.get_by_test_id("winner")).to_be_visible()
    assert right_edge(pg.get_by_test_id("components")) <= 390
    assert_no_sideways_scroll(pg, "Analyse, a long file name")

    pg.goto(pg.base + f"#/play?sum=dag:{name}%20start")
    expect(pg.locator("svg.graph")).to_be_visible()
    # the long vertex is drawn cut short, whole in its tooltip and in the moves
    expect(pg.locator("svg.graph .vertex text", has_text="the_verte…")).to_have_count(1)
    expect(pg.locator("svg.graph .vertex title")).to_have_text([far])
    expect(pg.get_by_test_id("play-move").filter(has_text=far)).to_have_count(1)
    shot(pg, "phone-long-play-graph")
    assert_no_sideways_scroll(pg, "Play, a long file name and vertex")


# The boxes of the plot's axis labels: those left of the y axis, and those
# under the x axis, in the page's pixels.
AXIS_LABELS = """() => {
  const svg = document.querySelector('.seq-svg');
  const plot = svg.getBoundingClientRect();
  const axis = svg.querySelectorAll('.axes > line')[1].getBoundingClientRect();
  const boxes = [...svg.querySelectorAll('.axes > text:not(.axis-title)')].map((t) => t.getBoundingClientRect());
  return {
    plotLeft: plot.left,
    y: boxes.filter((b) => b.right <= axis.left + 1).map((b) => [b.left, b.right]),
    x: boxes.filter((b) => b.top > axis.bottom - 1).map((b) => [b.left, b.right]),
  };
}"""


def test_ten_digit_values_label_a_phone_plot(phone, shot):
    # nim's values near 10^9 have ten digits (thirteen with separators)
    pg = phone
    pg.goto(pg.base + "#/sequence?game=nim&from=1000000000&to=1000000200")
    expect(pg.get_by_test_id("seq-done")).to_contain_text("201 heaps")
    expect(pg.locator(".seq-svg .axes text", has_text="1,000,000,000").first).to_be_visible()
    labels = pg.evaluate(AXIS_LABELS)
    assert len(labels["y"]) >= 3, labels
    # every y label is whole inside the plot
    assert all(left >= labels["plotLeft"] for left, _ in labels["y"]), labels
    # the x labels do not run into each other
    xs = sorted(labels["x"])
    assert len(xs) >= 2, labels
    assert all(a[1] <= b[0] for a, b in zip(xs, xs[1:])), labels
    shot(pg, "phone-ten-digit-values")
    assert_no_sideways_scroll(pg, "Sequence, nim near 10^9")
