"""Every search option in combination: a pairwise set of sites, each driven through one visitor
script on a list page and on a page with the results panel, checked at every state for the
documented behaviour, for sideways overflow at four widths, and by axe-core in light and dark.

The index's two engines are a dimension too: a site of 50,000 documents or more answers short
terms from its answers files (forced here with SIFT_ANSWERS_FROM).

Options taken one at a time on their defaults hid two defects (hide_navigation: false threw on
focus; list pages scrolled sideways while searching): every pair of option values appears in
some site here.
"""
import itertools
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

import siftsite
from accessibility import assert_accessible

# Each option's values; None leaves the key out of site.yml (the default).
OPTIONS = {
    "placeholder": [None, "Find a candy", "搜索"],
    "instant": [True, False],
    "dim_background": [False, True],
    "hide_navigation": [True, False],
    "style": ["prominent", "minimal", "centered"],
    "cancel_text": [None, "Done", "完成"],
    "scope_bar": ["active", "always"],
    "theme": [None, "orange"],
    "language": ["en", "ar"],
    # Not a site.yml key: the index of a large site, which answers short terms from its answers
    # files (sift-answers.js) before it fetches the document tables; forced on this small one.
    "answers": [False, True],
}

# The five theme keys of site.yml, as the tutorial's black bar with orange text.
THEMES = {
    "orange": {"font": "'\"Trebuchet MS\", sans-serif'", "text_color": '"#f60"', "bar_tint": '"#000"',
               "field_background": '"#1c1c1e"', "line_width": "2.5px"},
}

WIDTHS = [320, 390, 768, 1280]
HEIGHT = {320: 640, 390: 844, 768: 1024, 1280: 900}


def pairwise(options: dict) -> list[dict]:
    """A small set of rows in which every pair of values of two options appears at least once
    (greedy, deterministic): about a dozen sites instead of every combination's 2,592."""
    names = list(options)
    sizes = [len(options[n]) for n in names]
    uncovered = {(i, a, j, b) for i, j in itertools.combinations(range(len(names)), 2)
                 for a in range(sizes[i]) for b in range(sizes[j])}
    rows = []
    while uncovered:
        i, a, j, b = min(uncovered)
        row = [None] * len(names)
        row[i], row[j] = a, b
        for k in range(len(names)):
            if row[k] is None:
                def gain(v):
                    return sum((min(k, m), v if k < m else row[m], max(k, m), row[m] if k < m else v) in uncovered
                               for m in range(len(names)) if row[m] is not None)
                row[k] = max(range(sizes[k]), key=lambda v: (gain(v), -v))
        uncovered -= {(x, row[x], y, row[y]) for x, y in itertools.combinations(range(len(names)), 2)}
        rows.append({n: options[n][row[k]] for k, n in enumerate(names)})
    return rows


MATRIX = pairwise(OPTIONS)


def site_yml(combo: dict) -> str:
    lines = ["title: Matrix", f"language: {combo['language']}", "search:"]
    if combo["placeholder"] is not None:
        lines.append(f'  placeholder: "{combo["placeholder"]}"')
    for key in ["instant", "dim_background", "hide_navigation"]:
        lines.append(f"  {key}: {str(combo[key]).lower()}")
    lines += [f"  style: {combo['style']}", f"  scope_bar: {combo['scope_bar']}"]
    if combo["cancel_text"] is not None:
        lines.append(f'  cancel_text: "{combo["cancel_text"]}"')
    if combo["theme"]:
        lines.append("theme:")
        lines += [f"  {k}: {v}" for k, v in THEMES[combo["theme"]].items()]
    return "\n".join(lines) + "\n"


def label(combo: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in combo.items() if v is not None)


def build_site(combo: dict, site: Path) -> Path:
    """The example site's content with the combination's site.yml and the built-in templates,
    written to `site` and built into site/public."""
    content = site / "Content"
    for part in ["candies", "countries", "about.md", "index.md"]:
        src = siftsite.REPO / "Content" / part
        (shutil.copytree if src.is_dir() else shutil.copy)(src, content / part)
    (content / "site.yml").write_text(site_yml(combo), encoding="utf-8")
    return siftsite.build(site, site, {"SIFT_ANSWERS_FROM": "1"} if combo["answers"] else None)


@pytest.fixture(scope="module")
def matrix_sites():
    """Every matrix site, built and served."""
    tmp = Path(tempfile.mkdtemp(prefix="sift-matrix-"))
    sites = []
    try:
        for n, combo in enumerate(MATRIX):
            built = build_site(combo, tmp / f"site{n}")
            sites.append((combo, siftsite.Server(built), built))
        yield sites
    finally:
        for _, server, _ in sites:
            server.close()
        shutil.rmtree(tmp, ignore_errors=True)


class Visitor:
    """One visitor on one matrix site: drives the bar and asserts what each state shows."""

    def __init__(self, page, combo, server, built, width, scheme):
        self.page, self.combo, self.server, self.built, self.width, self.scheme = page, combo, server, built, width, scheme
        self.placeholder = combo["placeholder"] or "Search"
        self.cancel_text = combo["cancel_text"] or "Cancel"
        self.requests = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.add_init_script("""window.siftEvents = [];
            for (const n of ['start', 'change', 'submit', 'scope', 'cancel', 'results'])
              document.addEventListener('sift:' + n, e => siftEvents.push([n, e.detail ?? null]));""")

    # What the page shows

    def form(self):
        return self.page.get_by_role("search")

    def cancel_button(self):
        return self.page.get_by_role("button", name=self.cancel_text, exact=True)

    def events(self):
        return [e[0] for e in self.page.evaluate("siftEvents")]

    def rows(self):
        return self.page.locator("[data-sift-list=candies]").get_by_role("link")

    def expect_idle(self):
        expect(self.form()).not_to_have_attribute("data-active", re.compile(".*"))
        expect(self.cancel_button()).to_be_hidden()
        expect(self.page.locator("html")).not_to_have_attribute("data-sift-dim", re.compile(".*"))
        expect(self.page.locator("[data-sift-header]")).to_be_visible()

    def expect_active(self, *, empty: bool, list_page: bool):
        page = self.page
        expect(self.form()).to_have_attribute("data-active", "")
        expect(self.cancel_button()).to_be_visible()
        assert "start" in self.events()
        dimmed = self.combo["dim_background"] and empty
        if dimmed:
            expect(page.locator("html")).to_have_attribute("data-sift-dim", "")
        else:
            expect(page.locator("html")).not_to_have_attribute("data-sift-dim", re.compile(".*"))
        if self.combo["hide_navigation"]:
            expect(page.locator("html")).to_have_attribute("data-sift-hide", "")
            if list_page:
                expect(page.locator("[data-sift-header]")).to_be_hidden()
            else:
                expect(page.get_by_role("navigation", name="Site")).to_be_hidden()
        else:
            expect(page.locator("html")).not_to_have_attribute("data-sift-hide", re.compile(".*"))
            expect(page.get_by_role("navigation", name="Site")).to_be_visible()
        if list_page:
            expect(page.get_by_role("radiogroup", name="Scope")).to_be_visible()

    def expect_no_overflow(self, state: str):
        """At every width: the page is exactly as wide as the viewport, in this state."""
        page = self.page
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT[width]})
            wide = page.evaluate("[document.scrollingElement.scrollWidth, document.documentElement.clientWidth]")
            assert wide[0] == wide[1], f"{state} at {width}px: the page is {wide[0]}px wide ({label(self.combo)})"
        page.set_viewport_size({"width": self.width, "height": HEIGHT[self.width]})

    def expect_accessible(self, state: str):
        """axe-core once the bar's transitions have settled (colours caught mid-transition fail)."""
        self.page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")
        assert_accessible(self.page, f"{state}, {self.scheme}, {self.width}px, {label(self.combo)}")

    def check(self, state: str):
        self.expect_no_overflow(state)
        self.expect_accessible(state)

    # The two scripts

    def search(self, box, text: str):
        """Types as a visitor does; without instant search nothing filters until Enter."""
        box.fill("")
        box.press_sequentially(text)
        if not self.combo["instant"]:
            self.page.wait_for_timeout(150)
            assert "submit" not in self.events()[-1:]
            box.press("Enter")
            assert ["submit", {"query": text}] in self.page.evaluate("siftEvents")

    def list_page(self):
        page, built = self.page, self.built
        page.goto(self.server.url + "/candies/")
        box = page.get_by_role("searchbox", name=self.placeholder)
        expect(self.rows()).to_have_count(9)
        if self.combo["scope_bar"] == "always":
            expect(page.get_by_role("radiogroup", name="Scope")).to_be_visible()
        else:
            expect(page.get_by_role("radiogroup", name="Scope")).to_be_hidden()
        self.expect_idle()
        self.check("list idle")

        box.click()
        self.expect_active(empty=True, list_page=True)
        self.check("list active")

        answer = siftsite.search(built, "a", collection="candies")
        box.press_sequentially("a")
        if not self.combo["instant"]:
            page.wait_for_timeout(150)
            expect(self.rows()).to_have_count(9)
            box.press("Enter")
        expect(self.rows()).to_have_count(answer["total"])
        expect(page.get_by_role("status")).to_have_text(f"{answer['total']} results")
        # The engine of the dimension: "a" answered from an answers file, or from the tables.
        answered = [url for url in self.requests if "/search/immutable/answers." in url]
        assert bool(answered) == self.combo["answers"], answered
        self.expect_active(empty=False, list_page=True)
        self.check("list results")

        hard = siftsite.search(built, "a", collection="candies", scope="Hard")
        page.get_by_role("radio", name=re.compile("^Hard")).click()
        expect(page.get_by_role("radio", name=re.compile("^Hard"))).to_have_attribute("aria-checked", "true")
        expect(self.rows()).to_have_count(hard["total"])
        assert ["scope", {"scope": "Hard"}] in page.evaluate("siftEvents")
        self.check("list scope")

        box.focus()
        box.press("ArrowDown")
        active = page.locator("[data-sift-list=candies] [data-active]")
        expect(active).to_have_count(1)
        # The row's link, in the results the field controls, is what the field names as selected.
        expect(box).to_have_attribute("aria-activedescendant", active.get_by_role("link").first.get_attribute("id"))

        box.press("Escape")
        self.expect_idle()
        expect(self.rows()).to_have_count(9)
        expect(box).to_have_value("")
        assert self.events()[-1] == "cancel"

        # Back from a detail page restores the search.
        self.search(box, "choc")
        first = siftsite.search(built, "choc", collection="candies")["results"][0]
        expect(self.rows().first).to_have_attribute("href", siftsite.mark(first["url"], "choc"))
        self.rows().first.click()
        page.wait_for_url("**" + first["url"])
        page.go_back()
        expect(page.get_by_role("searchbox", name=self.placeholder)).to_have_value("choc")
        expect(self.rows().first).to_have_attribute("href", siftsite.mark(first["url"], "choc"))

        # Recent searches in the empty state, then Cancel by its button.
        box = page.get_by_role("searchbox", name=self.placeholder)
        box.fill("")
        if not self.combo["instant"]:
            box.press("Enter")
        expect(page.get_by_role("button", name="choc", exact=True)).to_be_visible()
        self.check("list empty state with recent searches")
        self.cancel_button().click()
        self.expect_idle()
        expect(self.rows()).to_have_count(9)

    def panel_page(self):
        page, built = self.page, self.built
        page.goto(self.server.url + "/about/")
        box = page.get_by_role("combobox", name=self.placeholder)
        self.expect_idle()
        self.check("panel idle")

        if self.combo["dim_background"]:
            # The dimmed page takes the click: the search ends and no link under it opens.
            box.click()
            self.expect_active(empty=True, list_page=False)
            page.wait_for_timeout(300)
            page.mouse.click(self.width // 2, HEIGHT[self.width] - 20)
            self.expect_idle()
            expect(page).to_have_url(re.compile(r"/about/$"))

        box.click()
        self.expect_active(empty=True, list_page=False)
        self.search(box, "cote")
        expect(page.get_by_role("listbox", name="Results")).to_be_visible()
        expect(page.get_by_role("option").first).to_contain_text("Côte d'Ivoire")
        expect(box).to_have_attribute("aria-expanded", "true")
        self.expect_active(empty=False, list_page=False)
        box.press("ArrowDown")
        option = page.get_by_role("option", selected=True)
        expect(option).to_contain_text("Côte d'Ivoire")
        expect(box).to_have_attribute("aria-activedescendant", option.get_attribute("id"))
        self.check("panel results")

        box.press("Enter")
        page.wait_for_url("**/countries/cote-d-ivoire/")
        page.go_back()
        box = page.get_by_role("combobox", name=self.placeholder)
        expect(box).to_have_value("cote")
        expect(page.get_by_role("option").first).to_contain_text("Côte d'Ivoire")

        box.press("Escape")
        self.expect_idle()
        expect(page.get_by_role("listbox", name="Results")).to_be_hidden()
        expect(box).to_have_value("")
        assert self.events()[-1] == "cancel"


def test_the_matrix_covers_every_pair_of_option_values():
    for (a, b) in itertools.combinations(OPTIONS, 2):
        seen = {(row[a], row[b]) for row in MATRIX}
        assert seen == set(itertools.product(OPTIONS[a], OPTIONS[b])), (a, b)
    assert len(MATRIX) <= 14


@pytest.mark.parametrize("n", range(len(MATRIX)), ids=[f"site{n}" for n in range(len(MATRIX))])
def test_a_visitor_on_every_matrix_site(browser, matrix_sites, n):
    """The visitor script on the list page and the panel page; phone and desktop, light and
    dark alternate so that every state meets each of the four pairs on three sites."""
    combo, server, built = matrix_sites[n]
    width, scheme = [390, 1280][n % 2], ["light", "dark"][n // 2 % 2]
    context = browser.new_context(viewport={"width": width, "height": HEIGHT[width]}, has_touch=width < 768,
                                  color_scheme=scheme)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: m.type in ("error", "warning") and "favicon.ico" not in (m.location or {}).get("url", "")
            and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        visitor = Visitor(page, combo, server, built, width, scheme)
        visitor.list_page()
        visitor.panel_page()
    finally:
        context.close()
    assert errors == [], f"console errors on {label(combo)}: {errors}"


def boxes(page):
    """The field's, the Cancel button's and the magnifier-and-placeholder's boxes, and whether
    Cancel's text fits its box."""
    return page.evaluate("""() => {
        const form = document.querySelector('form[role=search]'), r = e => e.getBoundingClientRect().toJSON();
        const cancel = form.querySelector('.sift-cancel');
        return { field: r(form.querySelector('input')), cancel: r(cancel), hint: r(form.querySelector('.sift-hint')),
                 cancelFits: cancel.scrollWidth <= cancel.clientWidth };
    }""")


@pytest.mark.parametrize("language,width", [("ar", 320), ("ar", 1280), ("zh", 390)])
def test_unicode_labels_and_right_to_left(browser, language, width):
    """搜索 and 完成 fit the bar unclipped; in Arabic the page is dir="rtl" and the bar is mirrored:
    Cancel on the left, the magnifier slides to the right edge, centred until then."""
    site = {
        "Content/site.yml": f"language: {language}\nsearch:\n  placeholder: 搜索\n  cancel_text: 完成\n  style: centered\n",
        "Content/cities/cities.txt": "北京\n上海\n东京\n",
    }
    with siftsite.served_fixture(site, "sift-rtl-") as (server, _):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto(server.url + "/cities/")
        rtl = language == "ar"
        expect(page.locator("html")).to_have_attribute("dir", "rtl") if rtl else \
            expect(page.locator("html")).not_to_have_attribute("dir", re.compile(".*"))
        b = boxes(page)
        field_middle = b["field"]["x"] + b["field"]["width"] / 2
        assert abs(b["hint"]["x"] + b["hint"]["width"] / 2 - field_middle) < 2, b
        page.get_by_role("searchbox", name="搜索").click()
        expect(page.get_by_role("button", name="完成")).to_be_visible()
        page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")
        b = boxes(page)
        assert b["cancelFits"], b
        field, cancel, hint = b["field"], b["cancel"], b["hint"]
        if rtl:
            assert cancel["x"] + cancel["width"] <= field["x"], b
            assert field["x"] + field["width"] - (hint["x"] + hint["width"]) < 12, b
        else:
            assert field["x"] + field["width"] <= cancel["x"], b
            assert hint["x"] - field["x"] < 12, b
        assert 0 <= cancel["x"] and cancel["x"] + cancel["width"] <= width, b
        assert page.evaluate("document.scrollingElement.scrollWidth") == width
        assert_accessible(page, f"{language} at {width}px")
        context.close()
