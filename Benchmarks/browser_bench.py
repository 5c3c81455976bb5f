#!/usr/bin/env python3
"""The search bar in headless Chromium on a built list page (part of `make bench`).

    browser_bench.py PUBLIC_DIR [--page /items/] [--term harbor] [--runs 3] [--keys 50] [--keys-dom 50]

Serves PUBLIC_DIR with `python3 -m http.server` on 127.0.0.1 (a free port; only that process is
stopped, by its PID), opens the list page in Chromium (Python Playwright,
executable_path=/usr/bin/chromium) and measures with performance.now() in the page:

- the list page's load time (goto to the `load` event), its first contentful paint (Chromium's
  `paint` entry, from navigation start) and its HTML's bytes (raw, and gzip level 6 as a server
  would send it) with the rows it holds, per cold run;
- cold first query, per run in a fresh context (empty HTTP cache), once the page has loaded, as
  Benchmarks/pagefind_query.py measures Pagefind: the time from typing the term into the field
  (focus and an `input` event, so nothing was fetched before) to the first `sift:results` (rows
  shown; on a sharded index, body matches may still be on the way: `partial`), to the complete
  one ("full") and to the frame after it, and the requests and bytes of
  every /search/ response it needed (http.server does not compress: bytes are raw; the gzip
  figure gzips each fetched file with level 6, as a server would send it), the excerpts' text
  files among them counted apart too (`text_requests`, `text_gzip`);
- keystroke to updated list over --keys-dom keystrokes (typing a fixed list of queries one
  character at a time, a neutral "x" between queries): from the `input` event to `sift:results`
  (the ranked rows are in the page by then) and to the next animation frame (style, layout and
  paint included); median and p95, once as a first visit (body-match shards fetched on the
  way: "keystroke"), once more with every shard cached ("keystroke_warm"), and --warm-passes
  times more ("keystroke_warm_passes": the p95 of every sample, and the p95 of each keystroke's
  median, which tells a slow keystroke from a pause that happened to meet one);
- typing from a cold page (--typing WORD, fresh context, empty cache): WORD typed a character
  every --typing-interval ms from the moment the page has loaded, as a person types; for each
  keystroke, the time from when it was due (not when the page, busy, got to it) to its results,
  and every long task (over 50 ms, Chromium's `longtask` entries) of the main thread until it
  has been quiet for 1.5 s: the document table fetched and built behind the first answers
  lands somewhere in there;
- a field focused on a cold page (--focus-pause S, fresh context): the field focused, S seconds
  waited as a visitor who clicks in and pauses does, then --focus-key typed: the requests
  to /search/ and their gzip bytes, and the long tasks, from the focus to the key; the key's
  time from its `input` to its results;
- the typing and the focus at a given bandwidth (--throttle MBPS, Chromium's network emulation);
- sift-core.js alone, imported into a page of the site: index load, a first query, and the
  same keystrokes through search() with the bar's limit of 50 rows (the part of a keystroke
  the search itself costs), first
  with the shard fetches they need, then again warm.

Prints one JSON object. Nothing fails on a figure: benchmarks are not tests.
"""
import argparse
import gzip
import json
import os
import statistics
import time
import urllib.parse

from pagefind_query import static_server

QUERIES = ["harbor", "volcano", "choc", "a", "port lou", "isla", "rouxthum", "choclate", "new", "腊", "sa", "mount", "bay"]

TYPE = r"""
async (value) => {
  const input = document.querySelector('form[role=search] input[type=search]');
  const form = input.form;
  return await new Promise((resolve) => {
    let t0, first;
    const done = (e) => {
      if (e.detail.query !== value) return;
      first ??= performance.now();
      if (e.detail.partial) return;  // field matches shown, body matches on the way
      form.removeEventListener("sift:results", done);
      const t1 = performance.now();
      requestAnimationFrame(() => setTimeout(() => resolve({ results_ms: first - t0, full_ms: t1 - t0, frame_ms: performance.now() - t0, total: e.detail.total })));
    };
    form.addEventListener("sift:results", done);
    input.focus();
    t0 = performance.now();
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
"""

CORE = r"""
async ([queries, keys, term]) => {
  const { SiftIndex } = await import("/assets/sift-core.js?bench");
  const now = () => performance.now(), t0 = now();
  const ix = await SiftIndex.load("/search/manifest.json");
  const t1 = now();
  const opts = { limit: 50 };  // as the bar asks on a list page: the first 50 rows
  await ix.search(term, opts);
  const t2 = now(), pass = async () => {
    const times = [];
    await ix.search("zzzz", opts);
    for (;;) for (const q of queries) {
      await ix.search("x", opts);
      for (let i = 1; i <= q.length; i++) {
        if (times.length >= keys) return times;
        const a = now();
        await ix.search(q.slice(0, i), opts);
        times.push(now() - a);
      }
    }
  };
  const times = await pass(), warm = await pass();  // the first pass fetches shards
  return { load_ms: t1 - t0, first_ms: t2 - t1, times, warm };
}
"""


# WORD typed from a cold page, a character every `interval` ms: each keystroke's time from when
# it was due to its results, and the main thread's long tasks until it has been quiet for 1.5 s.
TYPING = r"""
async ([word, interval]) => {
  const input = document.querySelector('form[role=search] input[type=search]'), form = input.form;
  const tasks = [], shown = {}, now = () => performance.now(), sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  new PerformanceObserver((list) => list.getEntries().forEach((e) => tasks.push([e.startTime, e.duration]))).observe({ type: "longtask" });
  form.addEventListener("sift:results", (e) => { if (!e.detail.partial) shown[e.detail.query] ??= now(); });
  input.focus();
  const t0 = now(), due = [];
  for (let i = 1; i <= word.length; i++) {
    due.push(t0 + (i - 1) * interval);
    await sleep(Math.max(0, due.at(-1) - now()));
    input.value = word.slice(0, i);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  for (let quiet = 0; quiet < 1500 || !(word in shown); quiet = now() - Math.max(t0, ...tasks.map(([s, d]) => s + d))) await sleep(100);
  return { keys: due.map((at, i) => (shown[word.slice(0, i + 1)] ?? NaN) - at),
           tasks: tasks.filter(([s]) => s >= t0).map(([s, d]) => [s - t0, d]) };
}
"""


# The field focused and left for `pause` ms: the long tasks meanwhile. Then KEY: `key` typed, its time to its results.
FOCUS = r"""
async (pause) => {
  const input = document.querySelector('form[role=search] input[type=search]'), tasks = [];
  new PerformanceObserver((list) => list.getEntries().forEach((e) => tasks.push([e.startTime, e.duration]))).observe({ type: "longtask" });
  input.focus();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, pause));
  return tasks.map(([s, d]) => [s - t0, d]);
}
"""

KEY = r"""
async (key) => {
  const input = document.querySelector('form[role=search] input[type=search]'), t0 = performance.now();
  const shown = new Promise((resolve) => input.form.addEventListener("sift:results", (e) => e.detail.query === key && !e.detail.partial && resolve(performance.now())));
  input.value = key;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  return (await shown) - t0;
}
"""


# The list page's first contentful paint (ms from navigation start) and the rows it holds.
PAINT = r"""
async () => {
  const fcp = () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime;
  for (let i = 0; fcp() === undefined && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
  return { fcp_ms: fcp() ?? null, rows: document.querySelectorAll("[data-sift-list] > li").length };
}
"""


def page_html(response, public, path):
    """The page's HTML as served; Chromium drops a long page's body from its inspector cache, and then
    it is the served file (http.server sends it as it is)."""
    try:
        return response.body()
    except Exception:
        return open(os.path.join(public, path.lstrip("/"), "index.html" if path.endswith("/") else ""), "rb").read()


def served_body(request, public):
    """A fetched file's bytes as served; from the file itself when Chromium has dropped a large
    body (the title table at a million items) from its inspector cache."""
    try:
        return request.response().body()
    except Exception:
        return open(os.path.join(public, urllib.parse.urlsplit(request.url).path.lstrip("/")), "rb").read()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("public")
    ap.add_argument("--page", default="/items/")
    ap.add_argument("--term", default="harbor")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keys", type=int, default=50)
    ap.add_argument("--keys-dom", type=int, default=50, help="keystrokes through the page's search bar (0: none)")
    ap.add_argument("--queries", default=",".join(QUERIES), help="the words typed key by key, comma-separated (default: a mix of common, rare, typo and CJK terms)")
    ap.add_argument("--warm-passes", type=int, default=3, help="more warm passes of the --keys-dom keystrokes, for their p95 (0: none)")
    ap.add_argument("--typing", default="harbor", help="a word typed from a cold page (empty: none)")
    ap.add_argument("--typing-interval", type=float, default=150, help="ms between its keystrokes")
    ap.add_argument("--focus-pause", type=float, default=2, help="seconds between focusing the field and typing --focus-key (0: none)")
    ap.add_argument("--focus-key", default="h")
    ap.add_argument("--throttle", type=float, default=0, help="Mbit/s the typing and focus runs' pages download at, with 20 ms of latency (0: loopback's)."
                    " The test server does not compress: 150 Mbit/s of raw JSON stands for about 50 of gzip")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--timeout", type=float, default=600, help="seconds for a page load (100k rows take a while)")
    a = ap.parse_args()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print(json.dumps({"error": "python playwright is not installed"}))
        return
    out = {"page": a.page, "term": a.term}
    with static_server(a.public) as base:
        url = base + a.page
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=a.chromium, headless=True)
            cold = []
            for _ in range(a.runs):
                ctx = browser.new_context()
                page = ctx.new_page()
                fetched = []
                page.on("requestfinished", lambda r: "/search/" in r.url and fetched.append(r))
                start = time.perf_counter()
                response = page.goto(url, wait_until="load", timeout=a.timeout * 1000)
                load_s = time.perf_counter() - start
                html = page_html(response, a.public, a.page)
                paint = page.evaluate(PAINT)
                page.wait_for_selector("form[role=search] input[type=search]", state="attached", timeout=a.timeout * 1000)
                r = page.evaluate(TYPE, a.term)
                raw = gz = texts = text_gz = 0
                for req in fetched:
                    body = served_body(req, a.public)
                    raw += len(body)
                    gz += len(gzip.compress(body, 6))
                    # The excerpts' text files of the rows shown (and their name tables), asked for once the results are in.
                    if "/search/immutable/text" in req.url:
                        texts += 1
                        text_gz += len(gzip.compress(body, 6))
                cold.append({"ms": r["results_ms"], "full_ms": r["full_ms"], "frame_ms": r["frame_ms"], "requests": len(fetched), "raw": raw, "gzip": gz,
                             "text_requests": texts, "text_gzip": text_gz, "total": r["total"], "page_load_s": load_s,
                             "fcp_ms": paint["fcp_ms"], "html_raw": len(html), "html_gzip": len(gzip.compress(html, 6)), "rows": paint["rows"]})
                ctx.close()
            out["cold"] = {"median_ms": statistics.median(c["ms"] for c in cold), "full_median_ms": statistics.median(c["full_ms"] for c in cold),
                           "frame_median_ms": statistics.median(c["frame_ms"] for c in cold), "runs": cold}
            out["page_load_median_s"] = statistics.median(c["page_load_s"] for c in cold)
            paints = [c["fcp_ms"] for c in cold if c["fcp_ms"] is not None]
            out["list_page"] = {"fcp_median_ms": statistics.median(paints) if paints else None, "fcp_ms": paints,
                                "html_raw": cold[0]["html_raw"], "html_gzip": cold[0]["html_gzip"], "rows": cold[0]["rows"]}
            def fresh_list_page():
                """The list page in a fresh context, downloading at --throttle when given."""
                ctx = browser.new_context()
                page = ctx.new_page()
                if a.throttle:
                    cdp = ctx.new_cdp_session(page)
                    cdp.send("Network.enable")
                    rate = a.throttle * 1e6 / 8
                    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 20, "downloadThroughput": rate, "uploadThroughput": rate})
                page.goto(url, wait_until="load", timeout=a.timeout * 1000)
                page.wait_for_selector("form[role=search] input[type=search]", state="attached", timeout=a.timeout * 1000)
                return ctx, page

            if a.typing:
                runs = []
                for _ in range(a.runs):
                    ctx, page = fresh_list_page()
                    runs.append(page.evaluate(TYPING, [a.typing, a.typing_interval]))
                    ctx.close()
                longest = [max([d for _, d in r["tasks"]], default=0) for r in runs]
                out["typing"] = {"word": a.typing, "interval_ms": a.typing_interval, "throttle_mbps": a.throttle,
                                 "key_max_ms": [max(k for k in r["keys"] if k == k) for r in runs],
                                 "longest_task_ms": longest, "longest_task_median_ms": statistics.median(longest),
                                 "runs": [{"keys_ms": [round(k, 1) if k == k else None for k in r["keys"]],
                                           "long_tasks": [[round(s), round(d)] for s, d in r["tasks"]]} for r in runs]}
            if a.focus_pause:
                runs = []
                for _ in range(a.runs):
                    ctx, page = fresh_list_page()
                    fetched = []
                    page.on("requestfinished", lambda r: "/search/" in r.url and fetched.append(r))
                    tasks = page.evaluate(FOCUS, a.focus_pause * 1000)
                    bodies = [served_body(req, a.public) for req in fetched]
                    runs.append({"requests": len(bodies), "gzip": sum(len(gzip.compress(b, 6)) for b in bodies),
                                 "long_tasks": [[round(s), round(d)] for s, d in tasks], "key_ms": round(page.evaluate(KEY, a.focus_key), 1)})
                    ctx.close()
                out["focus"] = {"pause_s": a.focus_pause, "key": a.focus_key, "key_median_ms": statistics.median(r["key_ms"] for r in runs),
                                "gzip_median": statistics.median(r["gzip"] for r in runs), "runs": runs}
            # sift-core.js alone in the page (no DOM work): load, first query, keystrokes.
            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(base + "/search/manifest.json")
            c = page.evaluate(CORE, [a.queries.split(","), a.keys, a.term])
            out["core"] = {"load_ms": c["load_ms"], "first_query_ms": c["first_ms"], "n": len(c["times"]),
                           "median_ms": statistics.median(c["times"]), "p95_ms": pct(c["times"], 95),
                           "warm_median_ms": statistics.median(c["warm"]), "warm_p95_ms": pct(c["warm"], 95), "warm_max_ms": max(c["warm"])}
            ctx.close()
            if a.keys_dom == 0:
                browser.close()
                print(json.dumps(out))
                return
            # Warm keystrokes on one page.
            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(url, wait_until="load", timeout=a.timeout * 1000)
            page.wait_for_selector("form[role=search] input[type=search]", state="attached", timeout=a.timeout * 1000)
            page.evaluate(TYPE, "zzzz")  # index loaded

            def keystrokes(per_key=None):
                keys, res, full, frame = 0, [], [], []
                while keys < a.keys_dom:
                    for q in a.queries.split(","):
                        # Not "x" again once the keystrokes are done: the same text searches nothing
                        # anew, and TYPE would wait for results that never come (it hung here).
                        if keys >= a.keys_dom:
                            break
                        page.evaluate(TYPE, "x")  # a short neutral query between words
                        for i in range(1, len(q) + 1):
                            if keys >= a.keys_dom:
                                break
                            r = page.evaluate(TYPE, q[:i])
                            if per_key is not None:
                                per_key.setdefault(keys, []).append(r["results_ms"])
                            res.append(r["results_ms"])
                            full.append(r["full_ms"])
                            frame.append(r["frame_ms"])
                            keys += 1
                return {"n": keys, "results_median_ms": statistics.median(res), "results_p95_ms": pct(res, 95),
                        "full_median_ms": statistics.median(full), "full_p95_ms": pct(full, 95),
                        "frame_median_ms": statistics.median(frame), "frame_p95_ms": pct(frame, 95)}

            # First pass: as a visitor's first queries, fetching the body-match shards they need;
            # second pass: the same keystrokes again, every shard cached (rendering and search only).
            out["keystroke"] = keystrokes()
            out["keystroke_warm"] = keystrokes()
            # More warm passes: each keystroke's median over them tells a slow keystroke from one
            # that a garbage collection or another process happened to meet; both p95s are kept.
            if a.warm_passes:
                per_key = {}
                for _ in range(a.warm_passes):
                    keystrokes(per_key)
                times = [t for ts in per_key.values() for t in ts]
                medians = [statistics.median(ts) for ts in per_key.values()]
                out["keystroke_warm_passes"] = {"passes": a.warm_passes, "n": len(times), "results_median_ms": statistics.median(times),
                                                "results_p95_ms": pct(times, 95), "per_key_median_p95_ms": pct(medians, 95)}
            ctx.close()
            browser.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
