#!/usr/bin/env python3
"""`make bench-1m`: sift at a million items (issue 18). On the corpus of Benchmarks/corpus.py
with 1,000,000 rows, a Markdown page for every tenth (`--pages-every 10`), and 100 items a list
page: the clean build, the build with nothing changed and the build after a one-page edit (wall
time, CPU time, peak RSS, the load average around each), the index's total size (raw, gzip, files)
and the output's; then, at 1M and on the 100k corpus (every item with a page, also 100 a list
page), the first query per term in node (Benchmarks/first_query.mjs: requests, gzip bytes) and the
search bar in headless Chromium (Benchmarks/browser_bench.py: cold first query, keystroke to
updated list median and p95). Runs on a tmpfs (/dev/shm): a million files is too many for this
machine's disk. Benchmarks are not tests: nothing here fails on a figure, it prints them, and
`--json FILE` keeps them.

    python3 Benchmarks/bench_million.py [--sizes 1000000,100000] [--work DIR] [--no-browser] [--json FILE]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

BENCHMARKS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCHMARKS)
import bench  # noqa: E402  (Benchmarks/bench.py: its measuring helpers)
import corpus as corpus_generator  # noqa: E402

WORK = os.environ.get("BENCH_WORK", "/dev/shm/sift-bench-1m")
PER_PAGE = 100
QUERY_TERMS = ["harbor", "volcano", "a", "ha", "new", "腊"]


def corpus(n, pages_every):
    """WORK/c<n>-p<k>: the corpus of Benchmarks/corpus.py, kept from an earlier run when its
    generator and shape match (per_page is set in collection.yml either way: it is no content)."""
    d = os.path.join(WORK, f"c{n}-p{pages_every}")
    try:
        info = json.load(open(os.path.join(d, "corpus.json")))
        if info.get("generator") == corpus_generator.GENERATOR and info.get("n") == n and info.get("pages_every", 1) == pages_every:
            set_per_page(d)
            return d, info
    except (OSError, ValueError):
        pass
    shutil.rmtree(d, ignore_errors=True)
    start = time.perf_counter()
    info = corpus_generator.write_corpus(n, d, layouts={"sift"}, pages_every=pages_every, per_page=PER_PAGE)
    print(f"{n:>8} corpus  Benchmarks/corpus.py in {time.perf_counter() - start:.0f} s: {info['pages']:,} pages,"
          f" {info['total_markdown_bytes'] / 1e6:.0f} MB of Markdown")
    return d, info


def set_per_page(d):
    path = os.path.join(d, "sift", "Content", "items", "collection.yml")
    lines = [line for line in open(path).read().splitlines() if not line.startswith("per_page:")]
    text = "\n".join(lines + [f"per_page: {PER_PAGE}"]) + "\n"
    if open(path).read() != text:
        open(path, "w").write(text)


def measured(cmd, cwd):
    """(wall s, CPU s, peak RSS MB, load average before, after) of one run."""
    before = os.getloadavg()[0]
    wall, usage = bench.run_with_usage(cmd, cwd)
    return {"wall_s": round(wall, 2), "cpu_s": round(usage.ru_utime + usage.ru_stime, 2), "peak_mb": round(usage.ru_maxrss / 1024),
            "load_before": round(before, 2), "load_after": round(os.getloadavg()[0], 2)}


def tree_bytes(folder):
    total = files = 0
    for dirpath, _, names in os.walk(folder):
        for name in names:
            total += os.lstat(os.path.join(dirpath, name)).st_size
            files += 1
    return total, files


def builds(site):
    """The clean build, the build with nothing changed, the build after one page's edit."""
    out = os.path.join(site, "public")
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(os.path.join(site, ".sift-cache"), ignore_errors=True)
    figures = {"clean": measured([bench.SIFT, "build", "--site", site, "--quiet", "--clean"], site)}
    figures["unchanged"] = measured([bench.SIFT, "build", "--site", site, "--quiet"], site)
    items = os.path.join(site, "Content", "items")
    page = os.path.join(items, next(name for name in sorted(os.listdir(items)) if name.endswith(".md")))
    original = open(page, "rb").read()
    try:
        open(page, "ab").write(b"\nOne more line, quokkazz.\n")
        figures["one_page_edited"] = measured([bench.SIFT, "build", "--site", site, "--quiet"], site)
    finally:
        open(page, "wb").write(original)
    raw, gz, files = bench.index_stats(out)
    figures["index"] = {"raw": raw, "gzip": gz, "files": files}
    total, count = tree_bytes(out)
    figures["output"] = {"bytes": total, "files": count}
    return figures, out


def report(n, figures):
    for kind in ("clean", "unchanged", "one_page_edited"):
        f = figures[kind]
        print(f"{n:>8} build {kind:<16} {f['wall_s']:>8.2f} s wall, {f['cpu_s']:>8.2f} s CPU, peak {f['peak_mb']:>6} MB"
              f"  (load average {f['load_before']:.2f} before, {f['load_after']:.2f} after)")
    i, o = figures["index"], figures["output"]
    print(f"{n:>8} index {i['raw'] / 1e6:.1f} MB raw, {i['gzip'] / 1e6:.1f} MB gzip, {i['files']:,} files;"
          f" output {o['bytes'] / 1e9:.2f} GB, {o['files']:,} files")
    for q in figures.get("first_queries", []):
        requests, gz = q["requests"] - q["screen_requests"], q["gzip"] - q["screen_gzip"]
        print(f"{'':>8} first query {q['term']!r:<10} {requests} requests, {gz / 1e3:.1f} KB gzip, {q['total']} results"
              f" (then the first screen's excerpts: {q['screen_requests']} requests, {q['screen_gzip'] / 1e3:.1f} KB gzip);"
              f" node: load {q['load_ms']} ms, query {q['query_ms']} ms")
    b = figures.get("browser")
    if b:
        bench.print_browser(b)
        for run in b.get("cold", {}).get("runs", []):
            print(f"{'':>8} browser cold run: {run['ms']:.0f} ms, {run['requests'] - run['text_requests']} index requests,"
                  f" {(run['gzip'] - run['text_gzip']) / 1e3:.1f} KB gzip; text files for excerpts {run['text_requests']}, {run['text_gzip'] / 1e3:.1f} KB gzip")


def main():
    global WORK
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default=os.environ.get("BENCH_SIZES", "1000000,100000"))
    ap.add_argument("--work", help=f"where corpora and builds go (default $BENCH_WORK or {WORK}; a tmpfs)")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--keys-dom", type=int, default=50)
    ap.add_argument("--json", help="also write every figure to this file")
    a = ap.parse_args()
    WORK = a.work or WORK
    if not os.path.exists(bench.SIFT):
        raise SystemExit("build sift first: swift build -c release")
    os.makedirs(WORK, exist_ok=True)
    print(f"sift at a million items on {WORK}, {os.cpu_count()} cores, {PER_PAGE} items a list page; one run each")
    results = {}
    for n in [int(s) for s in a.sizes.split(",") if s]:
        d, info = corpus(n, 10 if n >= 1_000_000 else 1)
        site = os.path.join(d, "sift")
        figures, out = builds(site)
        figures["corpus"] = {"rows": n, "pages": info["pages"], "markdown_bytes": info["total_markdown_bytes"]}
        figures["first_queries"] = bench.first_queries(os.path.join(out, "search"), QUERY_TERMS)
        if not a.no_browser:
            figures["browser"] = bench.browser(out, QUERY_TERMS[0], a.keys_dom)
        report(n, figures)
        results[n] = figures
        sys.stdout.flush()
        if a.json:
            json.dump(results, open(a.json, "w"), indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
