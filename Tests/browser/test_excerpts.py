"""Excerpts and section sub-results (SPEC.md §3, docs/search-bar.md "Excerpts"), as a visitor sees
them: a body match shows the words around its best hit with the terms marked, or the sections of
its page that hold them, each a link to its heading. The text comes from `sift search --json`.
"""
import re
import shutil

import pytest

from playwright.sync_api import expect

import siftsite


def text_files(requests):
    """The excerpts' files among the requests: text files, named by their group's hash."""
    return [r for r in requests if re.search(r"/search/immutable/text-\d+\.[0-9a-f]{12}\.json$", r)]


def test_a_body_match_in_the_panel_shows_its_excerpt_with_the_terms_marked(page, server, built):
    answer = siftsite.search(built, "cologne")
    result = answer["results"][0]
    assert result["match"] == "body" and result["sections"] == []
    page.goto(server.url + "/about/")
    page.get_by_role("combobox", name="Search here...").fill("cologne")
    option = page.get_by_role("option", name=re.compile("^Candy Cane"))
    expect(option).to_contain_text("".join(result["excerpt"]))
    expect(option.locator("mark")).to_have_text(result["excerpt"][1::2])


def test_typing_letter_by_letter_shows_the_excerpt_of_the_last_answer(page, server, built):
    """Each keystroke's answer loads the excerpt view; the view must watch the rows of the answer
    on screen, not the rows of an earlier answer (which left the last one without excerpts, or gave
    a row an earlier answer's result, warned of as a bad index)."""
    result = siftsite.search(built, "cologne")["results"][0]
    warnings = []
    page.on("console", lambda m: m.type in ("error", "warning") and "favicon" not in (m.location or {}).get("url", "") and warnings.append(m.text))
    page.goto(server.url + "/about/")
    box = page.get_by_role("combobox", name="Search here...")
    box.click()
    box.press_sequentially("cologne")
    option = page.get_by_role("option", name=re.compile("^Candy Cane"))
    expect(option).to_contain_text("".join(result["excerpt"]))
    page.wait_for_timeout(300)
    assert warnings == []


def test_the_excerpt_view_loading_late_still_serves_the_last_answer(page, server, built):
    """The excerpt view's module held back until every letter is typed: each answer's wait for it
    then ends at once, and the rows of the last answer on screen must still get their excerpt."""
    result = siftsite.search(built, "cologne")["results"][0]
    held = []
    page.route(re.compile(r"/sift-excerpt-view\.(\w+\.)?js$"), lambda route: held.append(route))
    page.goto(server.url + "/about/")
    box = page.get_by_role("combobox", name="Search here...")
    box.click()
    box.press_sequentially("cologne", delay=60)
    option = page.get_by_role("option", name=re.compile("^Candy Cane"))
    expect(option).to_be_visible()
    assert held, "the excerpt view was asked for"
    for route in held:
        route.continue_()
    expect(option).to_contain_text("".join(result["excerpt"]))


def test_a_match_inside_a_section_links_to_its_heading(page, server, built):
    answer = siftsite.search(built, "cocoa butter")
    section = next(r for r in answer["results"] if r["slug"] == "chocolate-bar")["sections"][0]
    assert section == {"title": "From bean to bar", "url": "/candies/chocolate-bar/#from-bean-to-bar", "excerpt": section["excerpt"]}
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server.url + "/about/")
    page.get_by_role("combobox", name="Search here...").fill("cocoa butter")
    sub = page.get_by_role("option", name=re.compile("^From bean to bar"))
    href = siftsite.mark(section["url"], "cocoa butter")
    expect(sub).to_have_attribute("href", href)
    expect(sub.locator("mark")).to_have_text(section["excerpt"][1::2])
    # The rows on screen fetched their text files together: this site has one, named in the manifest.
    assert len(text_files(requests)) == 1, requests
    # ↓ reaches the sub-result as it reaches results; Enter opens the page at the heading.
    box = page.get_by_role("combobox")
    options = page.get_by_role("option").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    for _ in range(options.index(href) + 1):
        box.press("ArrowDown")
    expect(page.get_by_role("option", selected=True)).to_have_attribute("href", href)
    box.press("Enter")
    page.wait_for_url(server.url + section["url"])
    expect(page.get_by_role("heading", name="From bean to bar")).to_be_in_viewport()


def test_a_list_shows_excerpts_and_sections_under_its_rows(page, server, built):
    answer = siftsite.search(built, "cocoa butter", collection="candies")
    page.goto(server.url + "/candies/")
    page.get_by_role("searchbox").fill("cocoa butter")
    results = page.locator("[data-sift-list=candies]:not([data-sift-off])")
    first = next(r for r in answer["results"] if r["sections"])
    sub = results.get_by_role("link", name=re.compile("^" + first["sections"][0]["title"]))
    expect(sub).to_have_attribute("href", siftsite.mark(first["sections"][0]["url"], "cocoa butter"))
    expect(sub.locator("mark").first).to_have_text("cocoa")


def test_field_matches_fetch_no_text(page, server):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server.url + "/candies/")
    page.get_by_role("searchbox").fill("lolli")
    expect(page.get_by_role("status")).to_have_text("1 result")
    page.wait_for_timeout(200)
    assert text_files(requests) == []
    expect(page.locator(".sift-e")).to_have_count(0)


def test_a_corrupt_text_file_leaves_the_results_without_excerpts(page, built, tmp_path):
    shutil.copytree(built, tmp_path / "public")
    for f in (tmp_path / "public/search/immutable").glob("text-*.json"):
        f.write_text("[[", encoding="utf-8")
    server = siftsite.Server(tmp_path / "public")
    warnings = []
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    try:
        page.goto(server.url + "/about/")
        page.get_by_role("combobox").fill("cologne")
        expect(page.get_by_role("option", name=re.compile("^Candy Cane"))).to_be_visible()
        expect(page.get_by_role("status")).to_have_text("1 result")
        page.wait_for_timeout(300)
        expect(page.get_by_role("option")).to_have_count(1)
        assert any("bad index" in w for w in warnings), warnings
    finally:
        server.close()


def test_a_body_match_keeps_room_for_its_excerpt_until_it_comes(page, server, built):
    """While its text file is on the way, a body match's row is already about as tall as it will
    be with its excerpt (two lines of it): the rows below it do not jump when it comes, and rows
    the excerpts would push off screen are not counted as on screen."""
    result = siftsite.search(built, "cologne")["results"][0]
    assert result["match"] == "body" and result["sections"] == []
    held = []
    page.route(re.compile(r"/search/immutable/text-\d+\.[0-9a-f]{12}\.json$"), lambda route: held.append(route))
    page.goto(server.url + "/about/")
    page.get_by_role("combobox", name="Search here...").fill("cologne")
    option = page.get_by_role("option", name=re.compile("^Candy Cane"))
    expect(option).to_be_visible()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the text file was asked for"
    row = option.locator("xpath=..")
    waiting = row.bounding_box()["height"]
    for route in held:
        route.continue_()
    expect(option).to_contain_text("".join(result["excerpt"]))
    shown = row.bounding_box()["height"]
    lines = round((shown - waiting) / (14 * 1.35))
    assert abs(shown - waiting) < 14 * 1.35, f"the row grew by {shown - waiting:.0f} px ({lines} lines) when its excerpt came"


@pytest.mark.parametrize("sections", [True, False], ids=["sections", "text-fragments"])
def test_back_to_a_list_search_of_body_matches_shows_the_row_opened_where_it_was(page, sections):
    """Rows of body matches fill their excerpts once seen; searched again for Back, the rows above
    the one opened were short placeholders, so the same scroll offset showed rows far below it
    (16th opened, 40th shown). Back brings the row opened to where it was in the window. Without
    sections, a row's link ends in the text fragment its excerpt gives (`#:~:text=`), which the
    row made again has not until its excerpt comes: the row opened was not found."""
    files = {"Content/notes/collection.yml": "title: Notes\n"}
    for i in range(1, 121):
        words = " ".join(f"word{i}x{k}" for k in range(60))
        section = f"## Quay {i}\n\nA harbor quay. {words}\n" if sections else ""
        files[f"Content/notes/note-{i:03}.md"] = f"---\ntitle: Note {i:03}\n---\nThe harbor of note {i}. {words}\n\n{section}"
    with siftsite.served_fixture(files, "sift-back-rows-") as (server, _):
        page.set_viewport_size({"width": 800, "height": 700})
        page.goto(server.url + "/notes/")
        box = page.get_by_role("searchbox")
        box.fill("harbor")
        expect(page.get_by_role("status")).to_have_text(re.compile(r"^\d+ results$"))
        for _ in range(6):
            page.mouse.wheel(0, 600)
            page.wait_for_timeout(150)
        page.wait_for_timeout(400)
        opened = page.evaluate("""(() => { const a = document.elementFromPoint(innerWidth / 2, innerHeight / 2).closest('li').querySelector('a');
            window.openedTop = a.getBoundingClientRect().top; a.click(); return [a.getAttribute('href'), a.getBoundingClientRect().top]; })()""")
        page.wait_for_url(re.compile(r"/notes/note-\d+/"))
        page.go_back()
        page.wait_for_url(re.compile(r"/notes/\?q=harbor$"))
        assert sections or "#:~:text=" in opened[0], opened
        link = page.locator(f'[data-sift-list=notes] a[href^="{opened[0].split("#")[0]}"]').first
        expect(link).to_be_visible()
        page.wait_for_timeout(400)
        top = link.evaluate("a => a.getBoundingClientRect().top")
        assert abs(top - opened[1]) < 10, (opened, top)
