"""What a keyboard and a screen reader reach, with the options in combination: where the focus goes
when Cancel or Esc ends the search, the dimmed page kept out of reach while dimmed, the row ↓
selects named by a relationship ARIA allows, and the panel's results past its first 20. Each test
failed before the fix it was written for.
"""
import re

import pytest
from playwright.sync_api import expect

import siftsite
from accessibility import assert_accessible

from siftsite import WIDGETS, WIDGETS_YML
# A page of links under the panel: what a dimmed page holds for Tab to reach.
ABOUT = "# About\n\nA page with the search panel in its header.\n\n" + "\n\n".join(
    f"[Link {i}](/about/#{i}) and a paragraph." for i in range(1, 8))

# The options that change what the bar shows around the field, in combination.
COMBOS = {
    "defaults": "",
    "centered-not-instant-dimmed": "  style: centered\n  instant: false\n  dim_background: true\n",
    "navigation-kept-scopes-always-dimmed": "  hide_navigation: false\n  scope_bar: always\n  dim_background: true\n  style: minimal\n",
    "not-instant-navigation-kept": "  instant: false\n  hide_navigation: false\n",
}
DIMMED = [name for name, yml in COMBOS.items() if "dim_background: true" in yml]


def site(search_yml: str) -> dict:
    return {
        "Content/site.yml": "title: Reach\n" + ("search:\n" + search_yml if search_yml else ""),
        "Content/widgets/widgets.csv": WIDGETS, "Content/widgets/collection.yml": WIDGETS_YML,
        "Content/about.md": ABOUT,
    }


@pytest.fixture(scope="module", params=list(COMBOS))
def served(request):
    with siftsite.served_fixture(site(COMBOS[request.param]), f"sift-reach-{request.param}-") as (server, built):
        yield request.param, server, built


def field(page, path):
    return page.get_by_role("searchbox" if path == "/widgets/" else "combobox")


def search(page, box, combo, text):
    """Typed as a visitor does; without instant search, submitted with Enter."""
    box.click()
    box.press_sequentially(text)
    if "instant: false" in COMBOS[combo]:
        box.press("Enter")
    expect(page.get_by_role("status")).to_have_text(re.compile(r"^\d+ results?$"))


def settled(page):
    page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")


def expect_at_rest(page, box):
    expect(page.get_by_role("search")).not_to_have_attribute("data-active", re.compile(".*"))
    expect(page.get_by_role("button", name="Cancel")).to_be_hidden()
    expect(box).to_have_value("")


def focused(page) -> str:
    """What has the focus, as a screen reader would say it: its role and name, or BODY."""
    return page.evaluate("""() => { const e = document.activeElement;
        return e == document.body ? 'BODY' : (e.getAttribute('role') || e.tagName.toLowerCase()) + ' ' + (e.getAttribute('aria-label') || e.textContent.trim()); }""")


# 1. Cancel from the keyboard


@pytest.mark.parametrize("path", ["/widgets/", "/about/"])
def test_cancel_from_the_keyboard_leaves_the_focus_in_the_field_at_rest(page, served, path):
    """Cancel by Enter or Space, and Esc in the field, on a row of the results, in a facet's box or
    in the sort control, end the search with the focus in the search field, the bar at rest; typing
    there searches again. A click of Cancel (a pointer: on a phone, the keyboard should go) leaves
    nothing focused."""
    combo, server, _ = served
    page.goto(server.url + path)
    box = field(page, path)
    ways = ["Enter", "Space", "Escape in the field", "click"] + (
        ["Escape on a row", "Escape in a facet box", "Escape in the sort select"] if path == "/widgets/" else [])
    for way in ways:
        search(page, box, combo, "widget 1")
        cancel = page.get_by_role("button", name="Cancel")
        expect(cancel).to_be_visible()
        if way in ("Enter", "Space"):
            cancel.focus()
            page.keyboard.press(way)
        elif way == "Escape in the field":
            box.press("Escape")
        elif way == "Escape on a row":
            page.locator("[data-sift-list=widgets]:not([data-sift-off]) a").first.focus()
            page.keyboard.press("Escape")
        elif way == "Escape in a facet box":
            facet = page.get_by_role("search").locator("details").first
            if facet.get_attribute("open") is None:
                facet.locator("summary").click()
            facet.get_by_role("checkbox").first.focus()
            page.keyboard.press("Escape")
        elif way == "Escape in the sort select":
            page.get_by_role("search").locator("select").focus()
            page.keyboard.press("Escape")
        else:
            cancel.click()
        expect_at_rest(page, box)
        settled(page)
        if way == "click":
            assert focused(page) == "BODY", (combo, way)
            continue
        expect(box).to_be_focused()
        # Focused at rest, the field shows it (WCAG 2.4.7): it had no outline and no ring.
        assert box.evaluate("e => getComputedStyle(e).boxShadow") != "none", (combo, way)
        # At rest: not dimmed, the navigation where it was, no panel.
        expect(page.locator("html")).not_to_have_attribute("data-sift-dim", re.compile(".*"))
        expect(page.locator(".sift-pop")).to_be_hidden()
        # Typing there starts the search again.
        box.press_sequentially("w")
        expect(page.get_by_role("search")).to_have_attribute("data-active", "")
        expect(cancel).to_be_visible()
        box.press("Escape")
        expect_at_rest(page, box)
        expect(box).to_be_focused()


# 2. The dimmed page out of reach


def tab_stops(page, count: int) -> list[str]:
    stops = []
    for _ in range(count):
        page.keyboard.press("Tab")
        stops.append(page.evaluate("""() => { const e = document.activeElement;
            return e == document.body ? 'BODY' : e.closest('form[role=search]') ? 'bar' : e.closest('[data-sift-header]') ? 'header' : 'page: ' + e.textContent.trim(); }"""))
    return stops


def in_accessibility_tree(page, selector: str) -> bool:
    """Whether the first element `selector` finds is in Chromium's accessibility tree."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.getDocument")
    node = session.send("DOM.querySelector", {"nodeId": session.send("DOM.getDocument")["root"]["nodeId"], "selector": selector})
    tree = session.send("Accessibility.getPartialAXTree", {"nodeId": node["nodeId"], "fetchRelatives": False})["nodes"]
    session.detach()
    return not tree[0].get("ignored", False)


@pytest.mark.parametrize("path", ["/widgets/", "/about/"])
def test_the_dimmed_page_is_out_of_reach_while_dimmed(page, served, path):
    """While the bar dims the page (active, nothing typed), Tab from the field goes through the bar
    (and a site header left in view, which is not dimmed) and never to the rows or links under the
    dimming, which are out of the accessibility tree too; typing, and Cancel, bring them back."""
    combo, server, _ = served
    page.goto(server.url + path)
    box = field(page, path)
    page_link = "[data-sift-list=widgets] > li > a" if path == "/widgets/" else "main a[href^='/about/#']"
    assert in_accessibility_tree(page, page_link)
    box.click()
    if combo not in DIMMED:
        # Without dim_background nothing is dimmed, and nothing is taken out of reach.
        expect(page.locator("html")).not_to_have_attribute("data-sift-dim", re.compile(".*"))
        assert page.evaluate("!document.querySelector('[inert]')")
        assert in_accessibility_tree(page, page_link)
        return
    expect(page.locator("html")).to_have_attribute("data-sift-dim", "")
    settled(page)
    stops = tab_stops(page, 12)
    assert all(stop in ("bar", "header", "BODY") for stop in stops), (combo, stops)
    assert not in_accessibility_tree(page, page_link)
    # Typing ends the dimming: the results are in reach; emptying the field dims again.
    if path == "/widgets/":
        box.focus()
        box.press_sequentially("widget 1")
        if "instant: false" in COMBOS[combo]:
            box.press("Enter")
        expect(page.locator("html")).not_to_have_attribute("data-sift-dim", re.compile(".*"))
        stops = tab_stops(page, 12)
        assert any(stop.startswith("page: Widget") for stop in stops), (combo, stops)
        box.focus()
        page.get_by_role("button", name="Clear").click()
        expect(page.locator("html")).to_have_attribute("data-sift-dim", "")
        stops = tab_stops(page, 12)
        assert all(stop in ("bar", "header", "BODY") for stop in stops), (combo, stops)
    # A click on the dimmed page still cancels; the page is in reach again.
    page.locator(".sift-dim").click(position={"x": 5, "y": 600})
    expect_at_rest(page, box)
    assert in_accessibility_tree(page, page_link)
    box.focus()
    box.press("Escape")
    stops = tab_stops(page, 30)
    assert any(stop.startswith("page: ") for stop in stops), (combo, stops)


# 3. The row ↓ selects


def test_the_row_selected_is_one_the_field_controls(page, served):
    """On a list page the field names the results it moves through (aria-controls), and its
    aria-activedescendant is a link there, announced by the row's title; axe-core finds nothing.
    ↓ ↓ ↑ then Enter opens the row selected."""
    combo, server, built = served
    page.goto(server.url + "/widgets/")
    box = page.get_by_role("searchbox")
    search(page, box, combo, "widget 1")
    answer = siftsite.search(built, "widget 1", collection="widgets")
    for key in ["ArrowDown", "ArrowDown", "ArrowUp"]:
        box.press(key)
    active = box.get_attribute("aria-activedescendant")
    assert active
    relation = page.evaluate("""(input) => {
        const active = document.getElementById(input.getAttribute('aria-activedescendant'));
        const owners = (input.getAttribute('aria-controls') || '').split(' ').filter(Boolean).map((id) => document.getElementById(id));
        return { controlled: owners.some((owner) => owner && owner.contains(active)), count: document.querySelectorAll('[id="' + active.id + '"]').length };
    }""", box.element_handle())
    assert relation == {"controlled": True, "count": 1}, (combo, relation)
    expect(page.locator(f"[id='{active}']")).to_have_accessible_name(re.compile("^" + answer["results"][0]["title"]))
    assert_accessible(page, f"a row selected, {combo}")
    box.press("Enter")
    page.wait_for_url(re.compile(re.escape(answer["results"][0]["url"]) + r"(\?mark=.*)?$"))


# 4. The panel's results past the first 20


def test_the_panel_offers_the_results_past_its_first(page, served):
    """The panel shows 20 of "130 results" and ends in an option "Show more results", which ↓
    reaches and Enter takes (the selection then on the first result it added), as a click and the
    listbox's own Enter do, until every result is shown, in the order `sift search` gives."""
    combo, server, built = served
    page.goto(server.url + "/about/")
    box = page.get_by_role("combobox")
    search(page, box, combo, "widget")
    expect(page.get_by_role("status")).to_have_text("130 results")
    urls = [siftsite.mark(result["url"], "widget") for result in siftsite.search(built, "widget", limit=200)["results"]]
    results = page.locator("[role=option][href]")
    more = page.get_by_role("option", name="Show more results")
    expect(results).to_have_count(20)
    expect(more).to_be_visible()
    assert results.evaluate_all("els => els.map(a => a.getAttribute('href'))") == urls[:20]
    # The keyboard: ↓ to it, announced as the active option, Enter.
    for _ in range(21):
        box.press("ArrowDown")
    expect(more).to_have_attribute("aria-selected", "true")
    expect(box).to_have_attribute("aria-activedescendant", more.get_attribute("id"))
    assert_accessible(page, f"the panel's more option selected, {combo}")
    box.press("Enter")
    expect(results).to_have_count(40)
    assert results.evaluate_all("els => els.map(a => a.getAttribute('href'))") == urls[:40]
    selected = page.get_by_role("option", selected=True)
    expect(selected).to_have_attribute("href", urls[20])
    expect(box).to_have_attribute("aria-activedescendant", selected.get_attribute("id"))
    expect(box).to_be_focused()
    # A click, then Tab to the listbox and Enter there with the option selected.
    more.click()
    expect(results).to_have_count(60)
    expect(page.get_by_role("search")).to_have_attribute("data-active", "")
    listbox = page.get_by_role("listbox", name="Results")
    listbox.focus()
    for _ in range(60 - 20 + 1):
        page.keyboard.press("ArrowDown")
    expect(more).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")
    expect(results).to_have_count(80)
    for count in (100, 120, 130):
        more.click()
        expect(results).to_have_count(count)
    expect(more).to_have_count(0)
    assert results.evaluate_all("els => els.map(a => a.getAttribute('href'))") == urls
    expect(page.get_by_role("status")).to_have_text("130 results")
    # A new search starts at 20 again.
    box.fill("widget 1")
    if "instant: false" in COMBOS[combo]:
        box.press("Enter")
    expect(page.get_by_role("status")).to_have_text(f"{siftsite.search(built, 'widget 1')['total']} results")
    expect(results).to_have_count(20)
    expect(more).to_be_visible()


def test_a_static_site_header_under_the_dimming_is_out_of_reach_too(page):
    """The site header stays in reach while the page is dimmed because the theme lifts it above
    the dimming; a theme that leaves it static (z-index lifts nothing static) has it dimmed with
    the page, and then its links were still in Tab's reach. Both, with the header kept in view."""
    with siftsite.served_fixture(site("  hide_navigation: false\n  dim_background: true\n"), "sift-reach-static-header-") as (server, _):
        header_link_inert = "() => !!document.querySelector('[data-sift-header] a[href]').closest('[inert]')"
        for static in (False, True):
            page.goto(server.url + "/widgets/")
            if static:
                page.add_style_tag(content="[data-sift-header] { position: static !important }")
            page.get_by_role("searchbox").click()
            expect(page.locator("html")).to_have_attribute("data-sift-dim", "")
            assert page.evaluate(header_link_inert) == static, f"static header: {static}"
            page.keyboard.press("Escape")
            assert not page.evaluate(header_link_inert)



def test_the_dimming_gives_back_only_what_it_made_inert(page):
    """A part of the page the site keeps inert itself (a closed drawer) stays inert when the
    dimming ends: Cancel took `inert` off every element around the bar, and the drawer's links came
    into Tab's reach and the accessibility tree."""
    with siftsite.served_fixture(site("  dim_background: true\n"), "sift-reach-site-inert-") as (server, _):
        for path in ("/widgets/", "/about/"):
            page.goto(server.url + path)
            page.evaluate("""() => { const drawer = document.createElement('div');
                drawer.id = 'drawer'; drawer.inert = true; drawer.innerHTML = '<a href="/x/">Drawer link</a>';
                document.querySelector('main').before(drawer); }""")
            box = field(page, path)
            box.click()
            expect(page.locator("html")).to_have_attribute("data-sift-dim", "")
            inert = "() => [...document.querySelectorAll('[inert]')].map(e => e.id || e.tagName)"
            assert len(page.evaluate(inert)) > 1, path
            box.press("Escape")
            expect_at_rest(page, box)
            assert page.evaluate(inert) == ["drawer"], path


def test_a_browse_shortcut_chosen_from_the_keyboard_leaves_the_focus_in_the_field(page):
    """The empty state's scope shortcuts go with it once one is chosen: the focus, on the
    button, fell to the page, and ↓ then reached no result, as it does after a recent search."""
    with siftsite.served_fixture(site(""), "sift-reach-browse-") as (server, _):
        browse_from_the_keyboard(page, server)


def browse_from_the_keyboard(page, server):
    page.goto(server.url + "/widgets/")
    page.keyboard.press("/")
    box = page.get_by_role("searchbox")
    expect(box).to_be_focused()
    shortcut = page.locator(".sift-token", has_text="Square")
    shortcut.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_have_text(re.compile(r"^\d+ results$"))
    expect(box).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator("[data-sift-list=widgets] [data-active]")).to_have_count(1)


def test_slash_from_a_facet_checkbox_goes_to_the_field(page):
    """`/` goes to the field from anywhere it types nothing: a facet value's checkbox kept the
    focus (only Ctrl+K worked there), as if it were a text field."""
    with siftsite.served_fixture(site(""), "sift-reach-slash-") as (server, _):
        slash_from_a_checkbox(page, server)


def slash_from_a_checkbox(page, server):
    page.goto(server.url + "/widgets/")
    page.get_by_role("searchbox").click()
    page.locator("summary", has_text=re.compile("^Color$")).click()
    checkbox = page.get_by_role("checkbox").first
    checkbox.focus()
    page.keyboard.press("/")
    expect(page.get_by_role("searchbox")).to_be_focused()
    # In a text field, `/` is typed there.
    page.keyboard.type("a/b")
    expect(page.get_by_role("searchbox")).to_have_value("a/b")


def test_scope_bar_always_loads_the_index_only_where_it_has_scopes(page):
    """`scope_bar: always` fetches the index on load for the scopes' counts: a page whose bar
    searches every collection has no scopes, and fetched it all the same."""
    with siftsite.served_fixture(site("  scope_bar: always\n"), "sift-reach-always-") as (server, _):
        requests = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(server.url + "/about/")
        page.wait_for_load_state("networkidle")
        assert not [url for url in requests if "/search/" in url], requests
        page.goto(server.url + "/widgets/")
        expect(page.get_by_role("radio", name=re.compile("^Round"))).to_be_visible()
        page.wait_for_load_state("networkidle")
        assert [url for url in requests if url.endswith("/search/manifest.json")], requests
