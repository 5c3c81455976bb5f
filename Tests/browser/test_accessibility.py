"""axe-core over every kind of page of the example site, light and dark, desktop and phone:
no serious or critical WCAG 2.1 A/AA violation. The search bar's states are audited on every
options-matrix site by test_options_matrix.py."""
import re

import pytest
from playwright.sync_api import expect

from accessibility import assert_accessible

PAGES = {"home": "/", "list": "/candies/", "long list": "/countries/", "detail": "/candies/caramel/",
         "page": "/about/", "404": "/404.html"}
DEVICES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", DEVICES)
def test_every_page_kind_passes_axe(browser, server, device, scheme):
    context = browser.new_context(viewport=DEVICES[device], color_scheme=scheme)
    page = context.new_page()
    try:
        for kind, path in PAGES.items():
            page.goto(server.url + path)
            expect(page.locator("[data-sift-search] form, body:not(:has([data-sift-search]))").first).to_be_attached()
            assert_accessible(page, f"{kind} page, {device}, {scheme}")
    finally:
        context.close()


def test_the_panel_scrolls_by_keyboard(page, server):
    """A long results panel is a scrolling listbox a keyboard can reach (axe: scrollable-region-focusable)."""
    page.set_viewport_size({"width": 390, "height": 600})
    page.goto(server.url + "/about/")
    page.get_by_role("combobox").fill("an")
    listbox = page.get_by_role("listbox", name="Results")
    # 20 results, then the option that shows more.
    expect(page.get_by_role("option")).to_have_count(21)
    expect(page.get_by_role("option").last).to_have_accessible_name("Show more results")
    assert listbox.evaluate("l => l.scrollHeight > l.clientHeight")
    assert_accessible(page, "a long results panel")
    listbox.focus()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("option", selected=True)).to_have_count(1)


def test_a_list_searched_with_its_header_hidden_keeps_its_level_one_heading(page, server):
    """`hide_navigation` (on by default) takes the list's header away while searching; its title,
    the page's one `<h1>`, was taken out of the accessibility tree with it (axe's best practice
    page-has-heading-one), so a screen reader's list of headings had none to go back to."""
    page.goto(server.url + "/countries/")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_accessible_name("Countries")
    page.get_by_role("searchbox").fill("an")
    expect(page.locator("html[data-sift-hide]")).to_be_attached()
    expect(page.get_by_role("status")).to_have_text(re.compile(r"^\d+ results$"))
    expect(heading).to_have_count(1)
    expect(heading).to_have_accessible_name("Countries")
    # Out of sight as before: the results start where the header was.
    box = heading.bounding_box()
    assert box is None or box["width"] <= 1 and box["height"] <= 1, box
    page.get_by_role("button", name="Cancel").click()
    expect(heading).to_be_visible()
