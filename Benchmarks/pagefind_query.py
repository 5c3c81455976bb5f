#!/usr/bin/env python3
"""Pagefind's cold first query in headless Chromium, and the bytes it fetches (part of `make bench`).

    python3 Benchmarks/pagefind_query.py SITE_DIR --term harbor [--term volcano ...] [--runs 3] [--k 10]

SITE_DIR is a built site with a Pagefind index in SITE_DIR/pagefind/. The script serves it with
`python3 -m http.server` on 127.0.0.1 (a free port; that process alone is stopped at the end, by
its PID) and drives Pagefind's JavaScript API in Debian's Chromium through Python Playwright
(executable_path=/usr/bin/chromium; never `playwright install`, which downloads a browser).

For each term, in a fresh browser context (an empty HTTP cache), once the page at
--page has loaded, it times with performance.now() in the page what a visitor's first query
costs: `import("/pagefind/pagefind.js")`, `init()`, `search(term)`, and `data()` of the top
--k results (their fragments), from the import to the last fragment ("cold_ms"). It records
every /pagefind/ response of that first query: requests, bytes as served (http.server does not
compress, so these are the files' sizes; Playwright reports no body size for the worker script,
so sizes are read from the served files) and the same files gzipped at level 6 as a server would
send them (most of Pagefind's files are gzip already, so that figure is close to the raw one).

The first term is queried --runs times, each cold, for a median; the others once each (the
bytes a query fetches do not change from run to run). Prints one JSON object, by term.
Benchmarks are not tests: nothing here fails on a figure.
"""
import argparse
import contextlib
import gzip
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from urllib.parse import unquote, urlsplit

FIRST_QUERY = r"""
async ([term, k]) => {
  const now = () => performance.now();
  const start = now();
  const pagefind = await import("/pagefind/pagefind.js");
  const imported = now();
  await pagefind.init();
  const initialised = now();
  const search = await pagefind.search(term);
  const searched = now();
  const top = await Promise.all(search.results.slice(0, k).map((result) => result.data()));
  const done = now();
  return {
    cold_ms: done - start, import_ms: imported - start, init_ms: initialised - imported,
    search_ms: searched - initialised, data_ms: done - searched,
    hits: search.results.length, top: top.slice(0, 3).map((page) => page.meta.title),
  };
}
"""


@contextlib.contextmanager
def static_server(directory):
    """Serves `directory` on 127.0.0.1 at a free port; yields the base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", directory], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("http.server did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(10)


def served_file(site, url):
    return os.path.join(site, unquote(urlsplit(url).path).lstrip("/"))


def first_query(browser, base, site, page_path, term, k):
    """One cold first query in a fresh context: the page's timings and the /pagefind/ files fetched."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    fetched = []
    context.on("requestfinished", lambda request: "/pagefind/" in request.url and fetched.append(request.url))
    page = context.new_page()
    page.goto(base + page_path, wait_until="load", timeout=120_000)
    fetched.clear()  # only what the query itself needs
    result = page.evaluate(FIRST_QUERY, [term, k])
    settled = -1
    while settled != len(fetched):  # let the last requestfinished events arrive
        settled = len(fetched)
        page.wait_for_timeout(200)
    context.close()
    raw = compressed = 0
    for url in fetched:
        path = served_file(site, url)
        data = open(path, "rb").read() if os.path.isfile(path) else b""
        raw += len(data)
        compressed += len(gzip.compress(data, 6))
    result.update(requests=len(fetched), raw=raw, gzip=compressed,
                  files=sorted(urlsplit(url).path for url in fetched))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", help="a built site with its Pagefind index in pagefind/")
    parser.add_argument("--term", action="append", required=True)
    parser.add_argument("--runs", type=int, default=3, help="cold runs of the first term")
    parser.add_argument("--k", type=int, default=10, help="results whose data() is loaded")
    parser.add_argument("--page", default="/", help="the page the query starts from")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    if not os.path.isfile(os.path.join(site, "pagefind", "pagefind.js")):
        raise SystemExit(f"no Pagefind index in {site}/pagefind")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print(json.dumps({"error": "Python Playwright is not installed (make browser-deps)"}))
        return
    if not os.path.exists(args.chromium):
        print(json.dumps({"error": f"no Chromium at {args.chromium} (make browser-deps)"}))
        return
    out = {"terms": {}}
    with static_server(site) as base, sync_playwright() as playwright:
        # Playwright passes --no-sandbox by default (chromiumSandbox is false), which root needs.
        browser = playwright.chromium.launch(executable_path=args.chromium, headless=True)
        out["chromium"] = browser.version
        for position, term in enumerate(args.term):
            runs = [first_query(browser, base, site, args.page, term, args.k)
                    for _ in range(args.runs if position == 0 else 1)]
            first = runs[0]
            out["terms"][term] = {
                "cold_median_ms": statistics.median(run["cold_ms"] for run in runs),
                "init_median_ms": statistics.median(run["init_ms"] for run in runs),
                "requests": first["requests"], "raw": first["raw"], "gzip": first["gzip"],
                "hits": first["hits"], "top": first["top"], "files": first["files"],
                "cold_ms": [round(run["cold_ms"], 1) for run in runs],
            }
        browser.close()
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
