#!/usr/bin/env python3
"""`make bench-1m`: sift at a million items (issue 18). On the corpus of Benchmarks/corpus.py
with 1,000,000 rows, a Markdown page for every tenth (`--pages-every 10`), and 100 items a list
page: the clean build, the build with nothing changed and the build after a one-page edit (wall
time, CPU time, peak RSS, the load average around each), the index's total size (raw, gzip, files)
and the output's; then, at 1M and on the 100k corpus (every item with a page, also 100 a list
page), the first query per term in node (Benchmarks/first_query.mjs: requests, gzip bytes) and the
search bar in headless Chromium (Benchmarks/browser_bench.py: cold first query, keystroke to
updated list median and p95). Benchmarks are not tests: nothing here fails on a figure, it
prints them, and `--json FILE` keeps them.

The work folder (`--work`, else $BENCH_WORK, else /var/tmp/sift-bench-1m) should be on disk: the
1M corpus, output and cache take 11 GB of disk (more while a build stages the next), which on a
tmpfs such as /dev/shm is memory the build
then lacks. Corpora are kept there between runs; outputs are replaced. Before it starts, the run
stops with a message when the work folder's file system has less than `NEED_DISK_GB` free or the
machine less than `NEED_MEMORY_GB` available; while a build runs, it is killed (and the run stops,
saying why) when available memory falls under `FLOOR_MEMORY_GB` or free disk under
`FLOOR_DISK_GB`, so a machine without the room fails the benchmark instead of the other
processes on it.

    python3 Benchmarks/bench_million.py [--sizes 1000000,100000] [--work DIR] [--no-browser] [--json FILE]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

BENCHMARKS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCHMARKS)
import bench  # noqa: E402  (Benchmarks/bench.py: its measuring helpers)
import corpus as corpus_generator  # noqa: E402

WORK = os.environ.get("BENCH_WORK", "/var/tmp/sift-bench-1m")
PER_PAGE = 100
QUERY_TERMS = ["harbor", "volcano", "a", "ha", "new", "腊"]
# Room asked for before a run (GB at a million rows, scaled by the rows, but no less than 30 %
# of it: the 100k corpus has a page for every row), and the floors under which a running build
# is stopped.
NEED_MEMORY_GB, NEED_DISK_GB = 10, 25
FLOOR_MEMORY_GB, FLOOR_DISK_GB = 1.0, 1.0


def available_memory_gb():
    """MemAvailable of /proc/meminfo, in GB (None where there is none)."""
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1e6
    except OSError:
        pass
    return None


def free_disk_gb(folder):
    return shutil.disk_usage(folder).free / 1e9


def check_room(sizes, folder):
    """Exits, saying what is missing, unless the machine has the room the largest size needs
    (on a tmpfs the output is memory: both are asked of it)."""
    scale = max(max(sizes) / 1_000_000, 0.3)
    memory, disk = available_memory_gb(), free_disk_gb(folder)
    need_memory, need_disk = NEED_MEMORY_GB * scale, NEED_DISK_GB * scale
    if on_tmpfs(folder):
        need_memory += need_disk
    problems = []
    if memory is not None and memory < need_memory:
        problems.append(f"{memory:.1f} GB of memory available, {need_memory:.0f} GB needed")
    if disk < need_disk:
        problems.append(f"{disk:.1f} GB free on {folder}, {need_disk:.0f} GB needed")
    if problems:
        raise SystemExit(f"make bench-1m: not enough room for {max(sizes):,} rows: {'; '.join(problems)}."
                         f" Free some, or choose another work folder on disk, not a tmpfs (make bench-1m BENCH_1M_WORK=DIR, or --work DIR).")


def on_tmpfs(folder):
    """Whether folder's file system is held in memory (tmpfs, ramfs)."""
    best, kind = "", ""
    path = os.path.realpath(folder)
    try:
        for line in open("/proc/mounts"):
            fields = line.split()
            mount = fields[1]
            if (path == mount or path.startswith(mount.rstrip("/") + "/")) and len(mount) > len(best):
                best, kind = mount, fields[2]
    except OSError:
        return False
    return kind in ("tmpfs", "ramfs")


def run_guarded(cmd, cwd):
    """bench.run_with_usage, but the command is killed when memory or disk runs short (the
    floors above), and the run exits saying so."""
    start = time.perf_counter()
    stderr = tempfile.TemporaryFile()  # not a pipe: a full one would stall the build
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
    short = None
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        memory, disk = available_memory_gb(), free_disk_gb(cwd)
        if short is None and memory is not None and memory < FLOOR_MEMORY_GB:
            short = f"available memory fell to {memory:.2f} GB"
        if short is None and disk < FLOOR_DISK_GB:
            short = f"free disk on {cwd} fell to {disk:.2f} GB"
        if short:
            os.killpg(proc.pid, 9)
        time.sleep(0.25)
    seconds = time.perf_counter() - start
    stderr.seek(0)
    err = stderr.read().decode(errors="replace")[-4000:]
    stderr.close()
    if short:
        raise SystemExit(f"make bench-1m: stopped {' '.join(cmd)} after {seconds:.0f} s: {short}"
                         f" (its peak RSS {usage.ru_maxrss / 1024:.0f} MB): not enough room on this machine for this size.")
    if status != 0:
        how = f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit status {os.WEXITSTATUS(status)}"
        raise SystemExit(f"{' '.join(cmd)} failed ({how}):\n{err}")
    return seconds, usage


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
    wall, usage = run_guarded(cmd, cwd)
    return {"wall_s": round(wall, 2), "cpu_s": round(usage.ru_utime + usage.ru_stime, 2), "peak_mb": round(usage.ru_maxrss / 1024),
            "load_before": round(before, 2), "load_after": round(os.getloadavg()[0], 2)}


def tree_bytes(folder):
    """(bytes, files) under folder; by `find` (a walk in Python of a million folders takes minutes)."""
    out = subprocess.run(["find", folder, "-type", "f", "-printf", "%s\\n"], capture_output=True, text=True, check=True).stdout.split()
    return sum(map(int, out)), len(out)


def discard(folder):
    """Moves folder out of the way at once and removes it in the background, at the lowest
    priority: removing a million pages' folders takes minutes, which are no part of a build."""
    if not os.path.lexists(folder):
        return
    trash = os.path.join(WORK, f"trash-{os.getpid()}-{time.monotonic_ns()}")
    os.rename(folder, trash)
    subprocess.Popen(["nice", "-n", "19", "rm", "-rf", trash], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def builds(site):
    """The clean build, the build with nothing changed, the build after one page's edit."""
    out = os.path.join(site, "public")
    discard(out)
    discard(os.path.join(site, ".sift-cache"))
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
    ap.add_argument("--work", help=f"where corpora and builds go (default $BENCH_WORK or {WORK}; on disk)")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--keys-dom", type=int, default=50)
    ap.add_argument("--json", help="also write every figure to this file")
    a = ap.parse_args()
    WORK = a.work or WORK
    if not os.path.exists(bench.SIFT):
        raise SystemExit("build sift first: make build")
    os.makedirs(WORK, exist_ok=True)
    sizes = [int(s) for s in a.sizes.split(",") if s]
    check_room(sizes, WORK)
    print(f"sift at a million items on {WORK}, {os.cpu_count()} cores, {PER_PAGE} items a list page; one run each")
    results = {}
    for n in sizes:
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
