"""Language switch, Boards -> Analyse, Explain."""
from playwright.sync_api import expect


def test_switch_to_chinese_and_back(page, shot):
    page.goto(page.base + "#/analyse?sum=nim%203%205%207")
    expect(page.get_by_test_id("winner")).to_have_text("First player wins")
    page.get_by_test_id("lang-switch").click()
    expect(page.get_by_test_id("nav-analyse")).to_have_text("分析")
    expect(page.get_by_test_id("nav-owngame")).to_have_text("自定义游戏")
    expect(page.get_by_test_id("winner")).to_have_text("先手必胜")
    expect(page.get_by_test_id("nimsum-work")).to_contain_text("奇数")
    shot(page, "analyse-zh")
    # The language is remembered across a reload. The old document is marked,
    # so that the checks below wait for the new one: a hash navigation sent
    # while the reload is still pending is lost when the reload commits.
    page.evaluate("document.body.dataset.stale = '1'")
    page.reload()
    page.wait_for_function("document.body && !document.body.dataset.stale")
    expect(page.get_by_test_id("nav-play")).to_have_text("对弈")
    expect(page.get_by_test_id("winner")).to_have_text("先手必胜")
    page.goto(page.base + "#/explain?game=sub:1-3&position=5")
    expect(page.locator("#page")).to_have_attribute("data-page", "explain")
    expect(page.get_by_test_id("mex-text").first).to_have_text("后继局面的值为 {0, 2, 3}，所以 mex = 1。")
    shot(page, "explain-zh")
    page.get_by_test_id("lang-switch").click()
    expect(page.get_by_test_id("nav-play")).to_have_text("Play")


def test_chinese_browser_gets_chinese(browser, server):
    context = browser.new_context(locale="zh-CN")
    pg = context.new_page()
    pg.goto(server)
    expect(pg.get_by_test_id("nav-analyse")).to_have_text("分析")
    context.close()


def test_knight_cell_opens_analyse(page, shot):
    page.goto(page.base + "#/boards")
    expect(page.get_by_test_id("cell-3-4").first).to_have_text("4")
    shot(page, "boards")
    page.locator("[data-testid=knight-board] [data-testid=cell-3-4]").click()
    expect(page.get_by_test_id("sum-input")).to_have_value("knight:8 3,4")
    expect(page.get_by_test_id("component-value")).to_have_text("4")
    page.go_back()
    page.locator("[data-testid=choco-board] [data-testid=cell-2-4]").click()
    expect(page.get_by_test_id("sum-input")).to_have_value("choco 3x5")
    expect(page.get_by_test_id("winner")).to_have_text("Second player wins")


def test_explain_shows_mex_and_opens_options(page, shot):
    page.goto(page.base + "#/explain")
    expect(page.get_by_test_id("mex-text").first).to_contain_text("mex = 1")
    page.get_by_role("button", name="Take 1–3 from piles 3, 4, 5").click()
    expect(page.get_by_test_id("explain-tree")).to_have_count(3)
    expect(page.get_by_test_id("first-values")).to_contain_text("G(n)")
    # open 4 -> 3, then explain 3 in turn
    tree = page.get_by_test_id("explain-tree").nth(1)
    expect(tree.get_by_test_id("mex-text")).to_have_text("The options have values {1, 2, 3}, so mex = 0.")
    tree.locator("summary", has_text="4 -> 3").click()
    expect(tree.locator("details.node details.node").get_by_test_id("mex-text")).to_have_text("The options have values {0, 1, 2}, so mex = 3.")
    shot(page, "explain")
    page.get_by_test_id("analyse-sum").click()
    expect(page.get_by_test_id("sum-input")).to_have_value("sub:1-3 3 4 5")
    expect(page.get_by_test_id("winning-move")).to_have_count(3)


def test_explain_a_split(page):
    page.goto(page.base + "#/explain?game=kayles&position=4")
    tree = page.get_by_test_id("explain-tree")
    tree.locator("summary", has_text="4 -> 1 + 1").click()
    expect(tree).to_contain_text("1 ⊕ 1 = 0")


def test_explain_treblecross_leaves_out_win_options(page):
    page.goto(page.base + "#/explain?game=treblecross&position=..X......")
    expect(page.get_by_test_id("mex-text")).to_contain_text("the other options have values {0, 1}, so mex = 2")
