"""Fixtures: the example site built once, served plainly and under a strict CSP, and a Chromium page per test."""
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

import siftsite


@pytest.fixture(scope="session")
def built():
    tmp = Path(tempfile.mkdtemp(prefix="sift-browser-"))
    yield siftsite.build(siftsite.REPO, tmp)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def server(built):
    s = siftsite.Server(built)
    yield s
    s.close()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=siftsite.CHROMIUM, headless=True)
        yield b
        b.close()


@pytest.fixture
def context(browser):
    c = browser.new_context(viewport={"width": 1280, "height": 900})
    yield c
    c.close()


@pytest.fixture
def page(context):
    """A page that fails the test on any console error or uncaught exception (a missing favicon aside)."""
    p = context.new_page()
    errors = []
    p.on("console", lambda m: m.type == "error" and "favicon.ico" not in (m.location or {}).get("url", "") and errors.append(m.text))
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    assert errors == [], f"console errors: {errors}"
