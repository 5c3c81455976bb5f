"""Hostile content in real Chromium: Tests/Fixtures/hostile-site carries XSS payloads in its titles,
fields, scopes, settings, front matter and Markdown. Served without a CSP (a CSP would hide an
injected inline script), no payload may run and every one must show as the characters it is.

Each payload would set `window.__pwned` or open a dialog; both are watched on every page.
"""
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

import siftsite

FIXTURE = siftsite.REPO / "Tests" / "Fixtures" / "hostile-site"
PAYLOADS = [
    "<script>window.__pwned=1</script>",
    '"><img src=x onerror=window.__pwned=1>',
    "javascript:window.__pwned=1",
    "</textarea>",
    "{{x}}",
    "{{{x}}}",
    "<svg onload=window.__pwned=1>",
    "</script><script>window.__pwned=1</script>",
    "<b>x</b>",
    "line\u2028separator",
    "\u202eevil",
    "L" * 10_000,
    "nul\x00byte",
]
SLUGS = ["bold", "img", "script", "js-link", "mustache", "u2028", "rtl", "long", "nul", "svg", "json-ish", "apple"]


@pytest.fixture(scope="module")
def hostile():
    tmp = Path(tempfile.mkdtemp(prefix="sift-hostile-"))
    out = siftsite.build(FIXTURE, tmp)
    server = siftsite.Server(out)
    yield server
    server.close()
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture
def watched(context):
    """A page that records dialogs (dismissing them) and uncaught errors."""
    p = context.new_page()
    p.dialogs = []
    p.errors = []

    def on_dialog(d):
        p.dialogs.append(d.message)
        d.dismiss()
    p.on("dialog", on_dialog)
    p.on("pageerror", lambda e: p.errors.append(str(e)))
    yield p
    assert p.dialogs == [], f"a payload opened a dialog: {p.dialogs}"
    assert p.errors == [], f"uncaught errors: {p.errors}"


def assert_clean(page):
    """No payload ran, and the DOM holds no element a payload could have smuggled in."""
    assert page.evaluate("typeof window.__pwned") == "undefined", f"a payload ran on {page.url}"
    smuggled = page.evaluate("""() => {
        const bad = [];
        for (const s of document.scripts) {
            if (!s.src || new URL(s.src).origin !== location.origin || !new URL(s.src).pathname.startsWith('/assets/')) bad.push(s.outerHTML.slice(0, 80));
        }
        for (const e of document.querySelectorAll('*')) {
            for (const a of e.attributes) {
                if (a.name.startsWith('on')) bad.push(e.tagName + ' ' + a.name);
                if (['href', 'src', 'action', 'formaction'].includes(a.name) && /^\\s*javascript:/i.test(a.value)) bad.push(e.tagName + ' ' + a.name + '=' + a.value);
            }
        }
        for (const t of ['iframe', 'object', 'embed', 'svg script', 'img[src=x]']) {
            for (const e of document.querySelectorAll(t)) bad.push(e.outerHTML.slice(0, 80));
        }
        return bad;
    }""")
    assert smuggled == [], f"{page.url}: {smuggled}"


def visit(page, url):
    page.goto(url, wait_until="load")
    page.wait_for_timeout(50)  # an injected img's onerror would fire by now
    assert_clean(page)


def test_every_kind_of_page_runs_no_payload(watched, hostile):
    pages = ["/", "/xss/", "/plain/", "/about/", "/404.html", "/does-not-exist/"] + [f"/xss/{s}/" for s in SLUGS]
    for path in pages:
        visit(watched, hostile.url + path)


def test_titles_and_fields_show_literally(watched, hostile):
    visit(watched, hostile.url + "/xss/bold/")
    expect(watched.get_by_role("heading", level=1).first).to_have_text("<b>x</b>")
    assert watched.locator("b").count() == 0 or "x" not in [t.strip() for t in watched.locator("main b").all_inner_texts()]
    body = watched.locator("main").inner_text()
    assert "<script>window.__pwned=1</script>" in body  # the front matter field `extra`

    visit(watched, hostile.url + "/xss/img/")
    expect(watched.get_by_role("heading", level=1).first).to_have_text('"><img src=x onerror=window.__pwned=1>')

    visit(watched, hostile.url + "/xss/json-ish/")
    expect(watched.get_by_role("heading", level=1).first).to_have_text("</script><script>window.__pwned=1</script>")

    visit(watched, hostile.url + "/xss/mustache/")
    expect(watched.get_by_role("heading", level=1).first).to_have_text("{{ site.title }} {{{x}}} {{> p}}")

    visit(watched, hostile.url + "/xss/long/")
    assert watched.get_by_role("heading", level=1).first.inner_text() == "L" * 10_000

    visit(watched, hostile.url + "/xss/rtl/")
    assert "\u202e" in watched.get_by_role("heading", level=1).first.inner_text()

    visit(watched, hostile.url + "/about/")
    expect(watched.get_by_role("heading", level=1).first).to_have_text('<b>x</b> "><img src=x onerror=window.__pwned=1>')
    assert "<b>x</b>" in watched.title()

    visit(watched, hostile.url + "/xss/")
    links = watched.locator("[data-sift-list=xss]").get_by_role("link")
    texts = [t.split("\n")[0] for t in links.all_inner_texts()]
    assert "<b>x</b>" in texts and "<script>window.__pwned=1</script>" in texts, texts


def search_each(page, box, expect_rows):
    for payload in PAYLOADS:
        box.fill(payload)
        page.wait_for_timeout(60)
        assert_clean(page)
        expect(page.get_by_role("status")).not_to_be_empty()
    for payload in ["<b>x</b>", "onerror", "<svg", "{{"]:
        box.fill(payload)
        page.wait_for_timeout(80)
        expect_rows(payload)
        assert_clean(page)


def test_typing_payloads_in_the_list_search_and_switching_scopes(watched, hostile):
    visit(watched, hostile.url + "/xss/")
    rows = watched.locator("[data-sift-list=xss]").get_by_role("link")

    def expect_rows(payload):
        visible = [t for t, v in zip(rows.all_inner_texts(), rows.evaluate_all("els => els.map(a => a.checkVisibility())")) if v]
        assert visible, f"nothing shown for {payload!r}"
        if payload == "<b>x</b>":
            assert visible[0].split("\n")[0] == "<b>x</b>", visible
    watched.get_by_role("searchbox").click()
    search_each(watched, watched.get_by_role("searchbox"), expect_rows)
    radios = watched.get_by_role("radiogroup", name="Scope").get_by_role("radio")
    names = [r.get_attribute("aria-label") or r.inner_text() for r in radios.all()]
    assert any("<script>window.__pwned=1</script>" in n for n in names), names
    assert any("</textarea>" in n for n in names), names
    watched.get_by_role("searchbox").fill("")
    for i in range(radios.count()):
        radios.nth(i).click()
        expect(radios.nth(i)).to_have_attribute("aria-checked", "true")
        assert_clean(watched)
        for payload in ["<script", "onerror", "{{x}}", "\u202e"]:
            watched.get_by_role("searchbox").fill(payload)
            watched.wait_for_timeout(40)
            assert_clean(watched)
    watched.keyboard.press("Escape")
    assert_clean(watched)


def test_typing_payloads_in_the_panel_search(watched, hostile):
    for path in ["/", "/about/", "/xss/bold/", "/404.html"]:
        visit(watched, hostile.url + path)
        box = watched.get_by_role("combobox")  # elsewhere than a list, the field controls a listbox panel
        box.click()

        def expect_rows(payload):
            options = watched.get_by_role("option")
            expect(options.first).to_be_visible()
            if payload == "<b>x</b>":
                texts = options.all_inner_texts()
                assert any("<b>x</b>" in t for t in texts), texts
        search_each(watched, box, expect_rows)
        # Open a result: the detail page it links to must be as clean.
        box.fill("<b>x</b>")
        watched.get_by_role("option").first.click()
        watched.wait_for_load_state("load")
        assert_clean(watched)


def test_url_state_carrying_payloads_is_restored_as_text(watched, hostile):
    from urllib.parse import quote
    for payload in PAYLOADS[:9]:
        visit(watched, hostile.url + "/xss/?q=" + quote(payload) + "&scope=" + quote("<script>window.__pwned=1</script>"))
        assert watched.get_by_role("searchbox").input_value() == payload.replace("\x00", "")
        assert_clean(watched)
