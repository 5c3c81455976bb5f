"""Arriving from a result (docs/search-bar.md, "Arrival", "Text fragments"), however it is opened:
the link carries the query as ?mark=, the page marks its terms and takes ?mark= out of its
address; a body match's excerpt adds a text fragment a browser follows by itself. And a page with
`search: false`, of any kind, is never a result. Driven by role and label; any console warning
or error fails.
"""
import re

import pytest
from playwright.sync_api import expect

import siftsite

FILLER = "\n\n".join(f"Paragraph {i} of plain words." for i in range(80))
FAR_SITE = {
    "Content/notes/collection.yml": "title: Notes\n",
    "Content/notes/far.md": f"---\ntitle: Far\n---\n{FILLER}\n\nThe hinterland at last.\n",
    "Content/notes/near.md": "---\ntitle: Near\n---\n## Hills\n\nA hinterland of hills.\n",
}
HIDDEN_SITE = {
    "Content/index.md": "---\nsearch: false\n---\nWelcome to the quarry guide.\n",
    "Content/secret.md": "---\ntitle: Secret\nsearch: false\n---\nThe quarry nobody maps.\n",
    "Content/sites/collection.yml": "title: Sites\nfacets: [kind]\n",
    "Content/sites/sites.csv": "name,kind\nOpen Quarry,pit\nHidden Quarry,pit\nShaft,mine\n",
    "Content/sites/hidden-quarry.md": "---\nsearch: false\n---\nA quarry under the hill.\n",
    "Content/sites/lost-quarry.md": "---\ntitle: Lost Quarry\nkind: pit\nsearch: false\n---\nA quarry of its own.\n",
}


@pytest.fixture
def quiet(context):
    """Fails the test on a console warning or error, or an uncaught exception, in any page of the context."""
    said = []

    def watch(page):
        page.on("console", lambda m: m.type in ("warning", "error") and "favicon" not in (m.location or {}).get("url", "") and said.append(m.text))
        page.on("pageerror", lambda e: said.append(str(e)))

    context.on("page", watch)
    for page in context.pages:
        watch(page)
    yield said
    assert said == [], f"console: {said}"


@pytest.fixture(scope="module")
def far():
    with siftsite.served_fixture(FAR_SITE, "sift-arrival-") as served:
        yield served


def list_link(page, collection, name):
    return page.locator(f"[data-sift-list={collection}]").get_by_role("link", name=name)


def expect_marked_and_tidy(page, term, path):
    """Marks on the page, the first in view, and ?mark= gone from the address."""
    marks = page.locator("main mark")
    expect(marks.first).to_have_text(re.compile(f"^{term}$", re.I))
    expect(marks.first).to_be_in_viewport()
    expect(page).to_have_url(re.compile(re.escape(path) + "$"))


@pytest.mark.parametrize("how", ["ctrl", "middle"])
def test_a_result_opened_in_a_new_tab_arrives_marked(page, context, server, quiet, how):
    page.goto(server.url + "/countries/")
    page.get_by_role("searchbox").fill("land")
    link = list_link(page, "countries", "Switzerland")
    with context.expect_page() as opened:
        if how == "ctrl":
            link.click(modifiers=["Control"])
        else:
            link.click(button="middle")
    tab = opened.value
    expect_marked_and_tidy(tab, "land", "/countries/switzerland/")
    expect(tab.locator("main h1")).to_have_text("Switzerland")
    # The list stays as it was in its own tab.
    expect(page.get_by_role("status")).to_have_text(re.compile(r"^\d+ results$"))
    # A result opened is a search worth remembering, by the middle button too (only a click was heard).
    page.get_by_role("button", name="Cancel").click()
    page.get_by_role("searchbox").click()
    expect(page.get_by_role("button", name="land", exact=True)).to_be_visible()


def test_a_copied_result_link_opened_elsewhere_arrives_marked_and_copies_tidily(page, browser, server, quiet):
    page.goto(server.url + "/")
    page.get_by_role("combobox", name="Search here...").fill("land")
    option = page.get_by_role("option", name=re.compile("^Switzerland"))
    expect(option).to_have_attribute("href", "/countries/switzerland/?mark=land")
    # What "Copy link address" copies.
    href = option.evaluate("a => a.href")
    # Another browser's fresh session: nothing but the link.
    other = browser.new_context()
    try:
        arrived = other.new_page()
        warnings = []
        arrived.on("console", lambda m: m.type in ("warning", "error") and warnings.append(m.text))
        arrived.goto(href)
        expect_marked_and_tidy(arrived, "land", "/countries/switzerland/")
        arrived.keyboard.press("Escape")
        expect(arrived.locator("main mark")).to_have_count(0)
        assert warnings == []
    finally:
        other.close()


def test_a_body_match_links_with_a_text_fragment_a_browser_follows_without_script(page, browser, far, quiet):
    server, _ = far
    page.goto(server.url + "/")
    page.get_by_role("combobox", name="Search").fill("hinterland")
    option = page.get_by_role("option", name=re.compile("^Far"))
    expect(option.locator("mark")).to_have_text("hinterland")
    href = "/notes/far/?mark=hinterland#:~:text=The-,hinterland"
    expect(option).to_have_attribute("href", href)
    option.click()
    expect_marked_and_tidy(page, "hinterland", "/notes/far/")
    assert page.evaluate("scrollY") > 500
    # With marks that never come, the browser still scrolls to the text by itself.
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        bare = other.new_page()
        bare.route(re.compile(r"/sift-marks\.(\w+\.)?js$"), lambda route: route.fulfill(body="export function arrive() {}", content_type="text/javascript"))
        bare.goto(server.url + "/")
        bare.get_by_role("combobox", name="Search").fill("hinterland")
        far_option = bare.get_by_role("option", name=re.compile("^Far"))
        expect(far_option).to_have_attribute("href", href)
        far_option.click()
        expect(bare.get_by_text("The hinterland at last.")).to_be_in_viewport()
        assert bare.evaluate("scrollY") > 500
        expect(bare.locator("main mark")).to_have_count(0)
    finally:
        other.close()


def test_a_section_keeps_its_heading_and_carries_the_query(page, far, quiet):
    server, _ = far
    page.goto(server.url + "/notes/")
    page.get_by_role("searchbox").fill("hinterland")
    section = page.locator("[data-sift-list=notes]").get_by_role("link", name=re.compile("^Hills"))
    expect(section).to_have_attribute("href", "/notes/near/?mark=hinterland#hills")
    section.click()
    expect_marked_and_tidy(page, "hinterland", "/notes/near/#hills")
    expect(page.get_by_role("heading", name="Hills")).to_be_in_viewport()


def test_search_false_keeps_any_kind_of_page_out_of_the_results(page, quiet):
    with siftsite.served_fixture(HIDDEN_SITE, "sift-hidden-") as (server, _):
        page.goto(server.url + "/sites/")
        # The list shows every row; searching it finds only the page left in the index.
        expect(list_link(page, "sites", re.compile("^Hidden Quarry"))).to_be_visible()
        page.get_by_role("searchbox").fill("quarry")
        expect(page.get_by_role("status")).to_have_text("1 result")
        expect(list_link(page, "sites", re.compile("^Open Quarry"))).to_be_visible()
        expect(list_link(page, "sites", re.compile("^(Hidden|Lost) Quarry"))).to_have_count(0)
        # A facet alone lists only the indexed pits, and counts only them.
        page.get_by_role("searchbox").fill("")
        page.locator("summary", has_text=re.compile("^Kind$")).click()
        page.get_by_role("group", name="Kind").get_by_role("checkbox", name="pit 1").check()
        expect(page.get_by_role("status")).to_have_text("1 result")
        # From the home page's panel: neither the intro, the standalone page nor the hidden items.
        page.goto(server.url + "/")
        page.get_by_role("combobox", name="Search").fill("quarry")
        expect(page.get_by_role("status")).to_have_text("1 result")
        expect(page.get_by_role("option")).to_have_count(1)
        expect(page.get_by_role("option").first).to_contain_text("Open Quarry")
        page.goto(server.url + "/sites/hidden-quarry/")
        expect(page.get_by_role("heading", name="Hidden Quarry")).to_be_visible()



ROW_LINKS_SITE = {
    "Content/notes/collection.yml": "title: Notes\nscope_field: kind\nscopes: [walk]\n",
    "Content/notes/notes.csv": "name,kind\nHinterland Walk,walk\nCoast Walk,walk\n",
}


def test_a_rows_other_links_keep_their_own_query(page, quiet):
    """A list template's row may link elsewhere with a query of its own (here the list of the
    item's scope): the search's ?mark= joins that query, replacing only an earlier mark."""
    template = (siftsite.REPO / "Sources/SiftKit/Resources/list.mustache").read_text()
    end = "{{/detail}}</a></li>"
    assert end in template
    site = {**ROW_LINKS_SITE, "Templates/notes/list.mustache": template.replace(end, '{{/detail}}</a> <a class="scope" href="{{site.base}}notes/?scope={{scope}}&amp;x=1">{{scope}}</a></li>')}
    with siftsite.served_fixture(site, "sift-row-links-") as (server, _):
        page.goto(server.url + "/notes/")
        box = page.get_by_role("searchbox")
        box.fill("hinter")
        scope = page.get_by_role("link", name="walk", exact=True)
        expect(scope).to_have_count(1)
        expect(scope).to_have_attribute("href", "/notes/?scope=walk&x=1&mark=hinter")
        box.fill("hinterland")
        expect(scope).to_have_attribute("href", "/notes/?scope=walk&x=1&mark=hinterland")


def test_a_rows_links_to_other_sites_and_mail_are_not_given_the_search(page, quiet):
    """Only links to the site's own pages carry ?mark=: a row's link to another site sent it the
    visitor's search, and a mailto: link got a `mark` header in the mail."""
    template = (siftsite.REPO / "Sources/SiftKit/Resources/list.mustache").read_text()
    end = "{{/detail}}</a></li>"
    links = ('{{/detail}}</a> <a class="ext" href="https://maker.example.com/p?id=1">maker</a>'
             ' <a class="mail" href="mailto:shop@example.com?subject=Hi">mail</a></li>')
    site = {**ROW_LINKS_SITE, "Templates/notes/list.mustache": template.replace(end, links)}
    with siftsite.served_fixture(site, "sift-row-other-sites-") as (server, _):
        page.goto(server.url + "/notes/")
        page.get_by_role("searchbox").fill("hinter")
        expect(page.get_by_role("status")).to_have_text("1 result")
        expect(page.get_by_role("link", name="Hinterland Walk")).to_have_attribute("href", "/notes/hinterland-walk/?mark=hinter")
        expect(page.get_by_role("link", name="maker")).to_have_attribute("href", "https://maker.example.com/p?id=1")
        expect(page.get_by_role("link", name="mail")).to_have_attribute("href", "mailto:shop@example.com?subject=Hi")


def test_the_pages_own_navigation_is_not_marked(page, server, quiet):
    """A detail page's Previous and Next name other pages: their titles are no hits of the page
    arrived at, and were marked as if they were (`chocolate` lit up Chocolate Bar and Dark Chocolate
    under Chocolate Chip). Navigation inside <main> is left unmarked, as the site's own outside it."""
    page.goto(server.url + "/candies/chocolate-chip/?mark=chocolate")
    expect(page.locator("main h1 mark")).to_have_text("Chocolate")
    nav = page.get_by_role("navigation", name="More Candies")
    expect(nav).to_contain_text("Dark Chocolate")
    expect(nav.locator("mark")).to_have_count(0)
    expect(page.locator("main .prose mark").first).to_have_text("chocolate")


def test_an_escape_an_input_method_takes_leaves_the_marks(page, server, quiet):
    """Esc ends a composition (pinyin typed into the header's field) without being the visitor's
    Esc: the bar stayed active, as it should, and every mark of the page was removed."""
    page.goto(server.url + "/candies/chocolate-chip/?mark=chocolate")
    marks = page.locator("main mark")
    expect(marks.first).to_have_text("Chocolate")
    count = marks.count()
    page.get_by_role("combobox").focus()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.imeSetComposition", {"text": "bei", "selectionStart": 3, "selectionEnd": 3})
    for kind in ("rawKeyDown", "keyUp"):
        cdp.send("Input.dispatchKeyEvent", {"type": kind, "windowsVirtualKeyCode": 229, "key": "Escape", "code": "Escape"})
    page.wait_for_timeout(200)
    expect(marks).to_have_count(count)
    cdp.send("Input.insertText", {"text": "北"})
    page.keyboard.press("Escape")
    expect(marks).to_have_count(0)


LONG_SECTION_SITE = {
    "Content/notes/collection.yml": "title: Notes\n",
    "Content/notes/long.md": f"---\ntitle: Long\n---\n{FILLER}\n\n## Hinterland hills\n\nThe hinterland rises.\n\n{FILLER}\n",
}


def test_a_section_arrived_at_is_not_left_under_the_sticky_site_header(page, quiet):
    """A section's link scrolls its heading to the top of the window, where the example theme's
    site header stays on a wide window: the heading, its term marked, was hidden under it."""
    with siftsite.served_fixture(LONG_SECTION_SITE, "sift-arrival-section-") as (server, _):
        page.goto(server.url + "/")
        page.get_by_role("combobox", name="Search").fill("hinterland")
        option = page.get_by_role("option", name=re.compile("^Hinterland hills"))
        expect(option).to_have_attribute("href", "/notes/long/?mark=hinterland#hinterland-hills")
        option.click()
        heading = page.get_by_role("heading", name="Hinterland hills")
        expect(heading.locator("mark")).to_have_text("Hinterland")
        expect(page).to_have_url(re.compile(r"/notes/long/#hinterland-hills$"))
        page.evaluate("() => new Promise(requestAnimationFrame)")
        assert page.evaluate("scrollY") > 500
        # What is seen at the heading's middle is the heading, not the header over it.
        seen = heading.evaluate("h => { const r = h.getBoundingClientRect(); return h.contains(document.elementFromPoint(r.left + 4, (r.top + r.bottom) / 2)) }")
        assert seen, heading.evaluate("h => [h.getBoundingClientRect().top, document.querySelector('[data-sift-header]').getBoundingClientRect().bottom]")


SPLIT_SITE = {
    "Content/notes/collection.yml": "title: Notes\n",
    "Content/notes/split.md": "---\ntitle: Split\n---\nThe Har*bor* of the bay, a har`bor` in code.\n\n"
                              "A line that ends in ha  \nrbor begins the next.\n",
}


def test_a_term_split_by_inline_markup_is_marked_across_it(page, quiet):
    """`Har<em>bor</em>` holds harbor as a reader sees it: each of its pieces is marked (it was
    not marked at all); a line break is no such join (`ha<br>rbor` stays unmarked)."""
    with siftsite.served_fixture(SPLIT_SITE, "sift-arrival-split-") as (server, _):
        page.goto(server.url + "/notes/split/?mark=harbor")
        marks = page.locator("main .prose mark")
        expect(marks).to_have_count(4)
        assert marks.all_text_contents() == ["Har", "bor", "har", "bor"]
        expect(marks.first).to_be_in_viewport()
        page.keyboard.press("Escape")
        expect(marks).to_have_count(0)
        assert page.locator("main .prose p").first.inner_text() == "The Harbor of the bay, a harbor in code."
