"""Options in combination, driven through the sequences a visitor makes: a search submitted and
more text typed but not submitted (`instant: false`), a row selected and the text changed, the
field focused with nothing typed on a page with the panel, Cancel with the scope bar always in
view, facets on a list without scopes. Each test failed before the fix it was written for.
"""
import json
import re
import subprocess

from playwright.sync_api import expect

import siftsite

from siftsite import COLORS, WIDGETS, WIDGETS_YML
# Facets and no scopes: every red gadget large, so Small and Red select nothing together.
GADGETS = "name,color,size\n" + "".join(f"Gadget {i},{COLORS[i % 3]},{'Large' if i % 3 == 0 else 'Small'}\n" for i in range(1, 11))
ABOUT = "# About\n\nA page with the search panel in its header.\n"


def site(search_yml: str) -> dict:
    return {
        "Content/site.yml": "title: Sequences\n" + ("search:\n" + search_yml if search_yml else ""),
        "Content/widgets/widgets.csv": WIDGETS, "Content/widgets/collection.yml": WIDGETS_YML,
        "Content/gadgets/gadgets.csv": GADGETS, "Content/gadgets/collection.yml": "title_field: name\nfacets: [color, size]\n",
        "Content/about.md": ABOUT,
    }


def sift_search(built, query, *args) -> dict:
    out = subprocess.run([siftsite.SIFT, "search", query, "--site", str(built.parent), "--json", *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def rows(page, collection="widgets"):
    return page.locator(f"[data-sift-list={collection}]").get_by_role("link")


def status(page):
    return page.get_by_role("status")


def submit(page, text):
    box = page.get_by_role("searchbox")
    box.fill(text)
    box.press("Enter")
    return box


def test_without_instant_search_more_rows_are_the_submitted_searchs(page):
    """Text typed after a search and not submitted is not what "Show more" adds rows of: it
    searched that text, said its count over the last search's rows, and hid the rest."""
    with siftsite.served_fixture(site("  instant: false\n"), "sift-seq-more-") as (server, built):
        page.goto(server.url + "/widgets/")
        box = submit(page, "widget")
        expect(status(page)).to_have_text("130 results")
        expect(rows(page)).to_have_count(50)
        box.press_sequentially(" 12")
        page.get_by_role("button", name="Show more").dispatch_event("click")
        expect(rows(page)).to_have_count(100)
        expect(status(page)).to_have_text("130 results")
        expect(page).to_have_url(re.compile(r"\?q=widget$"))
        # Enter searches what is typed.
        box.press("Enter")
        expect(status(page)).to_have_text(f"{sift_search(built, 'widget 12', '--collection', 'widgets')['total']} results")


def test_without_instant_search_a_scope_or_a_facet_searches_the_submitted_text(page):
    with siftsite.served_fixture(site("  instant: false\n"), "sift-seq-scope-") as (server, built):
        page.goto(server.url + "/widgets/")
        box = submit(page, "widget")
        expect(status(page)).to_have_text("130 results")
        box.press_sequentially(" 1")
        page.get_by_role("radio", name=re.compile("^Round")).click()
        round_ = sift_search(built, "widget", "--collection", "widgets", "--scope", "Round")
        expect(status(page)).to_have_text(f"{round_['total']} results")
        expect(rows(page)).to_have_count(50)
        expect(page).to_have_url(re.compile(r"\?q=widget&scope=Round$"))
        page.locator("summary", has_text=re.compile("^Color$")).click()
        page.get_by_role("checkbox", name=re.compile(r"^Red \d+$")).check()
        red = sift_search(built, "widget", "--collection", "widgets", "--scope", "Round", "--filter", "color=Red")
        expect(status(page)).to_have_text(f"{red['total']} results")
        expect(box).to_have_value("widget 1")


def test_without_instant_search_a_recent_search_picked_is_searched(page):
    with siftsite.served_fixture(site("  instant: false\n"), "sift-seq-recent-") as (server, built):
        page.goto(server.url + "/widgets/")
        box = submit(page, "widget 12")
        total = sift_search(built, "widget 12", "--collection", "widgets")["total"]
        expect(status(page)).to_have_text(f"{total} results")
        page.get_by_role("button", name="Clear").click()
        expect(rows(page)).to_have_count(130)
        page.get_by_role("button", name="widget 12", exact=True).click()
        expect(box).to_have_value("widget 12")
        expect(status(page)).to_have_text(f"{total} results")
        expect(rows(page)).to_have_count(total)


def test_a_key_typed_after_a_selection_lets_it_go_without_instant_search(page):
    """Enter after the text changed searches it, instead of opening the row selected for the last search."""
    with siftsite.served_fixture(site("  instant: false\n"), "sift-seq-select-") as (server, built):
        for path, role in [("/widgets/", "searchbox"), ("/about/", "combobox")]:
            page.goto(server.url + path)
            box = page.get_by_role(role)
            box.fill("widget 00")
            box.press("Enter")
            expect(status(page)).to_have_text(f"{sift_search(built, 'widget 00')['total']} results")
            box.press("ArrowDown")
            expect(box).to_have_attribute("aria-activedescendant", re.compile("."))
            box.press_sequentially("1")
            expect(box).not_to_have_attribute("aria-activedescendant", re.compile("."))
            box.press("Enter")
            total = sift_search(built, "widget 001")["total"]
            expect(status(page)).to_have_text(f"{total} result{'s' if total != 1 else ''}")
            expect(page).to_have_url(server.url + path + "?q=widget+001")


def test_a_panel_with_nothing_typed_has_no_options_to_open(page, server):
    """Focused with nothing typed, the panel shows the empty state: ↓ and Enter open nothing hidden."""
    page.goto(server.url + "/about/")
    box = page.get_by_role("combobox")
    box.click()
    expect(page.get_by_role("search")).to_have_attribute("data-active", "")
    box.press("ArrowDown")
    box.press("ArrowDown")
    expect(box).not_to_have_attribute("aria-activedescendant", re.compile("."))
    box.press("Enter")
    page.wait_for_timeout(300)
    assert page.url.startswith(server.url + "/about/"), page.url
    expect(page.locator("[role=option]")).to_have_count(0)
    # Typed, then emptied again: the options go with the text.
    box.press_sequentially("choc")
    expect(page.get_by_role("option").first).to_be_visible()
    box.fill("")
    expect(page.locator("[role=option]")).to_have_count(0)


def test_cancel_puts_a_scope_bar_always_in_view_back_at_rest(page):
    """The scope bar of `scope_bar: always` and its facets show the cancelled search's counts no more."""
    with siftsite.served_fixture(site("  scope_bar: always\n"), "sift-seq-always-") as (server, built):
        page.goto(server.url + "/widgets/")
        page.locator("summary", has_text=re.compile("^Color$")).click()
        red = page.get_by_role("checkbox", name=re.compile(r"^Red \d+$"))
        every = sift_search(built, "", "--collection", "widgets")["facets"]["color"]["Red"]
        expect(red).to_have_accessible_name(f"Red {every}")
        radios = page.get_by_role("radio")
        expect(radios).to_have_text(["All ", "Round ", "Square "])
        page.get_by_role("searchbox").fill("widget 1")
        counts = [sift_search(built, "widget 1", "--collection", "widgets", "--scope", scope) for scope in ["All", "Round", "Square"]]
        expect(radios).to_have_text([f"{scope} {answer['total']}" for scope, answer in zip(["All", "Round", "Square"], counts)])
        expect(red).to_have_accessible_name(f"Red {counts[0]['facets']['color']['Red']}")
        page.keyboard.press("Escape")
        expect(rows(page)).to_have_count(130)
        expect(radios).to_have_text(["All ", "Round ", "Square "])
        expect(red).to_have_accessible_name(f"Red {every}")


def test_facets_without_scopes_offer_no_empty_scope_bar_and_say_no_results_plainly(page):
    with siftsite.served_fixture(site(""), "sift-seq-gadgets-") as (server, built):
        page.goto(server.url + "/gadgets/")
        page.get_by_role("searchbox").click()
        # No scopes: no radio group, and no empty track where one would be.
        page.locator("summary", has_text=re.compile("^Size$")).click()
        expect(page.get_by_role("radiogroup")).to_have_count(0)
        expect(page.locator(".sift-scopes")).to_be_hidden()
        page.get_by_role("checkbox", name=re.compile(r"^Small \d+$")).check()
        small = sift_search(built, "", "--collection", "gadgets", "--filter", "size=Small")["total"]
        expect(status(page)).to_have_text(f"{small} results")
        # Values that select nothing together: "No results", not "No results for “”".
        assert sift_search(built, "", "--collection", "gadgets", "--filter", "size=Small", "--filter", "color=Red")["total"] == 0
        page.locator("summary", has_text=re.compile("^Color$")).click()
        page.get_by_role("checkbox", name=re.compile(r"^Red \d+$")).check()
        expect(status(page)).to_have_text("No results")


def test_keys_an_input_method_takes_are_left_to_it(page, server):
    """Enter that picks a candidate of a Chinese or Japanese input method opens no row and runs no
    search; Esc that drops one does not cancel (the keydown says isComposing)."""
    for path, role in [("/candies/", "searchbox"), ("/about/", "combobox")]:
        page.goto(server.url + path)
        box = page.get_by_role(role)
        box.fill("choc")
        expect(status(page)).to_have_text(re.compile(r"^\d+ results$"))
        box.press("ArrowDown")
        expect(box).to_have_attribute("aria-activedescendant", re.compile("."))
        for key in ["Enter", "Escape"]:
            box.evaluate("(el, key) => el.dispatchEvent(new KeyboardEvent('keydown', { key, isComposing: true, bubbles: true, cancelable: true }))", key)
            # As Safari sends the Enter that commits a candidate: keyCode 229, isComposing false.
            box.evaluate("(el, key) => el.dispatchEvent(new KeyboardEvent('keydown', { key, keyCode: 229, bubbles: true, cancelable: true }))", key)
        page.wait_for_timeout(300)
        assert page.url.startswith(server.url + path), page.url
        expect(page.get_by_role("search")).to_have_attribute("data-active", "")
        expect(box).to_have_value("choc")
        # The same keys once the input method is done.
        box.press("Enter")
        # The row's link carries ?mark=choc, which the page it opens drops from its URL once read.
        page.wait_for_url(re.compile(r"/candies/[a-z-]+/(\?mark=choc)?$"))


LONG = '  placeholder: "Search widgets, gadgets, pages and everything else on this site"\n  cancel_text: "Annuler la recherche"\n'


def test_a_long_placeholder_and_cancel_text_stay_inside_the_bar_in_every_style(page):
    """A placeholder longer than the field ends in an ellipsis inside it (it ran over the Cancel
    button, past the screen's edge in the centered style, and widened the page), and a long
    cancel_text is shown whole where there is room (it was cut mid-word at 8em at any width)."""
    for style in ("prominent", "minimal", "centered"):
        with siftsite.served_fixture(site(f"  style: {style}\n" + LONG), "sift-seq-long-") as (server, built):
            for width in (320, 1280):
                page.set_viewport_size({"width": width, "height": 640})
                page.goto(server.url + "/widgets/")
                box = page.get_by_role("searchbox")
                for state in ("rest", "active"):
                    if state == "active":
                        box.click()
                        expect(page.get_by_role("button", name="Annuler la recherche")).to_be_visible()
                    page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")
                    field, hint = page.locator(".sift-field").bounding_box(), page.locator(".sift-hint").bounding_box()
                    where = f"{style} {width} {state}"
                    assert field["x"] - 0.5 <= hint["x"] and hint["x"] + hint["width"] <= field["x"] + field["width"] + 0.5, where
                    assert page.evaluate("document.documentElement.scrollWidth") <= width, where
                cancel = page.get_by_role("button", name="Annuler la recherche")
                shown = cancel.evaluate("e => [e.scrollWidth <= e.clientWidth, getComputedStyle(e).textOverflow]")
                assert shown[0] or (width < 400 and shown[1] == "ellipsis"), f"{style} {width}: {shown}"


def test_marks_and_icons_keep_their_contrast_in_forced_colors(page):
    """Windows High Contrast: the matched text of a row was drawn in the page's colour on no
    background (black on black), and the magnifier and Clear, masks over a background the system
    paints as the page, vanished."""
    page.emulate_media(forced_colors="active", color_scheme="dark")
    with siftsite.served_fixture(site(""), "sift-seq-forced-") as (server, built):
        page.goto(server.url + "/widgets/")
        page.get_by_role("searchbox").fill("widget 00")
        expect(page.locator("[data-sift-list=widgets] mark").first).to_be_visible()
        canvas = page.evaluate("getComputedStyle(document.body).backgroundColor")
        mark = page.locator("[data-sift-list=widgets] mark").first.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        assert mark[1] not in ("rgba(0, 0, 0, 0)", canvas) or mark[0] != canvas, mark
        assert mark[0] != (mark[1] if mark[1] != "rgba(0, 0, 0, 0)" else canvas), f"{mark} on {canvas}"
        for icon in (".sift-icon", ".sift-clear"):
            assert page.locator(icon).first.evaluate("e => getComputedStyle(e).backgroundColor") != canvas, icon


def test_without_instant_search_spaces_alone_are_an_emptied_field(page):
    """With `instant: false` and the page dimmed, a field left with spaces alone dimmed the page
    and opened the empty state over the last search's rows, which still said "130 results" in the
    address and the status, and a press on a row cancelled it all: spaces search nothing, as an
    emptied field does."""
    with siftsite.served_fixture(site("  instant: false\n  dim_background: true\n"), "sift-seq-spaces-") as (server, built):
        page.goto(server.url + "/widgets/")
        box = submit(page, "widget")
        expect(status(page)).to_have_text("130 results")
        box.press("Control+a")
        box.press_sequentially(" ")
        expect(page).not_to_have_url(re.compile(r"q=widget"))
        expect(status(page)).not_to_have_text("130 results")
        expect(page.locator(".sift-empty")).to_be_visible()
        box.fill("")
        box.press_sequentially("widget")
        box.press("Enter")
        expect(status(page)).to_have_text("130 results")


def test_tab_out_of_a_lists_empty_state_closes_it(page):
    """On a list page not dimmed, the empty state lies over the list's first rows: Tab past its
    last control went on to a row it hid (WCAG 2.4.11, focus not obscured). Tab out of the bar
    closes it, as it closes a panel."""
    with siftsite.served_fixture(site(""), "sift-seq-tab-") as (server, built):
        page.goto(server.url + "/widgets/")
        page.keyboard.press("/")
        expect(page.locator(".sift-empty")).to_be_visible()
        for _ in range(40):
            page.keyboard.press("Tab")
            if not page.evaluate("document.querySelector('form.sift').contains(document.activeElement)"):
                break
        else:
            raise AssertionError("Tab never left the bar")
        expect(page.locator(".sift-empty")).to_be_hidden()
        covered = page.evaluate("""() => {
            const focused = document.activeElement, box = focused.getBoundingClientRect();
            const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return !(at && (focused.contains(at) || at.contains(focused)));
        }""")
        assert not covered, "the focused element is under something"
        # Typed, the bar keeps its results when Tab goes on to them.
        page.keyboard.press("/")
        page.keyboard.type("widget")
        expect(status(page)).to_have_text("130 results")
        for _ in range(40):
            page.keyboard.press("Tab")
            if not page.evaluate("document.querySelector('form.sift').contains(document.activeElement)"):
                break
        expect(status(page)).to_have_text("130 results")
