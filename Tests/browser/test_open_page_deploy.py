"""A page opened before a deploy and searched after it (docs/deploy.md, "Deploys under an open
page"): the site is served through a small caching proxy that keeps each answer for the max-age
the build's `_headers` gives it, as a CDN does, and rebuilt while the page stays open. The page
must answer from the new index, with no console error and no failed request."""
import http.server
import re
import shutil
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

import siftsite

WORDS = 600


def notes(changes: dict) -> dict:
    """A site of WORDS notes, sharded: each note's body holds its own made-up words."""
    files = {"Content/notes/notes.txt": "".join(f"Note {i}\n" for i in range(WORDS)),
             "Content/notes/collection.yml": "title: Notes\n"}
    for i in range(WORDS):
        body = " ".join(f"w{i}x{k}{'abcdefghij'[(i * 7 + k) % 10]}{'klmnopqrst'[(i + k * 3) % 10]}word" for k in range(40))
        files[f"Content/notes/note-{i}.md"] = changes.get(i, body) + "\n"
    return files


class CachingProxy:
    """Forwards GETs to `origin` and keeps each answer for its Cache-Control max-age, as a CDN
    does; a file removed at the origin is still answered while its copy is fresh."""

    def __init__(self, origin: str):
        cache, self.requests, lock = {}, [], threading.Lock()
        requests = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                with lock:
                    requests.append(self.path)
                    hit = cache.get(self.path)
                if hit and hit[0] > time.monotonic():
                    return self.answer(*hit[1:])
                try:
                    with urllib.request.urlopen(origin + self.path) as r:
                        status, headers, body = r.status, r.headers, r.read()
                except urllib.error.HTTPError as e:
                    status, headers, body = e.code, e.headers, e.read()
                age = re.search(r"max-age=(\d+)", headers.get("Cache-Control", ""))
                if status == 200 and age and int(age.group(1)) > 0:
                    with lock:
                        cache[self.path] = (time.monotonic() + int(age.group(1)), status, headers, body)
                self.answer(status, headers, body)

            def answer(self, status, headers, body):
                self.send_response(status)
                for k in ["Content-Type", "Cache-Control", "Last-Modified"]:
                    if headers.get(k):
                        self.send_header(k, headers.get(k))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def headers_of(built: Path) -> dict:
    """The build's _headers as {path or prefix*: Cache-Control}."""
    rules, path = {}, None
    for line in (built / "_headers").read_text().splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            path = line.strip()
        elif path and line.strip().lower().startswith("cache-control:"):
            rules[path] = line.split(":", 1)[1].strip()
    return rules


@pytest.fixture
def deployed():
    """The notes site built and served as a host with the build's _headers would, behind the
    caching proxy: yields (proxy, deploy(changes)), which rebuilds the site in place and returns
    its folder."""
    site = siftsite.fixture_site(notes({5: "quokkaone lives here"}))
    tmp = Path(tempfile.mkdtemp(prefix="sift-open-page-"))
    built = siftsite.build(site, tmp)

    def cache_control(path: str) -> str:
        for rule, value in headers_of(built).items():
            if path == rule or rule.endswith("*") and path.startswith(rule[:-1]):
                return value
        return "public, max-age=0, must-revalidate"

    class Origin(http.server.SimpleHTTPRequestHandler):
        def end_headers(self):
            self.send_header("Cache-Control", cache_control(self.path))
            super().end_headers()

        def log_message(self, *args):
            pass

    import functools
    origin = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Origin, directory=str(built)))
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    proxy = CachingProxy(f"http://127.0.0.1:{origin.server_address[1]}")

    def deploy(changes: dict) -> Path:
        for rel, text in notes(changes).items():
            (site / rel).write_text(text, encoding="utf-8")
        return siftsite.build(site, tmp)

    try:
        yield proxy, deploy
    finally:
        proxy.close()
        origin.shutdown()
        origin.server_close()
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)


ROWS = "[data-sift-list=notes] > li > a:first-child:visible"


def shown(page) -> list:
    """The titles of the rows shown: each row's own link, without the excerpt a body match adds."""
    return [text.split("\n")[0] for text in page.locator(ROWS).all_inner_texts()]


def search_whole(page, field, text):
    """Types `text` and waits for its whole answer (its sift:results without `partial`): the status
    of a new answer may read as the last one's did ("1 result"), and a term found only in bodies
    shows nothing before its shards come."""
    page.evaluate("""() => window.answered ??= (document.addEventListener('sift:results', (e) => e.detail.partial || answered.add(e.detail.query)), new Set())""")
    page.evaluate("(text) => answered.delete(text)", text)
    field.fill(text)
    page.wait_for_function("(text) => answered.has(text)", arg=text)


def test_a_page_open_across_a_deploy_searches_the_new_index(page, deployed):
    proxy, deploy = deployed
    failed = []
    page.on("response", lambda r: r.status >= 400 and failed.append(r.url))
    page.goto(proxy.url + "/notes/")
    field = page.get_by_role("searchbox")
    field.fill("quokkaone")
    expect(page.get_by_role("status")).to_have_text("1 result")
    assert shown(page) == ["Note 5"]

    # The word moves from note 5 to note 9, and note 5 gets another: their shards change names.
    deploy({5: "wombatwo lives here now", 9: "quokkaone moved in"})
    # Past the time an index trusts its manifest without asking again.
    time.sleep(10.5)
    search_whole(page, field, "wombatwo")
    expect(page.get_by_role("status")).to_have_text("1 result")
    assert shown(page) == ["Note 5"]
    search_whole(page, field, "quokkaone")
    expect(page.get_by_role("status")).to_have_text("1 result")
    assert shown(page) == ["Note 9"]
    assert failed == []
    assert proxy.requests.count("/search/manifest.json") >= 2, proxy.requests


def deploy_another_sift(built: Path, *, page_reads_it: bool):
    """Makes the deployed site look built by a sift of a later index version: its manifest says
    version 7 (6 is the ranked layout, which this sift reads too), and (with `page_reads_it`) its
    pages load a search bar that reads version 7, under new immutable names, as another sift's would be."""
    manifest = built / "search/manifest.json"
    manifest.write_text(manifest.read_text().replace('"version":5,', '"version":7,', 1))
    if not page_reads_it:
        return
    assets = built / "assets"
    core = next(assets.glob("sift-core.[0-9a-f]*.js")).name
    bar = next(p.name for p in assets.glob("sift.[0-9a-f]*.js") if re.fullmatch(r"sift\.[0-9a-f]{12}\.js", p.name))
    new_core, new_bar = "sift-core.0000000000c4.js", "sift.0000000000b4.js"
    text = (assets / core).read_text()
    assert "version:5," in text
    (assets / new_core).write_text(text.replace("version:5,", "version:7,", 1))
    (assets / new_bar).write_text((assets / bar).read_text().replace(core, new_core))
    for html in built.rglob("*.html"):
        html.write_text(html.read_text().replace(bar, new_bar))


def test_a_deploy_of_another_index_version_reloads_the_page_with_its_search(page, deployed):
    """SPEC's deploys: correct results or a clean reload, never an error. A page whose script
    cannot read the new index reloads once, its search in the URL, and answers from the new site."""
    proxy, deploy = deployed
    failed, warnings = [], []
    page.on("response", lambda r: r.status >= 400 and failed.append(r.url))
    # Console errors fail every test (conftest.py); a warning here is one too.
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    page.goto(proxy.url + "/notes/")
    field = page.get_by_role("searchbox")
    field.fill("quokkaone")
    expect(page.get_by_role("status")).to_have_text("1 result")
    page.evaluate("window.beforeDeploy = true")

    built = deploy({5: "wombatwo lives here now", 9: "quokkaone moved in"})
    deploy_another_sift(built, page_reads_it=True)
    time.sleep(10.5)
    field.fill("wombatwo")
    # The page reloaded (what it set is gone) with the search it had, and answers from the new index.
    page.wait_for_function("!window.beforeDeploy && document.readyState == 'complete'")
    expect(page.get_by_role("searchbox")).to_have_value("wombatwo")
    expect(page.get_by_role("status")).to_have_text("1 result")
    assert shown(page) == ["Note 5"]
    assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "reload"
    assert "q=wombatwo" in page.url
    assert failed == [] and warnings == [], (failed, warnings)


def test_a_page_that_still_cannot_read_the_index_reloads_only_once(page, deployed):
    """A host that keeps sending the old pages with the new index (a CDN's stale copy): one reload,
    then the bar says search is unavailable, and the page stays put."""
    proxy, deploy = deployed
    loads, warnings = [], []
    page.on("load", lambda loaded: loads.append(loaded.url))
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    page.goto(proxy.url + "/notes/")
    field = page.get_by_role("searchbox")
    field.fill("quokkaone")
    expect(page.get_by_role("status")).to_have_text("1 result")

    built = deploy({5: "wombatwo lives here now"})
    deploy_another_sift(built, page_reads_it=False)
    time.sleep(10.5)
    field.fill("wombatwo")
    expect(page.get_by_role("status")).to_have_text("Search is unavailable")
    page.wait_for_timeout(500)
    expect(page.get_by_role("status")).to_have_text("Search is unavailable")
    assert len(loads) == 2, loads
    assert any("sift: bad index" in w for w in warnings), warnings


def test_offline_a_module_that_cannot_load_leaves_the_page_as_it_is(context, server):
    """A module of the bar that fails to load reloads the page only online (a deploy removed it):
    offline, a reload would lose the page for an error page. The bar says search is unavailable."""
    page = context.new_page()
    loads = []
    page.on("load", lambda loaded: loads.append(loaded.url))
    page.goto(server.url + "/")
    context.set_offline(True)
    page.get_by_role("combobox", name="Search here...").click()
    expect(page.locator(".sift-status")).to_have_text("Search is unavailable")
    page.wait_for_timeout(500)
    assert loads == [server.url + "/"]
    context.set_offline(False)
