"""The bar as a visitor uses it past the first search: results scrolled under a bar that stays at
the top, a touch that scrolls the page, Tab and Esc with the focus outside the bar, the field
focused again after "Show more", a right-to-left scope bar, facet values that are numbers, and the
terms a page opened from a result marks. Each test failed before the fix it was written for.
"""
import re

from playwright.sync_api import expect

import siftsite

from siftsite import WIDGETS, WIDGETS_YML
# A page of links after its text, for the panel's Tab, and of paragraphs to scroll.
ABOUT = "# About\n\nA page with the search panel in its header.\n\n" + "\n\n".join(
    f"[Link {i}](/widgets/widget-{i:03}/) and a paragraph about widgets and other things." for i in range(1, 60))


def site(site_yml: str = "", **extra) -> dict:
    return {
        "Content/site.yml": "title: In use\n" + site_yml,
        "Content/widgets/widgets.csv": WIDGETS, "Content/widgets/collection.yml": WIDGETS_YML,
        "Content/about.md": ABOUT, **extra,
    }


def status(page):
    return page.get_by_role("status")


def shown_rows(page):
    return page.locator("[data-sift-list=widgets]:not([data-sift-off]) > li")


def widgets_searched_and_moved_down(browser, url, width, height):
    """A page of its own at `width` × `height` on the widgets list, `widget` searched and ↓
    pressed 30 times, the page scrolled with the selection; the context, page and field."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(url + "/widgets/")
    box = page.get_by_role("searchbox")
    box.fill("widget")
    expect(status(page)).to_have_text("130 results")
    for _ in range(30):
        box.press("ArrowDown")
    return context, page, box


def test_the_active_bar_stays_at_the_top_while_the_results_scroll(browser):
    """The bar, its scopes and Cancel stay in view as ↓ moves down the results, and a row ↑ moves
    back to is brought out from under them, at a phone's width and a desktop's."""
    with siftsite.served_fixture(site(), "sift-use-pinned-") as (server, _):
        for width in (390, 1280):
            context, page, box = widgets_searched_and_moved_down(browser, server.url, width, 700)
            page.wait_for_timeout(300)
            assert page.evaluate("scrollY") > 500
            for control in [box, page.get_by_role("button", name="Cancel"), page.get_by_role("radio", name=re.compile("^Round"))]:
                top = control.bounding_box()["y"]
                assert 0 <= top < 150, (width, top)
            for _ in range(25):
                box.press("ArrowUp")
            page.wait_for_timeout(300)
            selected = page.locator("[data-sift-list=widgets] [data-active]")
            expect(selected).to_have_text(re.compile("Widget 005"))
            bar_bottom = page.get_by_role("search").bounding_box()
            assert selected.bounding_box()["y"] >= bar_bottom["y"] + bar_bottom["height"] - 1, (width, selected.bounding_box(), bar_bottom)
            # With the facets open, the bar stays within half the screen: the facets scroll inside it.
            page.locator("summary", has_text=re.compile("^Color$")).click()
            assert page.get_by_role("search").bounding_box()["height"] < 350
            context.close()


def test_a_touch_that_scrolls_the_page_keeps_the_panels_search(browser):
    """On a phone, a finger dragged to scroll the page under the panel neither cancels the
    search nor empties the field; a tap elsewhere still does."""
    with siftsite.served_fixture(site(), "sift-use-touch-") as (server, _):
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.add_init_script("window.touches = 0; addEventListener('pointerdown', (event) => event.pointerType == 'touch' && touches++, true)")
        page.goto(server.url + "/about/")
        box = page.get_by_role("combobox")
        box.tap()
        box.press_sequentially("widget 12")
        expect(page.get_by_role("option").first).to_be_visible()
        panel = page.locator(".sift-pop").bounding_box()
        below = int(panel["y"] + panel["height"] + 60)
        context.new_cdp_session(page).send("Input.synthesizeScrollGesture", {
            "x": 200, "y": below, "yDistance": -300, "gestureSourceType": "touch", "speed": 800})
        page.wait_for_timeout(500)
        # Headless Chromium does not move the page for a synthetic touch; the touch is the point.
        assert page.evaluate("touches") > 0
        expect(box).to_have_value("widget 12")
        expect(page.get_by_role("search")).to_have_attribute("data-active", "")
        page.touchscreen.tap(200, 800)
        expect(page.get_by_role("search")).not_to_have_attribute("data-active", "")
        expect(box).to_have_value("")
        context.close()


def test_tab_out_of_the_panel_closes_it(page):
    """Tab past the panel's results to the page's links closes the panel, which covered them."""
    with siftsite.served_fixture(site(), "sift-use-tab-") as (server, _):
        page.goto(server.url + "/about/")
        box = page.get_by_role("combobox")
        box.click()
        box.press_sequentially("wid")
        expect(page.get_by_role("option").first).to_be_visible()
        # Clear, Cancel, the results, then the page's first link after the bar.
        for _ in range(3):
            page.keyboard.press("Tab")
            expect(page.get_by_role("search")).to_have_attribute("data-active", "")
        page.keyboard.press("Tab")
        expect(page.get_by_role("search")).not_to_have_attribute("data-active", "")
        expect(page.locator(".sift-pop")).to_be_hidden()
        assert page.evaluate("!document.activeElement.closest('form')")


def test_esc_cancels_with_the_focus_outside_the_bar(page):
    """Esc cancels a search restored from the URL (the focus on the page) and one whose "Show
    more" has the focus, on a list and on a page with the panel."""
    with siftsite.served_fixture(site(), "sift-use-esc-") as (server, _):
        for path in ["/about/?q=widget", "/widgets/?q=widget"]:
            page.goto(server.url + path)
            expect(status(page)).to_have_text(re.compile(r"^13\d results$"))
            expect(page.get_by_role("search")).to_have_attribute("data-active", "")
            page.keyboard.press("Escape")
            expect(page.get_by_role("search")).not_to_have_attribute("data-active", "")
            expect(page).to_have_url(server.url + path.split("?")[0])
        page.get_by_role("searchbox").fill("widget")
        page.get_by_role("button", name="Show more").dispatch_event("click")
        expect(shown_rows(page)).to_have_count(100)
        page.get_by_role("button", name="Show more").focus()
        page.keyboard.press("Escape")
        expect(page.get_by_role("search")).not_to_have_attribute("data-active", "")
        expect(page.locator("[data-sift-list=widgets]").first).to_be_visible()
        expect(shown_rows(page)).to_have_count(130)


def test_the_field_focused_again_keeps_the_rows_shown(page):
    """Back in the field after "Show more", the rows it added and the selection stay, and no
    second answer is announced."""
    with siftsite.served_fixture(site(), "sift-use-refocus-") as (server, _):
        page.add_init_script("window.answers = 0; document.addEventListener('sift:results', () => window.answers++)")
        page.goto(server.url + "/widgets/")
        box = page.get_by_role("searchbox")
        box.fill("widget")
        expect(status(page)).to_have_text("130 results")
        page.get_by_role("button", name="Show more").dispatch_event("click")
        expect(shown_rows(page)).to_have_count(100)
        answers = page.evaluate("answers")
        box.click()
        box.press("ArrowDown")
        box.blur()
        box.focus()
        page.wait_for_timeout(300)
        expect(shown_rows(page)).to_have_count(100)
        expect(box).to_have_attribute("aria-activedescendant", re.compile("."))
        assert page.evaluate("answers") == answers


def test_scope_arrows_follow_the_text_direction(page):
    """In a right-to-left site the scope bar runs from the right: ← goes on to the next scope and
    → back, as native radio buttons do; ↓ and ↑ go on and back in either direction."""
    with siftsite.served_fixture(site("language: ar\n"), "sift-use-rtl-") as (server, _):
        page.goto(server.url + "/widgets/")
        page.get_by_role("searchbox").click()
        radios = page.get_by_role("radio")
        expect(radios).to_have_count(3)
        assert radios.nth(0).bounding_box()["x"] > radios.nth(1).bounding_box()["x"]
        radios.first.focus()
        checked = page.locator("[role=radio][aria-checked=true]")
        page.keyboard.press("ArrowLeft")
        expect(checked).to_have_text(re.compile("^Round"))
        page.keyboard.press("ArrowDown")
        expect(checked).to_have_text(re.compile("^Square"))
        page.keyboard.press("ArrowRight")
        expect(checked).to_have_text(re.compile("^Round"))
        page.keyboard.press("ArrowUp")
        expect(checked).to_have_text(re.compile("^All"))
        assert page.evaluate("scrollY") == 0
        # Past either end, round to the other, as native radio buttons (and WAI-ARIA's radio group) go.
        page.keyboard.press("ArrowUp")
        expect(checked).to_have_text(re.compile("^Square"))
        expect(page.locator("[role=radio]:focus")).to_have_text(re.compile("^Square"))
        page.keyboard.press("ArrowLeft")
        expect(checked).to_have_text(re.compile("^All"))


def test_facet_values_that_are_numbers_are_listed_in_order(page):
    """Numbers first, as numbers (negative, decimal, zero-padded and past 2^32 among them), then
    text, as `sift search` and configuration.md list them."""
    rows = [("4.5", "007"), ("3", "10"), ("5", "2"), ("4", "-1"), ("-1", "1"), ("10", "x"), ("3.5", "5000000000")]
    csv = "name,rating,code\n" + "".join(f"Item {i},{r},{c}\n" for i, (r, c) in enumerate(rows))
    files = {"Content/site.yml": "title: Facets\n", "Content/things/things.csv": csv,
             "Content/things/collection.yml": "title_field: name\nfacets: [rating, code]\n"}
    with siftsite.served_fixture(files, "sift-use-numbers-") as (server, built):
        page.goto(server.url + "/things/")
        page.get_by_role("searchbox").click()
        for field in ["rating", "code"]:
            expected = list(siftsite.search(built, "", collection="things")["facets"][field])
            labels = page.locator(f"fieldset[aria-label={field.capitalize()}] label")
            expect(labels).to_have_count(len(expected))
            assert [text.rsplit(" ", 1)[0] for text in labels.all_text_contents()] == expected
        assert expected == ["-1", "1", "2", "007", "10", "5000000000", "x"]


def test_a_page_opened_from_a_result_leaves_one_and_two_letter_terms_unmarked(page):
    """As excerpts do: `a` marked every a of the page; a longer term of the same query is marked."""
    page_md = "---\ntitle: Widget notes\n---\n\nA page about a widget and its parts, as a catalogue has it.\n"
    with siftsite.served_fixture(site(**{"Content/notes.md": page_md}), "sift-use-marks-") as (server, _):
        page.goto(server.url + "/notes/?mark=a")
        page.wait_for_url(server.url + "/notes/")
        expect(page.locator("main mark")).to_have_count(0)
        page.goto(server.url + "/notes/?mark=a%20catalogue")
        expect(page.locator("main mark")).to_have_text(["catalogue"])


def test_back_without_the_back_forward_cache_shows_the_rows_and_the_place_left(page):
    """Back to a list's search that "Show more" had lengthened and the visitor had scrolled: the
    page is loaded again (Playwright's Chromium keeps no back-forward cache), searches again, and
    shows as many rows as before, scrolled where they were, not 50 rows at the top."""
    with siftsite.served_fixture(site(), "sift-use-back-") as (server, _):
        page.goto(server.url + "/widgets/")
        page.get_by_role("searchbox").fill("widget")
        expect(status(page)).to_have_text("130 results")
        page.get_by_role("button", name="Show more").dispatch_event("click")
        expect(shown_rows(page)).to_have_count(100)
        row = shown_rows(page).nth(80)
        row.scroll_into_view_if_needed()
        page.evaluate("scrollBy(0, 100)")
        page.wait_for_timeout(300)
        left, shown = page.evaluate("scrollY"), shown_rows(page).count()
        assert left > 2000 and shown > 50
        row.get_by_role("link").click()
        page.wait_for_url(re.compile(r"/widgets/widget-\d+/"))
        page.go_back()
        expect(page).to_have_url(server.url + "/widgets/?q=widget")
        expect(status(page)).to_have_text("130 results")
        expect(shown_rows(page)).to_have_count(shown)
        page.wait_for_function(f"Math.abs(scrollY - {left}) < 40")
        # Cancel, then away and Back: the list as it was, at the top, with no search.
        page.get_by_role("button", name="Cancel").click()
        page.evaluate("scrollTo(0, 0)")
        shown_rows(page).first.get_by_role("link").click()
        page.wait_for_url(re.compile(r"/widgets/widget-\d+/"))
        page.go_back()
        expect(page.get_by_role("search")).not_to_have_attribute("data-active", "")
        assert page.evaluate("scrollY") == 0



ROWS_WITH_IDS = open(siftsite.REPO / "Sources/SiftKit/Resources/list.mustache").read().replace(
    '<li class="row" data-sift-item="{{slug}}"><a href="{{url}}"><span class="row-title">',
    '<li class="row" id="w-{{slug}}" data-sift-item="{{slug}}"><a href="{{url}}" aria-labelledby="t-{{slug}}"><span class="row-title" id="t-{{slug}}">')


def test_a_themes_ids_in_rows_are_not_repeated_by_the_results(page):
    """A theme whose rows carry ids (anchors, a label named by `aria-labelledby`): the results,
    copies of the page's rows, carried them too, each id then twice in the page. The copies leave
    them to the rows, whose labels still name the copies' links."""
    assert 'id="w-{{slug}}"' in ROWS_WITH_IDS
    with siftsite.served_fixture(site(**{"Templates/list.mustache": ROWS_WITH_IDS}), "sift-use-ids-") as (server, _):
        page.goto(server.url + "/widgets/")
        page.get_by_role("searchbox").fill("widget 1")
        expect(status(page)).to_have_text(re.compile(r"^\d+ results$"))
        expect(shown_rows(page).first).to_be_visible()
        repeated = page.evaluate("() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id); return ids.filter((id, i) => ids.indexOf(id) != i) }")
        assert repeated == []
        expect(shown_rows(page).first.get_by_role("link")).to_have_accessible_name(re.compile(r"^Widget 1"))


def test_back_to_a_panel_shows_the_results_show_more_had_added(page):
    """Back from the 31st result of a panel that "Show more results" had lengthened: the panel
    showed its first 20 again, the result left out of them; it shows the 40 it showed."""
    with siftsite.served_fixture(site(), "sift-use-panel-back-") as (server, _):
        page.goto(server.url + "/about/")
        page.get_by_role("combobox", name="Search").fill("widget")
        expect(status(page)).to_have_text(re.compile(r"^\d{3} results$"))
        total = status(page).text_content()
        results = page.locator("[role=option][href]")
        expect(results).to_have_count(20)
        page.get_by_role("option", name="Show more results").click()
        expect(results).to_have_count(40)
        left = results.nth(30).get_attribute("href")
        results.nth(30).click()
        page.wait_for_url(re.compile(r"/widgets/widget-\d+/"))
        page.go_back()
        expect(page).to_have_url(server.url + "/about/?q=widget")
        expect(status(page)).to_have_text(total)
        expect(results).to_have_count(40)
        expect(results.nth(30)).to_have_attribute("href", left)


def test_a_link_followed_while_the_address_waits_leaves_the_search_for_back(page):
    """The address takes the search once typing pauses (300 ms): a link of the site's header
    followed sooner left the page's history entry without it, and Back opened the list with no
    search. The page saves it as it goes."""
    with siftsite.served_fixture(site("search:\n  hide_navigation: false\n"), "sift-use-leave-") as (server, _):
        page.goto(server.url + "/widgets/")
        page.get_by_role("searchbox").fill("widget 12")
        expect(status(page)).to_have_text(re.compile(r"^\d+ results?$"))
        page.locator("[data-sift-header] a[href]").first.click()
        page.wait_for_url(lambda url: "/widgets/" not in url)
        page.go_back()
        expect(page).to_have_url(server.url + "/widgets/?q=widget+12")
        expect(page.get_by_role("searchbox")).to_have_value("widget 12")

# A list template of the site's own with the bar after the list, and one with the bar in <main>
# beside the list (its host then holds the list: it must not stick).
BAR_AFTER = "{{< layout}}\n{{$ main}}\n<ul class=\"list\" data-sift-list=\"{{collection.name}}\">\n{{#items}}<li class=\"row\" data-sift-item=\"{{slug}}\"><a href=\"{{url}}\"><span class=\"row-title\">{{title}}</span></a></li>\n{{/items}}</ul>\n{{> search}}\n{{/ main}}\n{{/ layout}}\n"
BAR_IN_MAIN = BAR_AFTER.replace("{{$ main}}\n<ul", "{{$ main}}\n{{> search}}\n<ul").replace("</ul>\n{{> search}}\n", "</ul>\n")


def test_a_keyboard_click_after_a_press_elsewhere_keeps_the_panels_search(page):
    """Enter on a selected option, after the mouse had pressed the page outside the bar, opens it
    with the search kept for Back; Clear of the recent searches keeps the panel open."""
    with siftsite.served_fixture(site(), "sift-use-keyclick-") as (server, _):
        page.goto(server.url + "/about/")
        page.locator("main p").first.click()
        page.keyboard.press("/")
        box = page.get_by_role("combobox")
        box.press_sequentially("widget 12")
        expect(page.get_by_role("option").first).to_be_visible()
        box.press("ArrowDown")
        box.press("Enter")
        page.wait_for_url(re.compile(r"/widgets/widget-\d+/"))
        page.go_back()
        expect(box).to_have_value("widget 12")
        # A recent search kept, then the field emptied: the empty state's Clear keeps the bar.
        box.press("Enter")
        page.get_by_role("button", name="Clear", exact=True).first.click()
        expect(page.get_by_role("button", name="widget 12")).to_be_visible()
        page.locator(".sift-h button").click()
        expect(page.get_by_role("button", name="widget 12")).to_have_count(0)
        expect(page.get_by_role("search")).to_have_attribute("data-active", "")


def test_esc_in_a_dialog_or_another_bar_leaves_the_lists_search(page):
    """Esc that closes a dialog of the site, or the header's panel, is theirs: the list's search stays."""
    # The header's panel on the list page too (the built-in layout has it on every other page).
    layout_header = (siftsite.REPO / "Sources/SiftKit/Resources/layout.mustache").read_text().replace(
        "{{^page.is_list}}\n{{> search}}\n{{/page.is_list}}", '<div data-sift-search data-index="{{search.index}}" data-hide-navigation="false"></div>')
    files = site("search:\n  hide_navigation: false\n", **{"Templates/layout.mustache": layout_header})
    with siftsite.served_fixture(files, "sift-use-esc-other-") as (server, _):
        page.goto(server.url + "/widgets/")
        box = page.get_by_role("searchbox")
        box.fill("widget")
        expect(status(page).last).to_have_text("130 results")
        page.evaluate("""() => { const d = document.createElement('dialog'); d.append(document.createElement('input')); document.body.append(d); d.showModal(); d.querySelector('input').focus(); }""")
        page.keyboard.press("Escape")
        expect(page.locator("dialog[open]")).to_have_count(0)
        expect(box).to_have_value("widget")
        header = page.get_by_role("combobox", name="Search")
        header.click()
        header.press_sequentially("wid")
        header.press("Escape")
        expect(header).to_have_value("")
        expect(box).to_have_value("widget")
        expect(shown_rows(page)).to_have_count(50)


def test_the_bar_sticks_only_where_nothing_is_covered(browser):
    """With hide_navigation: false the site header stays where the theme puts it, and a host that
    holds the list too (a template of the site's own) does not stick: the dimmed page still takes
    the click that cancels."""
    with siftsite.served_fixture(site("search:\n  hide_navigation: false\n  dim_background: true\n",
                                      **{"Templates/widgets/list.mustache": BAR_IN_MAIN}), "sift-use-nostick-") as (server, _):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(server.url + "/widgets/")
        box = page.get_by_role("searchbox")
        box.click()
        expect(page.locator("html")).to_have_attribute("data-sift-dim", "")
        page.mouse.click(640, 780)
        expect(page.get_by_role("search")).not_to_have_attribute("data-active", "")
        assert page.evaluate("getComputedStyle(document.querySelector('main')).position") != "sticky"
        context.close()
    with siftsite.served_fixture(site("search:\n  hide_navigation: false\n"), "sift-use-header-") as (server, _):
        context, page, _ = widgets_searched_and_moved_down(browser, server.url, 1280, 800)
        title = page.locator(".site-header a").first.bounding_box()
        covering = page.evaluate(f"document.elementFromPoint({title['x'] + title['width'] / 2}, {title['y'] + title['height'] / 2}).closest('[data-sift-header]') != null")
        assert covering, "the site header's link is covered"
        context.close()


def test_down_keeps_the_selected_row_in_view_with_the_bar_after_the_list(page):
    """Judged once the site header has slid away (0.25 s, from the first keystroke): a row
    scrolled to while the header above it still moves ends a pixel or two above the top (CI)."""
    with siftsite.served_fixture(site(**{"Templates/widgets/list.mustache": BAR_AFTER}), "sift-use-after-") as (server, _):
        page.goto(server.url + "/widgets/")
        box = page.get_by_role("searchbox")
        box.fill("widget 1")
        expect(status(page)).to_have_text(re.compile(r"^\d+ results$"))
        page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")
        for _ in range(12):
            box.press("ArrowDown")
            selected = page.locator("[data-sift-list=widgets] [data-active]").bounding_box()
            assert -1 <= selected["y"] and selected["y"] + selected["height"] <= 901, selected


def test_arrival_marks_judge_a_terms_length_folded(page):
    """`à` and full-width `ＡＢ` fold to one and two ASCII letters: left unmarked as `a` is."""
    page_md = "---\ntitle: Widget notes\n---\n\nA page about a widget and its parts, as a catalogue has it; ab initio.\n"
    with siftsite.served_fixture(site(**{"Content/notes.md": page_md}), "sift-use-folded-") as (server, _):
        page.goto(server.url + "/notes/?mark=%C3%A0%20%EF%BC%A1%EF%BC%A2%20catalogue")
        expect(page.locator("main mark")).to_have_text(["catalogue"])


def test_arrival_marks_and_the_excerpt_show_a_term_found_in_a_joined_word(page):
    """`hardcrack` finds a page that says `hard-crack` (joined words, docs/search-index.md): its
    result's excerpt showed the page's first sentence with nothing marked, and the page opened
    from it marked nothing."""
    notes = "---\ntitle: Candy notes\n---\n\nSugar boils slowly. Much later it reaches the hard-crack stage, and then it sets.\n"
    with siftsite.served_fixture(site(**{"Content/notes.md": notes}), "sift-use-joined-") as (server, _):
        page.goto(server.url + "/notes/?mark=hardcrack")
        expect(page.locator("main mark")).to_have_text(["hard-crack"])
        page.goto(server.url + "/about/")
        box = page.get_by_role("combobox")
        box.fill("hardcrack")
        expect(page.get_by_role("option").first).to_contain_text("Candy notes")
        expect(page.locator(".sift-e mark").first).to_have_text("hard-crack")


def test_arrival_marks_what_a_typo_or_a_long_chinese_term_matched(page):
    """`choclate` matched its title by a typo: the page's words within its edits (2 from 8 code points) are marked (and no
    other). A long Chinese term is found by its pairs: each pair is marked."""
    chocolate = "---\ntitle: Chocolate Bar\n---\n\nA bar of chocolate, chocolates and a chocolatier's cocoa.\n"
    chmod = "---\ntitle: 命令\n---\n\n这个命令改变文件的访问权限。\n"
    with siftsite.served_fixture(site(**{"Content/chocolate.md": chocolate, "Content/chmod.md": chmod}), "sift-use-typo-marks-") as (server, _):
        page.goto(server.url + "/chocolate/?mark=choclate")
        expect(page.locator("main mark")).to_have_text(["Chocolate", "chocolate", "chocolates"])
        # A term holding a CJK code point (〜, CJK punctuation) is looked for with no typos: its words go unmarked.
        page.goto(server.url + "/chocolate/?mark=choc%E3%80%9Clate%20cocoa")
        expect(page.locator("main mark")).to_have_text(["cocoa"])
        page.goto(server.url + "/chmod/?mark=" + "改变文件权限")
        expect(page.locator("main mark")).to_have_text(["改变文件", "权限"])


def test_a_window_resized_while_searching_lays_out_as_a_search_started_at_its_size(page, server):
    """The site header slides away by its height, measured when the search started: a phone
    turned while searching left the first rows under the bar (portrait to landscape) or a blank
    band above it (landscape to portrait), until the next search."""
    def layout():
        # A resize is told at the next frame; the header's slide follows it.
        page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")
        form = page.locator("form[role=search]").bounding_box()
        first = page.locator("[data-sift-list=candies] > li:visible").first.bounding_box()
        return round(form["y"]), round(first["y"])

    for start, end in (({"width": 375, "height": 667}, {"width": 667, "height": 375}), ({"width": 667, "height": 375}, {"width": 375, "height": 667})):
        page.set_viewport_size(end)
        page.goto(server.url + "/candies/")
        page.get_by_role("searchbox").fill("a")
        expect(status(page)).to_have_text(re.compile(r"^\d+ results$"))
        fresh = layout()
        page.set_viewport_size(start)
        page.goto(server.url + "/candies/")
        page.get_by_role("searchbox").fill("a")
        expect(status(page)).to_have_text(re.compile(r"^\d+ results$"))
        layout()
        page.set_viewport_size(end)
        assert layout() == fresh, f"{start} to {end}"


def test_up_keeps_the_selected_row_out_from_under_a_sticky_site_header(page):
    """With `hide_navigation: false` the theme's header stays at the top while the rows scroll:
    ↑ brought rows out from under the bar only, and left them under the header."""
    with siftsite.served_fixture(site("search:\n  hide_navigation: false\n"), "sift-use-sticky-") as (server, _):
        page.set_viewport_size({"width": 1280, "height": 700})
        page.goto(server.url + "/widgets/")
        box = page.get_by_role("searchbox")
        box.fill("widget")
        expect(status(page)).to_have_text("130 results")
        page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")
        for _ in range(30):
            box.press("ArrowDown")
        header = page.locator("[data-sift-header]").bounding_box()
        for _ in range(20):
            box.press("ArrowUp")
            selected = page.locator("[data-sift-list=widgets] [data-active]").bounding_box()
            assert selected["y"] >= header["y"] + header["height"] - 1, (selected, header)


def test_a_panels_search_left_by_a_link_of_the_header_is_there_for_back(page):
    """A panel's search, then a link of the site's header: the press outside the bar cancelled
    the search as the page went, and Back opened it at rest, where a list's search comes back."""
    with siftsite.served_fixture(site("search:\n  hide_navigation: false\n"), "sift-use-panel-leave-") as (server, _):
        page.goto(server.url + "/about/")
        box = page.get_by_role("combobox")
        box.press_sequentially("widget 12")
        expect(page.get_by_role("option").first).to_be_visible()
        page.locator(".site-nav a[href]").first.click()
        page.wait_for_url(lambda url: "/about/" not in url)
        page.go_back()
        expect(page).to_have_url(server.url + "/about/?q=widget+12")
        expect(box).to_have_value("widget 12")
        expect(page.get_by_role("option").first).to_be_visible()
        # A press elsewhere still closes the panel.
        page.locator("main p").first.click()
        expect(box).to_have_value("")
        expect(page).to_have_url(server.url + "/about/")


def test_back_back_and_forward_keep_the_panels_row_where_it_was(page):
    """Back to a panel scrolled to a row, then Forward and Back again (each page loaded again, no
    back-forward cache): the second Back showed the panel at its top, the row opened forgotten
    once the page had been loaded again."""
    with siftsite.served_fixture(site(), "sift-use-panel-twice-") as (server, _):
        page.goto(server.url + "/about/")
        box = page.get_by_role("combobox", name="Search")
        box.fill("widget")
        results = page.locator("[role=option][href]")
        expect(results).to_have_count(20)
        page.get_by_role("option", name="Show more results").click()
        expect(results).to_have_count(40)
        listbox = page.get_by_role("listbox")
        listbox.evaluate("l => l.scrollTop = 400")
        page.wait_for_timeout(200)
        href, top = page.evaluate("""(() => { const r = document.querySelector('[role=listbox]').getBoundingClientRect();
            const a = document.elementFromPoint(r.left + 40, (r.top + Math.min(r.bottom, innerHeight)) / 2).closest('a');
            const top = a.getBoundingClientRect().top; a.click(); return [a.getAttribute('href'), top]; })()""")
        page.wait_for_url(re.compile(r"/widgets/widget-\d+/"))
        for step in ("back", "forward", "back"):
            page.go_back() if step == "back" else page.go_forward()
        expect(page).to_have_url(server.url + "/about/?q=widget")
        link = page.locator(f'[role=option][href="{href}"]')
        expect(link).to_be_visible()
        page.wait_for_timeout(300)
        assert abs(link.evaluate("a => a.getBoundingClientRect().top") - top) < 10, (top, listbox.evaluate("l => l.scrollTop"))


def test_a_restored_search_does_not_scroll_a_page_the_visitor_has_moved(page):
    """Back to a list's search left scrolled down, the index slow to come: the visitor pressed
    Cancel (or typed) before it came, and once it came the page jumped to the place left."""
    with siftsite.served_fixture(site(), "sift-use-moved-") as (server, _):
        page.goto(server.url + "/widgets/")
        page.get_by_role("searchbox").fill("widget")
        expect(status(page)).to_have_text("130 results")
        page.evaluate("scrollTo(0, 1500)")
        page.wait_for_function("scrollY > 1000")
        page.wait_for_timeout(200)
        page.evaluate("document.elementFromPoint(innerWidth / 2, innerHeight / 2).closest('a').click()")
        page.wait_for_url(re.compile(r"/widgets/widget-\d+/"))
        held, holding = [], [True]
        page.route("**/search/manifest.json", lambda route: held.append(route) if holding else route.continue_())
        page.go_back()
        expect(page).to_have_url(server.url + "/widgets/?q=widget")
        page.wait_for_function("document.readyState == 'complete'")
        page.wait_for_timeout(200)
        assert held, "the index was asked for"
        page.get_by_role("button", name="Cancel").click()
        expect(page.get_by_role("searchbox")).to_have_value("")
        y = page.evaluate("scrollY")
        holding.clear()
        for route in held:
            route.continue_()
        page.wait_for_timeout(800)
        assert page.evaluate("scrollY") == y


def test_back_to_an_entry_of_the_same_page_leaves_the_address_with_the_search_shown(page):
    """A search, the skip link followed (an entry of the same page, `#main`), more typed, Back:
    the address went back to the first search while the field and rows kept the second, and a
    reload showed the first."""
    with siftsite.served_fixture(site(), "sift-use-fragment-") as (server, _):
        page.goto(server.url + "/widgets/")
        box = page.get_by_role("searchbox")
        box.fill("widget")
        expect(status(page)).to_have_text("130 results")
        page.wait_for_url(server.url + "/widgets/?q=widget")
        page.locator(".skip-link").focus()
        page.keyboard.press("Enter")
        page.wait_for_url(server.url + "/widgets/?q=widget#main")
        box.fill("widget 12")
        expect(status(page)).not_to_have_text("130 results")
        page.wait_for_url(server.url + "/widgets/?q=widget+12#main")
        page.go_back()
        page.wait_for_url(server.url + "/widgets/?q=widget+12")
        expect(box).to_have_value("widget 12")
        page.reload()
        expect(page.get_by_role("searchbox")).to_have_value("widget 12")


def test_a_search_left_by_a_link_keeps_its_place_in_the_history_entry_with_the_cache_on(browser):
    """With the back-forward cache: a list's search scrolled down, more typed, the site's title
    followed at once. The page went into the cache writing nothing (its pagehide may not), so the
    history entry held neither the last text nor the place, and once Chrome dropped the page from
    the cache (it keeps a few, for minutes) Back showed the older search at the top."""
    with siftsite.served_fixture(site("search:\n  hide_navigation: false\n"), "sift-use-cached-leave-") as (server, _):
        with siftsite.page_with_back_forward_cache(browser) as page:
            page.goto(server.url + "/widgets/")
            page.evaluate("window.kept = true")
            box = page.get_by_role("searchbox")
            box.fill("widget")
            expect(status(page)).to_have_text("130 results")
            box.press("End")
            box.press_sequentially(" 1")
            expect(status(page)).not_to_have_text("130 results")
            page.evaluate("scrollTo(0, 600)")
            page.wait_for_function("scrollY > 500")
            box.press("Backspace")
            box.press_sequentially("1")
            y = page.evaluate("(() => { const y = scrollY; document.querySelector('.site-title').click(); return y; })()")
            assert y > 100, y
            page.wait_for_url(server.url + "/")
            page.go_back(wait_until="commit")
            page.wait_for_function("location.pathname == '/widgets/'")
            assert page.evaluate("window.kept === true"), "the page came from the back-forward cache"
            kept = page.evaluate("history.state")
            assert kept and abs(kept["y"] - y) < 5 and kept["rows"] >= 50, (kept, y)
            page.wait_for_function("location.search == '?q=widget+1'")
