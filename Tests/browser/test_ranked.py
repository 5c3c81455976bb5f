"""A list whose index takes the ranked layout (version 6, docs/search-index.md; SIFT_RANKED_FROM=0
forces it here, with the answers of short terms and shards so small that keys split into parts):
the search bar reads it through sift-ranked.js, and shows what `sift search` gives (typo matches
aside, which that reader has not yet, so the queries here have enough matches to want none),
rows of body matches with their titles and excerpts, a short term beside a longer one, the scope
bar's counts, "Show more", a facet value, Back from a result, and heavy terms from their answers.
"""
import json
import re

import pytest
from playwright.sync_api import expect

import siftsite

ITEMS = 1200
WORDS = ["harbor", "lighthouse", "keeper", "tide", "anchor", "beacon", "rope", "gull"]


@pytest.fixture(scope="module")
def ranked():
    csv = "name,kind,hue\n" + "".join(f"{'Quokka' if i % 7 == 0 else 'Widget'} {i:04},{'Round' if i % 2 else 'Square'},{'Red' if i % 3 else 'Blue'}\n" for i in range(1, ITEMS + 1))
    settings = "title_field: name\nscope_field: kind\nper_page: 0\nfacets: [hue]\n"
    files = {"Content/things/collection.yml": settings, "Content/things/things.csv": csv}
    # Every third thing has a page, its words drawn in turn, so that a word is in hundreds of bodies.
    for i in range(3, ITEMS + 1, 3):
        words = " ".join(WORDS[(i * k) % len(WORDS)] for k in range(1, 1 + i % 11))
        files[f"Content/things/widget-{i:04}.md" if i % 7 else f"Content/things/quokka-{i:04}.md"] = f"The {words} of thing {i}.\n"
    # Heavy terms too: split keys of three code points, and word starts held by 500 bytes of entries.
    env = {"SIFT_RANKED_FROM": "0", "SIFT_ANSWERS_FROM": "0", "SIFT_SHARDING": "0 600 500"}
    with siftsite.served_fixture(files, "sift-ranked-", env) as served:
        yield served


def expected(built, query, **opts):
    answer = siftsite.search(built, query, collection="things", **opts)
    assert not [r for r in answer["results"] if r["match"] == "fuzzy"], (query, "no typo matches wanted")
    return answer


def check(page, built, query, limit=50, **opts):
    answer = expected(built, query, limit=limit, **opts)
    total = answer["total"]
    expect(page.get_by_role("status")).to_have_text(f"{total} result{'s' if total != 1 else ''}")
    expect(siftsite.list_rows(page, "things")).to_have_count(len(answer["results"]))
    # The rows of this query, not of the last one with as many results (`qu` and `quokka`).
    if answer["results"]:
        first = siftsite.mark(answer["results"][0]["url"], query)
        expect(siftsite.list_rows(page, "things").first).to_have_attribute("href", re.compile("^" + re.escape(first) + "($|#)"))
    assert siftsite.list_shown(page, "things") == [r["url"] for r in answer["results"]], query
    return answer


def test_the_search_bar_reads_the_ranked_layout_as_sift_search_answers(page, ranked):
    server, built = ranked
    manifest = (built / "search" / "manifest.json").read_text()
    assert '"version":6' in manifest and '"answers"' in manifest
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(server.url + "/things/")
    field = page.get_by_role("searchbox")
    for query in ["q", "qu", "quokka", "harbor", "harbor q", "lighthouse keeper", "widget 01"]:
        field.fill(query)
        answer = check(page, built, query)
        # A body match's row: its title from its record, its excerpt from its text file.
        body = [r for r in answer["results"] if r["match"] == "body"]
        if body:
            row = page.locator("[data-sift-list=things] > li", has=page.locator(f"a[href^='{body[0]['url']}?']"))
            expect(row).to_contain_text(body[0]["title"])
            expect(row).to_contain_text("".join(body[0]["excerpt"]))
    assert [url for url in requested if re.search(r"/search/immutable/pre\.[0-9a-f]{12}\.json$", url)], "pre files read"
    assert not [url for url in requested if re.search(r"/search/immutable/docs", url)], "no document tables"
    # The scope bar counts what each scope holds, and a scope picked, then the next 50 rows.
    field.fill("harbor")
    for scope in ["Round", "Square"]:
        count = expected(built, "harbor", scope=scope)["total"]
        expect(page.get_by_role("radio", name=re.compile(f"^{scope}"))).to_contain_text(str(count))
    page.get_by_role("radio", name=re.compile("^Square")).click()
    check(page, built, "harbor", scope="Square")
    # A click where the button is (as test_search_bar.py clicks it): scrolled into view, the button
    # asks for the next rows itself, and a click after that answer adds 50 more.
    page.get_by_role("button", name="Show more").dispatch_event("click")
    check(page, built, "harbor", scope="Square", limit=100)
    # Another term, then a facet value checked: the facets file read for a term of the ranked layout.
    # (At the top of the page: "Show more" near the view adds rows by itself.)
    page.evaluate("scrollTo(0, 0)")
    field.fill("anchor")
    check(page, built, "anchor", scope="Square")
    page.locator("summary", has_text=re.compile("^Hue$")).click()
    page.get_by_role("group", name="Hue", exact=True).get_by_role("checkbox", name=re.compile(r"^Blue \d+$")).check()
    check(page, built, "anchor", scope="Square", filter="hue=Blue")


def test_back_from_a_body_match_restores_the_search(page, ranked):
    server, built = ranked
    page.goto(server.url + "/things/")
    field = page.get_by_role("searchbox")
    field.fill("anchor")
    answer = check(page, built, "anchor")
    first = answer["results"][0]
    siftsite.list_rows(page, "things").first.click()
    page.wait_for_url(f"**{first['url']}*")
    page.go_back()
    expect(field).to_have_value("anchor")
    check(page, built, "anchor")


def test_a_heavy_term_is_shown_from_its_answer_with_its_body_rows_excerpts(page, ranked):
    server, built = ranked
    listed = [term for pre in (built / "search" / "immutable").glob("pre.*.json") for term in json.loads(pre.read_text()).get("answers", [])]
    # A split key, and the start of a word of the bodies.
    longer = [term for term in listed if len(term) > 3 and any(word.startswith(term) for word in WORDS)]
    assert "har" in listed and longer, listed
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(server.url + "/things/")
    field = page.get_by_role("searchbox")
    for query in ["har", longer[0]]:
        del requested[:]
        field.fill(query)
        answer = check(page, built, query)
        # Its answer, not its key's parts: the pre file, the answers file, and the rows' text files.
        assert [url for url in requested if "/search/immutable/answers." in url], (query, requested)
        assert not [url for url in requested if "/search/immutable/shard." in url], (query, requested)
        body = [r for r in answer["results"] if r["match"] == "body"]
        assert body, query
        row = page.locator("[data-sift-list=things] > li", has=page.locator(f"a[href^='{body[0]['url']}?']"))
        expect(row).to_contain_text(body[0]["title"])
        expect(row).to_contain_text("".join(body[0]["excerpt"]))
