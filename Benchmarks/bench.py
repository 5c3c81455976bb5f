#!/usr/bin/env python3
"""`make bench`: build time and peak memory of `sift build` on the generated corpora, beside
Hugo's where it is installed, plus the search index's size. Runs on a tmpfs (/dev/shm): this
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
SIFT = os.path.join(ROOT, ".build", "release", "sift")
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
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err}")
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


def index_stats(public):
    search = os.path.join(public, "search")
    raw = gz = files = 0
    for dirpath, _, names in os.walk(search):
        for name in names:
            data = open(os.path.join(dirpath, name), "rb").read()
            raw += len(data)
            gz += len(gzip.compress(data, 6))
            files += 1
    return raw, gz, files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default=os.environ.get("BENCH_SIZES", "1000,10000,100000"))
    ap.add_argument("--runs", type=int, default=0, help="runs per figure (default 5, 3 at 100k)")
    ap.add_argument("--no-hugo", action="store_true")
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
        med, peak, best = median_runs([SIFT, "build", "--site", site, "--quiet"], site, runs,
                                      prepare=lambda: shutil.rmtree(out, ignore_errors=True))
        raw, gz, files = index_stats(out)
        print(f"{n:>8} {'sift':<6} {med:>9.2f} {best:>8.2f} {peak:>8.0f}  index {raw/1e6:.1f} MB raw, {gz/1e6:.2f} MB gzip, {files} files")
        if hugo and os.path.isdir(os.path.join(d, "hugo")):
            hsite = os.path.join(d, "hugo")
            hruns = 2 if n >= 100000 else runs
            med, peak, best = median_runs([hugo, "--quiet"], hsite, hruns,
                                          prepare=lambda: shutil.rmtree(os.path.join(hsite, "public"), ignore_errors=True))
            print(f"{n:>8} {'hugo':<6} {med:>9.2f} {best:>8.2f} {peak:>8.0f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
