"""A corrupt search index in Chromium (issue 19): the bar says "Search is unavailable" in its
status, the reason goes to console.warn, and nothing is thrown or left rejected unhandled.

The example site is built once (the `built` fixture), copied, and its manifest broken in the
copy: invalid JSON (the index never loads), a document table of the wrong type (it loads,
then fails to build), and word postings of the wrong type (it loads, the search rejects).
"""
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

import siftsite


# Each way to break the example's manifest (a small index: its words are inline), by name.
CORRUPTIONS = {
    "invalid JSON": lambda text: text[: len(text) // 2],
    "a table of the wrong type": lambda text: json.dumps({**json.loads(text), "collections": [
        {**c, "docs": {**c["docs"], "fields": 7}} for c in json.loads(text)["collections"]]}),
    "postings of the wrong type": lambda text: json.dumps({**json.loads(text), "words": {
        w: 7 for w in json.loads(text)["words"]}}),
}


@pytest.fixture
def warned(context):
    """A page that records console warnings, and fails the test on a console error or uncaught exception."""
    p = context.new_page()
    warnings, errors = [], []
    p.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    p.on("console", lambda m: m.type == "error" and "favicon.ico" not in (m.location or {}).get("url", "") and errors.append(m.text))
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.warnings = warnings
    yield p
    assert errors == [], f"console errors: {errors}"


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_a_corrupt_index_says_search_is_unavailable(warned, built, corruption):
    tmp = Path(tempfile.mkdtemp(prefix="sift-broken-"))
    try:
        public = tmp / "public"
        shutil.copytree(built, public)
        manifest = public / "search" / "manifest.json"
        manifest.write_text(CORRUPTIONS[corruption](manifest.read_text(encoding="utf-8")), encoding="utf-8")
        server = siftsite.Server(public)
        try:
            warned.goto(server.url + "/candies/")
            warned.get_by_role("searchbox", name="Search here...").fill("chocolate")
            expect(warned.get_by_role("status")).to_have_text("Search is unavailable")
            assert any("sift: bad index" in w for w in warned.warnings), warned.warnings
            # Not left marked busy (and dimmed) by a search that could not run: it once was, 300 ms on.
            warned.wait_for_timeout(600)
            assert warned.locator("[aria-busy=true]").count() == 0
            # Typing on, scopes and Cancel still work without an error.
            warned.get_by_role("searchbox").fill("choc")
            expect(warned.get_by_role("status")).to_have_text("Search is unavailable")
            warned.keyboard.press("Escape")
            expect(warned.get_by_role("status")).to_have_text("")
            expect(warned.locator("[data-sift-list=candies]").get_by_role("link")).to_have_count(9)
        finally:
            server.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
