"""Facets, sorting and arrival marks on the example site, driven by role and label (docs/search-bar.md, "Facets and sorting", "Arrival").

Expected rows and counts come from `sift search --json --filter … --sort …` on the same index.
"""
import json
import re
import subprocess

import pytest
from playwright.sync_api import expect

import siftsite
from accessibility import assert_accessible


def answer(built, query="", filters=(), sort=None, **opts):
    args = [siftsite.SIFT, "search", query, "--site", str(built.parent), "--json", "--collection", "countries"]
    for f in filters:
        args += ["--filter", f]
    if sort:
        args += ["--sort", sort]
    for k, v in opts.items():
        args += [f"--{k}", str(v)]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def shown(page):
    return siftsite.result_urls(page, page.locator("[data-sift-list=countries]").get_by_role("link").evaluate_all("els => els.map(a => a.getAttribute('href'))"))


def facet(page, name):
    """The group of a facet's checkboxes, its disclosure opened."""
    group = page.get_by_role("group", name=name, exact=True)
    if not group.is_visible():
        page.locator("summary", has_text=re.compile(f"^{name}$")).click()
    return group


def check(page, name, value):
    facet(page, name).get_by_role("checkbox", name=re.compile(f"^{re.escape(value)} \\d+$")).check()


def expect_counts(page, expected):
    """Every value of every facet shows the count `sift search` gives, and a zero one is dimmed."""
    for field, counts in expected["facets"].items():
        group = facet(page, field.capitalize())
        for value, count in counts.items():
            label = group.locator("label", has_text=re.compile(f"^{re.escape(value)} \\d+$"))
            expect(label).to_have_text(f"{value} {count}")
            if count:
                expect(label).not_to_have_attribute("data-none", "")
            else:
                expect(label).to_have_attribute("data-none", "")


def test_two_values_of_one_facet_and_one_of_another_narrow_the_list_and_every_count(page, server, built):
    page.goto(server.url + "/countries/")
    page.get_by_role("searchbox").click()
    check(page, "Subregion", "Caribbean")
    check(page, "Subregion", "Polynesia")
    check(page, "Landlocked", "No")
    expected = answer(built, filters=["subregion=Caribbean", "subregion=Polynesia", "landlocked=No"])
    assert expected["total"] == 39
    expect(page.get_by_role("status")).to_have_text("39 results")
    assert shown(page) == [r["url"] for r in expected["results"]]
    expect_counts(page, expected)
    # Landlocked=Yes leaves nothing with these subregions: shown, dimmed, never removed.
    assert expected["facets"]["landlocked"]["Yes"] == 0
    expect(page).to_have_url(re.compile(r"f\.subregion=Caribbean&f\.subregion=Polynesia&f\.landlocked=No"))


def test_back_from_a_result_restores_the_facets(page, server, built):
    page.goto(server.url + "/countries/?f.region=Oceania&f.landlocked=No")
    expected = answer(built, filters=["region=Oceania", "landlocked=No"])
    expect(page.get_by_role("status")).to_have_text(f"{expected['total']} results")
    page.locator("[data-sift-list=countries]").get_by_role("link").first.click()
    expect(page).to_have_url(re.compile(r"/countries/[^/]+/$"))
    page.go_back()
    expect(page.get_by_role("status")).to_have_text(f"{expected['total']} results")
    assert shown(page) == [r["url"] for r in expected["results"]]
    expect(facet(page, "Region").get_by_role("checkbox", name=re.compile(r"^Oceania \d+$"))).to_be_checked()
    expect(facet(page, "Landlocked").get_by_role("checkbox", name=re.compile(r"^No \d+$"))).to_be_checked()


def test_a_link_with_a_scope_facet_or_sort_the_site_no_longer_has_still_searches(page, server, built):
    """A link from before the site renamed a facet, a sort field or a scope (or written by hand):
    what the collection does not have is let go, the rest searched (such a link once said
    "Search is unavailable")."""
    page.on("console", lambda m: m.type == "warning" and page.warnings.append(m.text))
    page.warnings = []
    land = answer(built, "land", limit=50)
    oceania = answer(built, "land", filters=["region=Oceania"])
    for link, expected in [("?q=land&f.nope=x", land), ("?q=land&sort=nope", land), ("?q=land&f.region=Oceania&f.nope=x&sort=-nope", oceania)]:
        page.goto(server.url + "/countries/" + link)
        expect(page.get_by_role("status")).to_have_text(f"{expected['total']} results")
        assert shown(page)[:50] == [r["url"] for r in expected["results"]][:50], link
    expect(facet(page, "Region").get_by_role("checkbox", name=re.compile(r"^Oceania \d+$"))).to_be_checked()
    expect(page.get_by_role("combobox", name="Sort")).to_have_value("")
    # A scope no collection has, on a list and in the home page's panel: All.
    page.goto(server.url + "/candies/?q=choc&scope=Nope")
    candies = siftsite.search(built, "choc", collection="candies")
    expect(page.get_by_role("status")).to_have_text(f"{candies['total']} results")
    expect(page.get_by_role("radio", name="All")).to_have_attribute("aria-checked", "true")
    page.goto(server.url + "/?q=choc&scope=Nope&f.region=Asia")
    expect(page.get_by_role("status")).to_have_text(f"{siftsite.search(built, 'choc')['total']} results")
    assert not any("unknown" in w for w in page.warnings), page.warnings


@pytest.mark.parametrize("link", ["/countries/?f.nope=x", "/countries/?f.region=Atlantis&sort=-nope", "/candies/?scope=Nope", "/about/?f.region=Asia"])
def test_a_link_left_with_nothing_once_its_unknowns_are_let_go_opens_the_page_at_rest(page, server, link):
    """Everything a link asked for let go (a facet, value, sort or scope the list does not offer,
    or facets on a page whose results are a panel): the page opened searching nothing, the
    bar active and the page dimmed under it (`dim_background`) until a click anywhere. It opens
    as it does without them."""
    page.goto(server.url + link)
    path = link.split("?")[0]
    expect(page).to_have_url(server.url + path)
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("search")).not_to_have_attribute("data-active", "")
    expect(page.locator("html")).not_to_have_attribute("data-sift-dim", "")
    expect(page.locator("html")).not_to_have_attribute("data-sift", re.compile("."))


def test_a_links_value_the_facet_does_not_have_is_let_go(page, server, built):
    """A value no item holds (renamed since the link was made, or mistyped by hand) selected
    nothing with no box to uncheck: "No results" until Cancel. It is let go as an unknown field
    is; a value given twice is one choice, and the address says each once."""
    land = answer(built, "land")
    page.goto(server.url + "/countries/?q=land&f.subregion=Atlantis")
    expect(page.get_by_role("status")).to_have_text(f"{land['total']} results")
    expect(page).to_have_url(re.compile(r"/countries/\?q=land$"))
    oceania = answer(built, filters=["region=Oceania"])
    page.goto(server.url + "/countries/?f.region=Oceania&f.region=Atlantis&f.region=Oceania")
    expect(page.get_by_role("status")).to_have_text(f"{oceania['total']} results")
    expect(page).to_have_url(re.compile(r"/countries/\?f\.region=Oceania$"))
    oceania_box = facet(page, "Region").get_by_role("checkbox", name=re.compile(r"^Oceania \d+$"))
    oceania_box.uncheck()
    expect(page).to_have_url(re.compile(r"/countries/$"))
    expect(page.get_by_role("status")).to_have_text("")


def test_values_checked_by_a_link_or_back_are_shown_checked_with_their_counts(page, server, built):
    """The list filtered by a link's values, or by those checked before a result was opened, with
    their disclosures closed: nothing on the page said why it was short, or which box undoes it."""
    expected = answer(built, "land", filters=["region=Europe"])
    page.goto(server.url + "/countries/?q=land&f.region=Europe")
    expect(page.get_by_role("status")).to_have_text(f"{expected['total']} results")
    region = page.get_by_role("group", name="Region", exact=True)
    expect(region).to_be_visible()
    expect(region.get_by_role("checkbox", name=re.compile(r"^Europe \d+$"))).to_be_checked()
    for value, count in expected["facets"]["region"].items():
        expect(region.locator("label", has_text=re.compile(f"^{re.escape(value)} \\d+$"))).to_have_text(f"{value} {count}")
    # A facet with nothing checked stays closed.
    expect(page.get_by_role("group", name="Subregion", exact=True)).to_be_hidden()
    # Closed by the visitor, then Back from a result: shown again.
    page.locator("summary", has_text=re.compile("^Region")).click()
    expect(region).to_be_hidden()
    page.locator("[data-sift-list=countries]").get_by_role("link").first.click()
    expect(page).to_have_url(re.compile(r"/countries/[^/]+/$"))
    page.go_back()
    expect(region.get_by_role("checkbox", name=re.compile(r"^Europe \d+$"))).to_be_checked()
    expect(region).to_be_visible()


def test_a_closed_facet_says_the_values_checked_in_it(page, server, built):
    """A facet closed to make room (its open list takes a third of a phone's screen) hid what it
    filters by: the list stayed short with nothing on the page to say why. Its summary names the
    values checked, as a screen reader reads it too."""
    page.goto(server.url + "/countries/")
    page.get_by_role("searchbox").click()
    check(page, "Region", "Europe")
    check(page, "Region", "Asia")
    summary = page.locator("summary").first
    expect(summary).to_have_text("Region: Asia, Europe")
    summary.click()
    expect(page.get_by_role("group", name="Region", exact=True)).to_be_hidden()
    expect(summary).to_have_text("Region: Asia, Europe")
    expected = answer(built, filters=["region=Asia", "region=Europe"])
    expect(page.get_by_role("status")).to_have_text(f"{expected['total']} results")
    summary.click()
    facet(page, "Region").get_by_role("checkbox", name=re.compile(r"^Asia \d+$")).uncheck()
    expect(summary).to_have_text("Region: Europe")
    facet(page, "Region").get_by_role("checkbox", name=re.compile(r"^Europe \d+$")).uncheck()
    expect(summary).to_have_text("Region")
    # Cancel checks nothing: nothing named.
    check(page, "Landlocked", "Yes")
    expect(page.locator("summary", has_text=re.compile("^Landlocked"))).to_have_text("Landlocked: Yes")
    page.keyboard.press("Escape")
    expect(page.locator("summary", has_text=re.compile("^Landlocked"))).to_have_text("Landlocked")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_values_without_a_match_are_dimmed_legibly(browser, server, scheme):
    """A value with no match is dimmed, yet it can still be checked: its text keeps the contrast
    of text (it was drawn at 45% opacity, 2.8:1 in light, 4.1:1 in dark). In forced colours it is
    GrayText, as opacity alone says nothing there."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(server.url + "/countries/?q=land&f.region=Europe")
        for name in ["Subregion", "Landlocked"]:
            page.locator("summary", has_text=re.compile(f"^{name}$")).click()
        none = page.get_by_role("group", name="Subregion", exact=True).locator("label[data-none]")
        expect(none.first).to_have_text(re.compile(r" 0$"))
        assert_accessible(page, f"facets with values without a match, {scheme}")
        page.emulate_media(forced_colors="active")
        some = page.get_by_role("group", name="Subregion", exact=True).locator("label:not([data-none])").first
        color = lambda label: label.evaluate("e => getComputedStyle(e).color")
        assert color(none.first) != color(some), "a dimmed value looks as any other in forced colours"
    finally:
        context.close()


LONG_VALUES_SITE = {
    "Content/things/collection.yml": "title_field: name\nfacets: [maker, tags]\nlist_separator: \",\"\n",
    "Content/things/things.csv": "name,maker,tags\n" + "".join(
        f"Thing {i},\"Pneumonoultramicroscopicsilicovolcanoconiosis Manufacturing {i % 2}\",\"tag {i % 40},tag {i % 7}\"\n" for i in range(60)),
}


def test_long_values_stay_inside_a_narrow_screen(page):
    """At 320 px a value longer than the line was cut at the edge of the facets, its count out
    of sight, readable only by scrolling the facets sideways: it wraps instead, the box beside it."""
    page.set_viewport_size({"width": 320, "height": 640})
    with siftsite.served_fixture(LONG_VALUES_SITE, "sift-long-values-") as (server, _):
        page.goto(server.url + "/things/")
        page.get_by_role("searchbox").click()
        for name in ["Maker", "Tags"]:
            page.locator("summary", has_text=re.compile(f"^{name}$")).click()
        label = page.get_by_role("group", name="Maker").locator("label").first
        expect(label).to_have_text(re.compile(r"Manufacturing 0 30$"))
        page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")
        page.evaluate("() => new Promise(requestAnimationFrame)")
        facets = page.locator(".sift-facets")
        assert facets.evaluate("e => e.scrollWidth <= e.clientWidth"), "the facets scroll sideways"
        for group in ["Maker", "Tags"]:
            for box in page.get_by_role("group", name=group).locator("label").all():
                at = box.bounding_box()
                assert at["x"] >= 0 and at["x"] + at["width"] <= 320, (box.text_content(), at)
                assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), box.text_content()
        # The box beside the value's first letters, not alone on a line above it.
        apart = label.evaluate("""l => {
            const first = document.createRange(), box = l.querySelector("input").getBoundingClientRect();
            const value = l.querySelector("input").nextSibling.firstChild;
            first.setStart(value, 0);
            first.setEnd(value, 1);
            const letter = first.getBoundingClientRect();
            return Math.abs((letter.top + letter.bottom) / 2 - (box.top + box.bottom) / 2);
        }""")
        assert apart < 8, apart


def test_sort_by_area_descending_puts_the_largest_first(page, server, built):
    page.goto(server.url + "/countries/")
    page.get_by_role("searchbox").click()
    page.get_by_role("combobox", name="Sort").select_option(label="Area, descending")
    expected = answer(built, sort="-area", limit=50)
    assert expected["results"][0]["title"] == "Russia"
    expect(page.locator("[data-sift-list=countries]").get_by_role("link").first).to_have_accessible_name("Russia")
    assert shown(page)[:50] == [r["url"] for r in expected["results"]]
    expect(page).to_have_url(re.compile(r"[?&]sort=-area(&|$)"))
    # Sorting a query's results: "land" by area, largest first.
    page.get_by_role("searchbox").fill("land")
    expected = answer(built, "land", sort="-area")
    expect(page.get_by_role("status")).to_have_text(f"{expected['total']} results")
    assert shown(page) == [r["url"] for r in expected["results"]]


def test_the_sort_control_says_it_sorts(page, server):
    """The select showed "Relevance" and nothing else: what it chose was said to a screen reader
    only (aria-label). A visible label says Sort, and a click on it reaches the select."""
    page.goto(server.url + "/countries/")
    page.get_by_role("searchbox").click()
    sort = page.get_by_role("combobox", name="Sort", exact=True)
    expect(sort).to_have_value("")
    label = page.get_by_role("search").get_by_text(re.compile("^Sort"))
    expect(label).to_be_visible()
    # The word before the select, on its line.
    at, select_at = label.bounding_box(), sort.bounding_box()
    assert select_at["x"] - at["x"] > 25 and abs((at["y"] + at["height"] / 2) - (select_at["y"] + select_at["height"] / 2)) < 8, (at, select_at)
    label.click()
    expect(sort).to_be_focused()


def test_arriving_from_land_marks_the_terms_and_scrolls_to_the_first(page, server):
    page.goto(server.url + "/countries/")
    page.get_by_role("searchbox").fill("land")
    page.locator("[data-sift-list=countries]").get_by_role("link", name="Switzerland").click()
    expect(page).to_have_url(re.compile(r"/countries/switzerland/$"))
    marks = page.locator("main mark")
    expect(marks.first).to_have_text(re.compile("^land$", re.I))
    expect(marks.first).to_be_in_viewport()
    page.keyboard.press("Escape")
    expect(marks).to_have_count(0)
    expect(page.locator("main h1")).to_have_text("Switzerland")
    # Only the page opened from the result: a reload shows none.
    page.reload()
    expect(page.locator("main h1")).to_have_text("Switzerland")
    expect(marks).to_have_count(0)


def test_arrival_scrolls_to_the_first_mark_far_down_the_page(page):
    filler = "\n\n".join(f"Paragraph {i} of plain words." for i in range(80))
    files = {
        "Content/notes/collection.yml": "title: Notes\n",
        "Content/notes/far.md": f"---\ntitle: Far\n---\n{filler}\n\nThe hinterland at last.\n",
    }
    with siftsite.served_fixture(files, "sift-arrival-") as (server, _):
        page.goto(server.url + "/notes/")
        page.get_by_role("searchbox").fill("hinterland")
        page.locator("[data-sift-list=notes]").get_by_role("link", name=re.compile("^Far")).click()
        mark = page.locator("main mark")
        expect(mark).to_have_text("hinterland")
        expect(mark).to_be_in_viewport()
        assert page.evaluate("scrollY") > 500
        page.mouse.click(5, 5)
        expect(mark).to_have_count(0)
        expect(page.get_by_text("The hinterland at last.")).to_be_visible()


def test_the_about_page_is_found_from_the_home_pages_panel(page, server, built):
    expected = siftsite.search(built, "about")
    assert expected["results"][0]["url"] == "/about/"
    page.goto(server.url + "/")
    page.get_by_role("combobox", name="Search here...").fill("about")
    option = page.get_by_role("option").first
    expect(option).to_contain_text("About")
    option.click()
    expect(page).to_have_url(server.url + "/about/")


def test_a_facets_file_that_failed_once_is_asked_for_again(context, server, built):
    """A network failure on the facets file (a deploy, a flaky connection) costs one retry, not
    the search: the bar asks the index again, and the facets with it."""
    failed = []

    def once(route):
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort()

    page = context.new_page()
    page.route("**/search/immutable/facets*.json", once)
    warnings = []
    page.on("pageerror", lambda e: warnings.append(str(e)))
    page.on("console", lambda m: m.type in ("error", "warning") and "favicon" not in (m.location or {}).get("url", "") and warnings.append(m.text))
    page.goto(server.url + "/countries/")
    page.get_by_role("searchbox").fill("land")
    expected = answer(built, "land")
    expect(page.get_by_role("status")).to_have_text(f"{expected['total']} results")
    assert shown(page) == [r["url"] for r in expected["results"]][:len(shown(page))]
    expect(page.locator("summary", has_text=re.compile("^Subregion$"))).to_be_visible()
    assert len(failed) == 1
    assert [w for w in warnings if "Failed to load resource" not in w] == []


def test_results_do_not_wait_for_the_facets_file(page, server, built):
    """The first answer is shown while the facets file is still on the way; its counts follow."""
    held = []
    page.route(re.compile(r"/search/immutable/facets\.[0-9a-f]+\.json$"), lambda route: held.append(route))
    page.goto(server.url + "/countries/")
    page.get_by_role("searchbox").fill("land")
    expected = answer(built, "land")
    expect(page.get_by_role("status")).to_have_text(f"{expected['total']} results")
    assert shown(page)[:5] == [r["url"] for r in expected["results"][:5]]
    assert held, "the facets file was asked for"
    for route in held:
        route.continue_()
    expect_counts(page, expected)
