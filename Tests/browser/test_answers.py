"""A site built with the answers of short terms (docs/search-index.md, "Answers"), as one of
50,000 items or more is (SIFT_ANSWERS_FROM=0 forces it here): the first keystrokes are answered
from an answers file, the list shows what `sift search` gives, with the scope bar's counts, and
"Show more", a scope and a longer query, which the answers cannot serve, still do; with the
facet bar in, a short term's rows and facet counts still come from the answers alone, and the
bar from the manifest.
"""
import re

import pytest
from playwright.sync_api import expect

import siftsite

ITEMS = 2500


@pytest.fixture(scope="module")
def answered():
    csv = "name,kind,hue\n" + "".join(f"{'Quokka' if i % 7 == 0 else 'Widget'} {i:04},{'Round' if i % 2 else 'Square'},{'Red' if i % 3 else 'Blue'}\n" for i in range(1, ITEMS + 1))
    settings = "title_field: name\nscope_field: kind\nper_page: 0\nfacets: [hue]\n"
    with siftsite.served_things(csv, settings, "sift-answers-", {"SIFT_ANSWERS_FROM": "0"}) as served:
        yield served


@pytest.fixture(scope="module")
def answered_apart():
    """The same list with titles long enough that its document table (over 512 KB) is a file of its own."""
    tail = " of the things whose long titles keep their table out of the manifest" * 3
    csv = "name,kind,hue\n" + "".join(f"{'Quokka' if i % 7 == 0 else 'Widget'} {i:04}{tail},{'Round' if i % 2 else 'Square'},{'Red' if i % 3 else 'Blue'}\n" for i in range(1, ITEMS + 1))
    settings = "title_field: name\nscope_field: kind\nper_page: 0\nfacets: [hue]\n"
    with siftsite.served_things(csv, settings, "sift-answers-apart-", {"SIFT_ANSWERS_FROM": "0"}) as served:
        yield served


def rows(page):
    return siftsite.list_rows(page, "things")


def shown(page):
    return siftsite.list_shown(page, "things")


def expected(built, query, **opts):
    answer = siftsite.search(built, query, collection="things", **opts)
    return answer["total"], [r["url"] for r in answer["results"]]


def test_short_terms_come_from_an_answers_file_and_agree_with_sift_search(page, answered):
    server, built = answered
    assert "answers" in (built / "search" / "manifest.json").read_text()
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(server.url + "/things/")
    field = page.get_by_role("searchbox")
    for query in ["q", "07", "Qu"]:
        field.fill(query)
        total, urls = expected(built, query, limit=50)
        expect(page.get_by_role("status")).to_have_text(f"{total} result{'s' if total != 1 else ''}")
        expect(rows(page)).to_have_count(len(urls))
        assert shown(page) == urls, query
    answers = [i for i, url in enumerate(requested) if re.search(r"/search/immutable/answers\.[0-9a-f]{12}\.json$", url)]
    tables = [i for i, url in enumerate(requested) if re.search(r"/search/immutable/docs(-[0-9]+)?\.[0-9a-f]{12}\.json$", url)]
    assert answers and (not tables or tables[0] > answers[0]), ("the tables come after the first answer", requested)
    # The scope bar counts what each scope holds.
    for scope in ["Round", "Square"]:
        count, _ = expected(built, "qu", scope=scope)
        expect(page.get_by_role("radio", name=re.compile(f"^{scope}"))).to_contain_text(str(count))
    # A scope picked, the next 50 rows, a longer term: the tables answer what the answers cannot.
    page.get_by_role("radio", name=re.compile("^Square")).click()
    total, urls = expected(built, "qu", scope="Square", limit=50)
    expect(page.get_by_role("status")).to_have_text(f"{total} results")
    assert shown(page) == urls
    # A click where the button is (as test_search_bar.py clicks it): scrolled into view, the button
    # asks for the next rows itself, and a click after that answer adds 50 more.
    page.get_by_role("button", name="Show more").dispatch_event("click")
    _, urls = expected(built, "qu", scope="Square", limit=100)
    expect(rows(page)).to_have_count(100)
    assert shown(page) == urls
    field.fill("quokka 07")
    total, urls = expected(built, "quokka 07", scope="Square", limit=50)
    expect(page.get_by_role("status")).to_have_text(f"{total} result{'s' if total != 1 else ''}")
    assert shown(page) == urls
    # A facet value checked: a short term again, filtered, which the answers cannot serve.
    field.fill("q")
    page.locator("summary", has_text=re.compile("^Hue$")).click()
    page.get_by_role("group", name="Hue", exact=True).get_by_role("checkbox", name=re.compile(r"^Blue \d+$")).check()
    total, urls = expected(built, "q", scope="Square", limit=50, filter="hue=Blue")
    expect(page.get_by_role("status")).to_have_text(f"{total} results")
    assert shown(page) == urls


def test_with_the_facet_bar_in_short_terms_and_their_counts_need_no_tables(page, answered_apart):
    server, built = answered_apart
    assert '"docs":"docs-0.json"' in (built / "search" / "manifest.json").read_text()
    # The document tables are asked for once the first answer is out, and never come; the facets
    # file is not needed: the manifest outlines the facets.
    held, requested = [], []
    page.route(re.compile(r"/search/immutable/docs(-[0-9]+)?\.[0-9a-f]{12}\.json$"), lambda route: held.append(route))
    page.on("request", lambda r: requested.append(r.url))
    page.goto(server.url + "/things/")
    field = page.get_by_role("searchbox")
    field.fill("w")
    page.locator("summary", has_text=re.compile("^Hue$")).click()
    hue = page.get_by_role("group", name="Hue", exact=True)
    for scope, query in [("All", "qu"), ("All", "9"), ("Round", "q"), ("Round", "7")]:
        if scope != "All":
            page.get_by_role("radio", name=re.compile(f"^{scope}")).click()
        field.fill(query)
        answer = siftsite.search(built, query, collection="things", scope=scope, limit=50)
        total, urls = answer["total"], [r["url"] for r in answer["results"]]
        expect(page.get_by_role("status")).to_have_text(f"{total} result{'s' if total != 1 else ''}")
        assert shown(page) == urls, query
        for value, count in answer["facets"]["hue"].items():
            expect(hue.locator("label", has=page.locator(f"input[value={value}]"))).to_have_text(f"{value} {count}")
    assert held, "the tables were asked for"
    assert not [url for url in requested if "/facets." in url], requested


def test_back_from_a_result_restores_an_answered_search_with_its_scope_and_counts(page, answered_apart):
    server, built = answered_apart
    page.goto(server.url + "/things/")
    field = page.get_by_role("searchbox")
    field.fill("7")
    page.get_by_role("radio", name=re.compile("^Round")).click()
    answer = siftsite.search(built, "7", collection="things", scope="Round", limit=50)
    expect(page.get_by_role("status")).to_have_text(f"{answer['total']} results")
    page.locator("summary", has_text=re.compile("^Hue$")).click()
    hue = page.get_by_role("group", name="Hue", exact=True)
    first = answer["results"][0]
    rows(page).first.click()
    page.wait_for_url(f"**{first['url']}*")
    # Back: the page loads again, its search read from the URL and answered before the tables come.
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.go_back()
    expect(field).to_have_value("7")
    expect(page.get_by_role("radio", name=re.compile("^Round"))).to_be_checked()
    expect(page.get_by_role("status")).to_have_text(f"{answer['total']} results")
    assert shown(page) == [r["url"] for r in answer["results"]]
    page.locator("summary", has_text=re.compile("^Hue$")).click()
    for value, count in answer["facets"]["hue"].items():
        expect(hue.locator("label", has=page.locator(f"input[value={value}]"))).to_have_text(f"{value} {count}")
    answers = [i for i, url in enumerate(requested) if "/search/immutable/answers." in url]
    tables = [i for i, url in enumerate(requested) if "/search/immutable/docs." in url]
    assert answers and (not tables or tables[0] > answers[0]), requested


def typed_with_tables_held(page, answered_apart, query):
    """The list opened with the document tables held (`hold_tables`), and `query` typed and answered
    from the answers: the field, that answer (`sift search`'s) and release()."""
    server, built = answered_apart
    release = hold_tables(page)
    page.goto(server.url + "/things/")
    field = page.get_by_role("searchbox")
    field.fill(query)
    answer = siftsite.search(built, query, collection="things", limit=50)
    expect(page.get_by_role("status")).to_have_text(f"{answer['total']} results")
    return field, answer, release


def hold_tables(page):
    """Holds the requests of the document tables until release(), which waits for one to be asked for
    and then lets them all through (and any later one)."""
    held, released = [], []
    page.route(re.compile(r"/search/immutable/docs(-[0-9]+)?\.[0-9a-f]{12}\.json$"),
               lambda route: route.continue_() if released else held.append(route))

    def release():
        while not held:
            page.wait_for_timeout(50)
        released.append(True)
        for route in held:
            route.continue_()
    return release


def test_rows_of_an_earlier_query_are_marked_busy_while_the_tables_are_on_the_way(page, answered_apart):
    """A term of 3+ code points waits for the document tables: the rows of the last answer stay,
    marked busy (and dimmed) once it has waited a moment, and no longer once its own answer is in."""
    built = answered_apart[1]
    field, answer, release = typed_with_tables_held(page, answered_apart, "qu")
    results = page.locator("ul[aria-busy]")
    expect(results).to_have_attribute("aria-busy", "false")
    field.fill("quo")
    expect(results).to_have_attribute("aria-busy", "true")
    page.wait_for_function("getComputedStyle(document.querySelector('ul[aria-busy]')).opacity == '0.5'")
    # Only the bar's results: a busy element of the site's own keeps its look.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<div id=own aria-busy=true>Loading</div>')")
    assert page.evaluate("getComputedStyle(document.getElementById('own')).opacity") == "1"
    # The last answer's rows stay, their links marked for its query.
    assert rows(page).evaluate_all("els => els.map(a => a.getAttribute('href'))") == [r["url"] + "?mark=qu" for r in answer["results"]]
    release()
    longer = siftsite.search(built, "quo", collection="things", limit=50)
    expect(page.get_by_role("status")).to_have_text(re.compile(f"^{longer['total']} results?$|^No results"))
    expect(results).to_have_attribute("aria-busy", "false")


@pytest.mark.parametrize("query", ["123", "widget"])
def test_show_more_in_view_while_an_answer_waits(page, answered_apart, query):
    """"Show more" scrolled near the view while the next query waits for the tables asks for no
    rows then, and the answer shows the new query's rows: "123" has fewer than 50 (they were once
    appended below the old query's 50, under the new count); "widget" has more, and with the
    button still near, its next rows come once its answer is in (they once never came: the button,
    not moving, was not seen to come near again)."""
    built = answered_apart[1]
    field, _, release = typed_with_tables_held(page, answered_apart, "1")
    expect(rows(page)).to_have_count(50)
    field.fill(query)
    page.get_by_role("button", name="Show more").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    release()
    answer = siftsite.search(built, query, collection="things", limit=150)
    expect(page.get_by_role("status")).to_have_text(f"{answer['total']} results")
    if answer["total"] < 50:
        expect(rows(page)).to_have_count(answer["total"])
    else:
        expect(rows(page)).not_to_have_count(50)
    shown = min(answer["total"], 100)
    hrefs = rows(page).evaluate_all("els => els.map(a => a.getAttribute('href'))")[:shown]
    assert hrefs == [r["url"] + "?mark=" + query for r in answer["results"]][:shown]
