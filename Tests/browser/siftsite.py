"""Builds Sift sites into temporary folders and serves them on 127.0.0.1, for the browser tests and screenshots.py.

SIFT=path picks the sift binary (default: .build/release/sift of this repository).
SIFT_ASSETS=dir overlays the files of dir onto public/assets/ after each build, under their own and
their immutable names, to try edits of Web/ without rebuilding sift (`Web/build.sh dir` writes
sift.js, sift-core.js and sift.css there).
"""
import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SIFT = os.environ.get("SIFT") or str(REPO / ".build/release/sift")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# 130 widgets in two scopes and three colours, with a facet and a sort field: the collection the
# tests of options in combination search (enough rows for "Show more" and a panel's next 20).
COLORS = ["Red", "Blue", "Green"]
WIDGETS = "name,shape,color,size\n" + "".join(
    f"Widget {i:03},{'Round' if i % 2 else 'Square'},{COLORS[i % 3]},{i}\n" for i in range(1, 131))
WIDGETS_YML = "title_field: name\nscope_field: shape\nscopes: [Round, Square]\nfacets: [color]\nsort_fields: [size]\n"


def build(site: Path, into: Path, env: dict | None = None) -> Path:
    """Builds `site` into `into`/public (`env` added to sift's environment) and returns that folder."""
    out = into / "public"
    subprocess.run([SIFT, "build", "--site", str(site), "--output", str(out), "--quiet"], check=True, env={**os.environ, **(env or {})})
    if os.environ.get("SIFT_ASSETS"):
        for f in Path(os.environ["SIFT_ASSETS"]).iterdir():
            for target in [out / "assets" / f.name, *(out / "assets").glob(f"{f.stem}.{'[0-9a-f]' * 12}{f.suffix}")]:
                shutil.copy(f, target)
    return out


def search(built: Path, query: str, **opts) -> dict:
    """What `sift search --json` answers from the index built into `built` (a …/public folder)."""
    args = [SIFT, "search", query, "--site", str(built.parent), "--json"]
    for k, v in opts.items():
        args += [f"--{k}", str(v)]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def mark(url: str, query: str) -> str:
    """A result link's href: `url` carrying the query as ?mark= (encodeURIComponent's escapes)
    before its #fragment (docs/search-bar.md, "Arrival")."""
    if not query:
        return url
    path, hash_, fragment = url.partition("#")
    return path + "?mark=" + urllib.parse.quote(query, safe="!*'()") + hash_ + fragment


def result_urls(page, hrefs: list) -> list:
    """The URLs of a list's result links: each href checked to carry the query of the page's
    search field, as `mark` writes it, and returned without it or a text fragment (which a
    body match's link gains once its excerpt shows)."""
    query = page.get_by_role("searchbox").first.input_value()
    out = []
    for href in hrefs:
        bare = re.sub(r"\?mark=[^#]*", "", href.split("#:~:")[0], count=1)
        assert href.split("#:~:")[0] == mark(bare, query), f"{href} carries no ?mark= for {query!r}"
        out.append(bare)
    return out


def list_rows(page, collection: str):
    """The result links of a list page's rows (`data-sift-list`), as shown."""
    return page.locator(f"[data-sift-list={collection}] > li > a:first-child:visible")


def list_shown(page, collection: str) -> list:
    """The URLs of the rows `list_rows` finds, checked by `result_urls`."""
    return result_urls(page, list_rows(page, collection).evaluate_all("els => els.map(a => a.getAttribute('href'))"))


def fixture_site(files: dict) -> Path:
    """Writes a site folder from {relative path: text} into a new temporary folder."""
    root = Path(tempfile.mkdtemp(prefix="sift-site-"))
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


class Server:
    """python3 -m http.server on a free loopback port, optionally sending extra headers (a CSP)."""

    def __init__(self, folder: Path, headers: dict | None = None):
        extra = headers or {}

        class Handler(http.server.SimpleHTTPRequestHandler):
            def end_headers(self):
                for k, v in extra.items():
                    self.send_header(k, v)
                super().end_headers()

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@contextlib.contextmanager
def page_with_back_forward_cache(browser, width: int = 1280, height: int = 900):
    """A page of a Chromium of its own with the back-forward cache on, as Chrome, Safari and
    Firefox have it (Playwright turns it off). A page restored from the cache keeps its globals:
    set `window.kept = true` before leaving, and read it after coming back."""
    cached = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                         ignore_default_args=["--disable-back-forward-cache"], args=["--enable-features=BackForwardCache"])
    try:
        yield cached.new_page(viewport={"width": width, "height": height})
    finally:
        cached.close()


@contextlib.contextmanager
def served_fixture(files: dict, prefix: str, env: dict | None = None):
    """A fixture site built into a temporary folder (`env` added to sift's environment) and
    served: yields (server, built folder), then stops the server and removes both folders."""
    site = fixture_site(files)
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    built = build(site, tmp, env)
    server = Server(built)
    try:
        yield server, built
    finally:
        server.close()
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)


def served_things(csv: str, settings: str, prefix: str, env: dict | None = None):
    """`served_fixture` of a site of one collection, things: its CSV and its collection.yml."""
    return served_fixture({"Content/things/collection.yml": settings, "Content/things/things.csv": csv}, prefix, env)
