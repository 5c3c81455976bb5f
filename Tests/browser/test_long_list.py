"""A list longer than 2,000 items, paginated by default (docs/configuration.md, `per_page`):
its first page is small, and the search bar still filters the whole collection in place,
finding items that live on later pages, with Back from one of them restoring the search.
"""
import pytest
from playwright.sync_api import expect

import siftsite

ITEMS = 2500
# The one item "quokka" finds: on page 3 (items 2,001 to 2,500).
QUOKKA = 2345


def name(i):
    return "Quokka Lighthouse" if i == QUOKKA else f"Widget {i:04}"


@pytest.fixture(scope="module")
def long_list():
    csv = "name,kind\n" + "".join(f"{name(i)},{'Round' if i % 2 else 'Square'}\n" for i in range(1, ITEMS + 1))
    with siftsite.served_things(csv, "title_field: name\nlist_fields: [kind]\n", "sift-long-list-") as served:
        yield served


@pytest.fixture
def quiet_page(page):
    """The conftest page, failing on console warnings too."""
    warnings = []
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    yield page
    assert warnings == [], f"console warnings: {warnings}"


def rows(page):
    return page.locator("[data-sift-list=things] > li > a:first-child:visible")


def hrefs(page):
    return siftsite.result_urls(page, rows(page).evaluate_all("els => els.map(a => a.getAttribute('href'))"))


def test_the_first_page_of_a_long_list_is_small(quiet_page, long_list):
    page = quiet_page
    server, built = long_list
    response = page.goto(server.url + "/things/")
    first = len(response.body())
    whole = sum((built / "things" / rel / "index.html").stat().st_size for rel in ["", "page/2", "page/3"])
    assert first < whole / 2, (first, whole)
    expect(rows(page)).to_have_count(1000)
    pages = page.get_by_role("navigation", name="Pages")
    expect(pages.get_by_role("link", name="3", exact=True)).to_be_visible()
    assert not (built / "things" / "page" / "4").exists()


def test_a_search_on_page_1_finds_an_item_of_page_3_and_back_restores_it(quiet_page, long_list):
    page = quiet_page
    server, built = long_list
    expected = [r["url"] for r in siftsite.search(built, "quokka", collection="things")["results"]]
    assert expected == ["/things/quokka-lighthouse/"]
    assert "Quokka" not in (built / "things" / "index.html").read_text()
    page.goto(server.url + "/things/")
    pages = page.get_by_role("navigation", name="Pages")
    page.get_by_role("searchbox").fill("quokka")
    expect(rows(page)).to_have_count(1)
    assert hrefs(page) == expected
    expect(page.get_by_role("status")).to_have_text("1 result")
    expect(page.locator("[data-sift-list=things] mark").first).to_have_text("Quokka")
    expect(pages).to_be_hidden()
    page.get_by_role("link", name="Quokka Lighthouse").click()
    page.wait_for_url("**/things/quokka-lighthouse/")
    page.go_back()
    expect(page.get_by_role("searchbox")).to_have_value("quokka")
    expect(rows(page)).to_have_count(1)
    assert hrefs(page) == expected
    page.get_by_role("button", name="Cancel").click()
    expect(rows(page)).to_have_count(1000)
    expect(pages).to_be_visible()


def test_results_from_every_page_in_rank_order(quiet_page, long_list):
    """Widgets 1,990 to 1,999 live on pages 1 and 2, Widget 2,400 on page 3: the list on page 2
    shows the answer `sift search` gives, in its order, as it does on page 1."""
    page = quiet_page
    server, built = long_list
    for query in ["widget 199", "widget 2400"]:
        expected = [r["url"] for r in siftsite.search(built, query, collection="things", limit=50)["results"]]
        assert expected
        for list_page in ["/things/", "/things/page/2/"]:
            page.goto(server.url + list_page)
            page.get_by_role("searchbox").fill(query)
            expect(rows(page)).to_have_count(len(expected))
            assert hrefs(page) == expected, (list_page, query)
