"""axe-core over every kind of page of the example site, light and dark, desktop and phone:
no serious or critical WCAG 2.1 A/AA violation. The search bar's states are audited on every
options-matrix site by test_options_matrix.py."""
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
