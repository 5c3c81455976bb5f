#!/usr/bin/env python3
"""`make bench`: build time and peak memory of `sift build` on the generated corpora, beside
Hugo's where it is installed, plus the search index: its build stage, size (raw and gzip),
file count, and the requests and gzip bytes of a first query per term (measured by running
sift-core.js under node with a counting fetch, Benchmarks/first_query.mjs), the search bar in
headless Chromium at 10k and 100k (Benchmarks/browser_bench.py: cold first query, keystroke to
updated list median/p95, sift-core.js alone), beside Pagefind's
on the same built pages where `pagefind_bin` is importable (pip install pagefind-bin). Runs on a tmpfs (/dev/shm): this
machine's disk is too noisy for file-heavy timings. Benchmarks are not tests: nothing here
fails on a figure, it prints them.

    python3 Benchmarks/bench.py [--sizes 1000,10000,100000] [--runs N] [--no-hugo]
"""
import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIFT = os.environ.get("SIFT_BIN", os.path.join(ROOT, ".build", "release", "sift"))
GEN = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "gen_corpus.py"))
WORK = "/dev/shm/sift-bench"


def run_measured(cmd, cwd):
    """Runs a command, returns (seconds, peak RSS in MB) of that process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if status != 0:
        how = f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit status {os.WEXITSTATUS(status)}"
        raise SystemExit(f"{' '.join(cmd)} failed ({how}):\n{err}")
    return seconds, usage.ru_maxrss / 1024


def corpus(n):
    d = os.path.join(WORK, f"c{n}")
    if not os.path.exists(os.path.join(d, "corpus.json")):
        if not os.path.exists(GEN):
            raise SystemExit(f"missing {GEN}: the corpus generator lives in ../shared/bench")
        shutil.rmtree(d, ignore_errors=True)
        layouts = "sift,hugo" if shutil.which("hugo") else "sift"
        subprocess.run([sys.executable, GEN, str(n), d, "--layouts", layouts], check=True, stdout=subprocess.DEVNULL)
    return d


def median_runs(cmd, cwd, runs, prepare=None):
    times, peaks = [], []
    for _ in range(runs):
        if prepare:
            prepare()
        t, m = run_measured(cmd, cwd)
        times.append(t)
        peaks.append(m)
    return statistics.median(times), max(peaks), min(times)


def index_stats(public, folder="search"):
    search = os.path.join(public, folder)
    raw = gz = files = 0
    for dirpath, _, names in os.walk(search):
        for name in names:
            data = open(os.path.join(dirpath, name), "rb").read()
            raw += len(data)
            gz += len(gzip.compress(data, 6))
            files += 1
    return raw, gz, files


FIRST_QUERY = os.path.join(ROOT, "Benchmarks", "first_query.mjs")
BROWSER = os.path.join(ROOT, "Benchmarks", "browser_bench.py")
PAGEFIND_BROWSER = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "browser_query.py"))


def browser(public, term, keys_dom):
    """The search bar in headless Chromium (Benchmarks/browser_bench.py); None without Playwright."""
    if not os.path.exists("/usr/bin/chromium"):
        return None
    proc = subprocess.run([sys.executable, BROWSER, public, "--term", term, "--keys-dom", str(keys_dom), "--timeout", "300"],
                          capture_output=True, text=True)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        print(f"         browser: failed: {proc.stderr.strip()[-200:]}")
        return None


def print_browser(b):
    c, k, core = b.get("cold", {}), b.get("keystroke"), b.get("core", {})
    if c:
        run = c["runs"][0]
        print(f"{'':>8} browser list page load {b.get('page_load_median_s', 0):.1f} s; cold first query {b['term']!r} on {b['page']}:"
              f" {c['median_ms']:.0f} ms to results ({c.get('full_median_ms', 0):.0f} ms with every body match), {c.get('frame_median_ms', 0):.0f} ms to the next frame,"
              f" {run['requests']} requests, {run['gzip']/1e3:.1f} KB gzip ({run['raw']/1e3:.0f} KB raw)")
    for key, label in (("keystroke", "first visit, shards fetched as needed"), ("keystroke_warm", "shards cached")):
        k = b.get(key)
        if k:
            print(f"{'':>8} browser keystroke -> updated list ({k['n']} keys, {label}): median {k['results_median_ms']:.1f} ms,"
                  f" p95 {k['results_p95_ms']:.1f} ms; with every body match: median {k.get('full_median_ms', 0):.1f}, p95 {k.get('full_p95_ms', 0):.1f} ms;"
                  f" to the frame after: median {k['frame_median_ms']:.1f}, p95 {k['frame_p95_ms']:.1f} ms")
    if core:
        print(f"{'':>8} browser sift-core.js alone: load {core['load_ms']:.0f} ms, first query {core['first_query_ms']:.1f} ms,"
              f" keystrokes ({core['n']}) median {core['median_ms']:.1f} / p95 {core['p95_ms']:.1f} ms with shard fetches,"
              f" warm median {core['warm_median_ms']:.1f} / p95 {core['warm_p95_ms']:.1f} ms")


def pagefind_browser(public, term):
    """Pagefind's cold first query in Chromium (../shared/bench/browser_query.py) over a pagefind
    index built in `public`; None when either is missing."""
    if not os.path.exists(PAGEFIND_BROWSER) or not os.path.isdir(os.path.join(public, "pagefind")):
        return None
    proc = subprocess.run([sys.executable, PAGEFIND_BROWSER, public, "--term", term, "--runs", "3"], capture_output=True, text=True)
    try:
        return json.loads(proc.stdout).get("summary")
    except ValueError:
        return None
PAGEFIND_BYTES = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "pagefind_bytes.py"))


def stage_seconds(site, out):
    """Runs one build with SIFT_TIMINGS=1; returns {stage: seconds}."""
    shutil.rmtree(out, ignore_errors=True)
    proc = subprocess.run([SIFT, "build", "--site", site, "--quiet", "--clean"], cwd=site, capture_output=True, text=True,
                          env={**os.environ, "SIFT_TIMINGS": "1"}, check=True)
    stages = {}
    for line in (proc.stdout + proc.stderr).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == "s":
            try:
                stages[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return stages


def query_terms(d):
    info = json.load(open(os.path.join(d, "corpus.json")))
    q = info.get("query_terms", {})
    terms = [q.get("frequent", "harbor"), q.get("mid", "volcano"), q.get("rare", "rouxthum"), "arbor", "ha", "腊"]
    return [t for t in terms if t]


def first_queries(search_dir, terms):
    if not shutil.which("node"):
        return []
    proc = subprocess.run(["node", FIRST_QUERY, search_dir, *terms], capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"         first query: node failed: {proc.stderr.strip()[:200]}")
        return []
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def pagefind(public, terms, keep=False):
    """Pagefind over the same built pages: seconds, files, gzip size, first-query bytes."""
    try:
        import pagefind_bin
        exe = pagefind_bin.get_executable()
    except Exception:
        return None
    out = os.path.join(public, "pagefind")
    shutil.rmtree(out, ignore_errors=True)
    try:
        seconds, peak = run_measured([str(exe), "--site", public, "--quiet"], public)
    except SystemExit as e:  # at 100k here it was killed (out of memory): the rest of the bench still runs
        print(f"{'':>8} pagefind: {str(e).strip()}")
        shutil.rmtree(out, ignore_errors=True)
        return None
    raw, gz, files = index_stats(public, "pagefind")
    est = {}
    if os.path.exists(PAGEFIND_BYTES):
        args = [sys.executable, PAGEFIND_BYTES, out]
        for t in terms:
            args += ["--term", t]
        proc = subprocess.run(args, capture_output=True, text=True)
        if proc.returncode == 0:
            est = json.loads(proc.stdout).get("first_query", {})
    if keep:
        est["browser"] = pagefind_browser(public, terms[0])
    shutil.rmtree(out, ignore_errors=True)
    return seconds, peak, raw, gz, files, est


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default=os.environ.get("BENCH_SIZES", "1000,10000,100000"))
    ap.add_argument("--runs", type=int, default=0, help="runs per figure (default 5, 3 at 100k)")
    ap.add_argument("--no-hugo", action="store_true")
    ap.add_argument("--no-pagefind", action="store_true")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--keys-dom", type=int, default=50, help="keystrokes through the list page's search bar")
    a = ap.parse_args()
    if not os.path.exists(SIFT):
        raise SystemExit("build sift first: swift build -c release")
    os.makedirs(WORK, exist_ok=True)
    hugo = None if a.no_hugo else shutil.which("hugo")
    print(f"sift build on tmpfs ({WORK}), {os.cpu_count()} cores; medians; peak RSS is the maximum over runs")
    print(f"{'items':>8} {'tool':<6} {'median s':>9} {'best s':>8} {'peak MB':>8}  notes")
    for n in [int(s) for s in a.sizes.split(",") if s]:
        d = corpus(n)
        runs = a.runs or (3 if n >= 100000 else 5)
        site = os.path.join(d, "sift")
        out = os.path.join(site, "public")
        med, peak, best = median_runs([SIFT, "build", "--site", site, "--quiet", "--clean"], site, runs,
                                      prepare=lambda: shutil.rmtree(out, ignore_errors=True))
        raw, gz, files = index_stats(out)
        print(f"{n:>8} {'sift':<6} {med:>9.2f} {best:>8.2f} {peak:>8.0f}  clean; index {raw/1e6:.1f} MB raw, {gz/1e6:.2f} MB gzip, {files} files")
        clean_median = med
        page = os.path.join(site, "Content", "items", sorted(os.listdir(os.path.join(site, "Content", "items")))[1])
        original = open(page, "rb").read()
        edits = iter(range(10**6))
        med, peak, best = median_runs([SIFT, "build", "--site", site, "--quiet"], site, runs,
                                      prepare=lambda: open(page, "ab").write(f"\nOne more line {next(edits)}.\n".encode()))
        open(page, "wb").write(original)
        print(f"{n:>8} {'sift':<6} {med:>9.2f} {best:>8.2f} {peak:>8.0f}  incremental `sift build`, one page edited: {100 * med / clean_median:.0f}% of the clean build")
        rebuilds = serve_rebuilds(site, page, 9 if n < 100000 else 5)
        if rebuilds:
            rmed, rbest, latency = rebuilds
            print(f"{n:>8} {'serve':<6} {rmed:>9.3f} {rbest:>8.3f} {'':>8}  `sift serve` rebuild after a one-line edit: {100 * rmed / clean_median:.1f}% of the clean build"
                  f" (edit to rebuilt, polling included: {latency:.2f} s)")
        open(page, "wb").write(original)
        stages = stage_seconds(site, out)
        if stages:
            print(f"{'':>8} stages  " + ", ".join(f"{k} {v:.2f} s" for k, v in stages.items())
                  + "  (digesting bodies runs inside pages; index = merge, encode, write)")
        terms = query_terms(d)
        for q in first_queries(os.path.join(out, "search"), terms):
            print(f"{'':>8} first query {q['term']!r:<12} {q['requests']} requests, {q['gzip']/1e3:.1f} KB gzip"
                  f" ({q['raw']/1e3:.0f} KB raw), {q['total']} results; node: load {q['load_ms']} ms,"
                  f" query {q['query_ms']} ms, warm {q['warm_ms']} ms")
        b = None if a.no_browser or n < 10000 else browser(out, terms[0], a.keys_dom)
        if b:
            print_browser(b)
        pf = None if a.no_pagefind else pagefind(out, terms, keep=bool(b))
        if pf:
            seconds, ppeak, praw, pgz, pfiles, est = pf
            print(f"{n:>8} {'pagefind':<8} {seconds:>7.2f} {'':>8} {ppeak:>8.0f}  index {praw/1e6:.1f} MB raw, {pgz/1e6:.2f} MB gzip, {pfiles} files (over sift's pages)")
            pb = est.pop("browser", None)
            if pb:
                print(f"{'':>8} pagefind browser cold first query: {json.dumps(pb)}")
            for t, e in est.items():
                total = e.get("total_est_with_worker", e.get("total_est")) if isinstance(e, dict) else e
                print(f"{'':>8} pagefind first query {t!r:<12} ~{total/1e3:.1f} KB" if isinstance(total, (int, float)) else f"{'':>8} pagefind {t}: {e}")
        if hugo and os.path.isdir(os.path.join(d, "hugo")):
            hsite = os.path.join(d, "hugo")
            hruns = 2 if n >= 100000 else runs
            med, peak, best = median_runs([hugo, "--quiet"], hsite, hruns,
                                          prepare=lambda: shutil.rmtree(os.path.join(hsite, "public"), ignore_errors=True))
            print(f"{n:>8} {'hugo':<6} {med:>9.2f} {best:>8.2f} {peak:>8.0f}")
        sys.stdout.flush()


def serve_rebuilds(site, page, edits):
    """`sift serve` on the corpus: appends a line to one page `edits` times and reads the
    rebuild time the server reports for each (its build only), plus the median wall time from
    the edit to that report (the watcher's polling and debounce included)."""
    import re
    import selectors
    proc = subprocess.Popen([SIFT, "serve", "--site", site, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)

    def line(timeout):
        if not sel.select(timeout):
            return None
        return proc.stdout.readline()
    try:
        first = line(600)
        if not first or not first.startswith("Serving"):
            return None
        seconds, latency = [], []
        for k in range(edits):
            time.sleep(0.6)
            t0 = time.monotonic()
            with open(page, "ab") as f:
                f.write(f"\nOne more line {k}.\n".encode())
            while True:
                got = line(120)
                if got is None:
                    return None
                m = re.match(r"rebuilt \d+ pages in ([0-9.]+) s", got)
                if m:
                    seconds.append(float(m.group(1)))
                    latency.append(time.monotonic() - t0)
                    break
        return statistics.median(seconds), min(seconds), statistics.median(latency)
    finally:
        proc.terminate()
        proc.wait()


def serve_rps(seconds=5, clients=50):
    """Requests per second from `sift serve --no-watch` for a ~10 KB page, 50 concurrent
    keep-alive clients on loopback: wrk where installed, else a bounded Python client (which
    then measures Python as much as the server)."""
    import re
    import socket
    import threading
    site = os.path.join(WORK, "serve-site")
    shutil.rmtree(site, ignore_errors=True)
    subprocess.run([SIFT, "new", site], check=True, stdout=subprocess.DEVNULL)
    words = "Sift serves this paragraph to measure the preview server on loopback. "
    with open(os.path.join(site, "Content", "ten-kb.md"), "w") as f:
        f.write("# Ten KB\n\n" + "\n\n".join(words * 6 for _ in range(20)) + "\n")
    proc = subprocess.Popen([SIFT, "serve", "--site", site, "--port", "0", "--no-watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            print(f"serve: could not start ({line.strip()!r})")
            return
        port = int(m.group(1))
        path = "/ten-kb/"
        size = len(open(os.path.join(site, "public", "ten-kb", "index.html"), "rb").read())
        wrk = shutil.which("wrk")
        if wrk:
            out = subprocess.run([wrk, "-t2", f"-c{clients}", f"-d{seconds}s", f"http://127.0.0.1:{port}{path}"],
                                 capture_output=True, text=True).stdout
            rps = re.search(r"Requests/sec:\s*([\d.]+)", out)
            errors = re.search(r"Socket errors:.*|Non-2xx.*", out)
            print(f"serve: {float(rps.group(1)) if rps else 0:,.0f} requests/s for a {size/1000:.1f} KB page, "
                  f"{clients} clients, wrk {seconds} s; errors: {errors.group(0) if errors else 'none'}")
            return
        ok = [0] * clients
        bad = [0] * clients
        stop = time.perf_counter() + seconds
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()

        def client(i):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            buf = b""
            while time.perf_counter() < stop:
                s.sendall(request)
                while b"\r\n\r\n" not in buf:
                    buf += s.recv(65536)
                head, _, buf = buf.partition(b"\r\n\r\n")
                length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
                while len(buf) < length:
                    buf += s.recv(65536)
                buf = buf[length:]
                if head.startswith(b"HTTP/1.1 200"):
                    ok[i] += 1
                else:
                    bad[i] += 1
            s.close()

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 10)
        elapsed = time.perf_counter() - start
        print(f"serve: {sum(ok) / elapsed:,.0f} requests/s for a {size/1000:.1f} KB page, {clients} clients, "
              f"Python client {seconds} s; errors: {sum(bad)}")
    finally:
        proc.terminate()
        proc.wait(5)


if __name__ == "__main__":
    main()
    serve_rps()
