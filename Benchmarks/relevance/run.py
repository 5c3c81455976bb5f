#!/usr/bin/env python3
"""`make relevance`: Sift and Pagefind side by side on Debian's manual pages; writes docs/relevance.md.

  1. make_corpora.py writes the English, Chinese and Japanese sites into DATA (default /dev/shm/sift-relevance).
  2. Sift: `sift build`, then `sift search QUERY --json --limit 10` per query (the browser's answer).
     Hugo builds the same pages; Pagefind indexes them (pagefind-bin for English, pagefind-bin-extended for
     Chinese and Japanese, which segments those languages) and answers in headless Chromium through its own
     pagefind.js, served over http from 127.0.0.1, exactly as a visitor's browser would.
  3. Metrics per engine and corpus: S@1, S@5, MRR@10 (over queries.tsv), queries with no result at all, and the
     recall of the CJK words of recall_terms.tsv over each engine's full result list.

Usage: run.py [--data DIR] [--report docs/relevance.md] [--skip-corpora]
"""
import datetime
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import unicodedata
from functools import partial

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SIFT = os.path.join(ROOT, ".build", "release", "sift")
CORPORA = ["en", "zh", "ja"]
CORPUS_NAMES = {"en": "English", "zh": "Chinese", "ja": "Japanese"}


def read_tsv(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            rows.append(line.rstrip("\n").split("\t"))
    return rows


def pagefind_binary(corpus):
    mod = "pagefind_bin" if corpus == "en" else "pagefind_bin_extended"
    return subprocess.run([sys.executable, "-c", f"import {mod}; print({mod}.get_executable())"],
                          capture_output=True, text=True, check=True).stdout.strip()


def timed(cmd, **kw):
    t = time.monotonic()
    subprocess.run(cmd, check=True, **kw)
    return time.monotonic() - t


def sift_search(site, query, limit):
    out = subprocess.run([SIFT, "search", "--site", site, "--json", "--limit", str(limit), "--", query],
                         capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    return {"total": r["total"], "slugs": [x["slug"] for x in r["results"]],
            "match": [x.get("match") for x in r["results"]]}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=directory))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


PAGEFIND_JS = """async (queries) => {
  const pf = await import('/pagefind/pagefind.js');
  await pf.init();
  const out = [];
  for (const [q, all] of queries) {
    const r = await pf.search(q);
    const take = all ? r.results : r.results.slice(0, 10);
    const data = await Promise.all(take.map(x => x.data()));
    out.push({total: r.results.length, urls: data.map(d => d.url)});
  }
  return out;
}"""


def pagefind_search(public, queries):
    """queries: [(query, full list?)] -> [{total, slugs}] answered by Pagefind in headless Chromium."""
    from playwright.sync_api import sync_playwright
    httpd = serve(public)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/")
            res = page.evaluate(PAGEFIND_JS, [[q, a] for q, a in queries])
            browser.close()
    finally:
        httpd.shutdown()
    for r in res:
        r["slugs"] = [u.rstrip("/").split("/")[-1] for u in r.pop("urls")]
    return res


def fold(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c) or c in "\u3099\u309a")
    return unicodedata.normalize("NFC", s).lower()


def rank_of(slugs, judged):
    for i, s in enumerate(slugs[:10]):
        if s in judged:
            return i + 1
    return None


def metrics(ranks, totals):
    n = len(ranks)
    return {"n": n,
            "s1": sum(1 for r in ranks if r == 1) / n,
            "s5": sum(1 for r in ranks if r and r <= 5) / n,
            "mrr": sum(1 / r for r in ranks if r) / n,
            "zero": sum(1 for t in totals if t == 0)}


def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"


def main():
    args = sys.argv[1:]
    data = args[args.index("--data") + 1] if "--data" in args else (
        "/dev/shm/sift-relevance" if os.path.isdir("/dev/shm") else "/tmp/sift-relevance")
    report = args[args.index("--report") + 1] if "--report" in args else os.path.join(ROOT, "docs", "relevance.md")
    t_start = time.monotonic()
    if "--skip-corpora" not in args:
        subprocess.run([sys.executable, os.path.join(HERE, "make_corpora.py"), data], check=True)
    t_corpora = time.monotonic() - t_start

    queries = read_tsv("queries.tsv")
    terms = read_tsv("recall_terms.tsv")
    results = {}
    for corpus in CORPORA:
        base = os.path.join(data, corpus)
        pages = json.load(open(os.path.join(base, "pages.json"), encoding="utf-8"))
        info = json.load(open(os.path.join(base, "corpus.json"), encoding="utf-8"))
        md_bytes = sum(os.path.getsize(os.path.join(base, "sift", "Content", "man", f))
                       for f in os.listdir(os.path.join(base, "sift", "Content", "man")))
        site = os.path.join(base, "sift")
        hugo = os.path.join(base, "hugo")
        shutil.rmtree(os.path.join(site, "public"), ignore_errors=True)
        shutil.rmtree(os.path.join(hugo, "public"), ignore_errors=True)
        t_sift = timed([SIFT, "build", "--site", site, "--quiet"])
        t_hugo = timed(["hugo", "--quiet", "-s", hugo])
        t_pf = timed([pagefind_binary(corpus), "--site", os.path.join(hugo, "public"), "--quiet"])
        qs = [q for q in queries if q[0] == corpus]
        ts = [t[1] for t in terms if t[0] == corpus]
        print(f"{corpus}: {len(pages)} pages; sift build {t_sift:.1f}s, hugo {t_hugo:.1f}s, pagefind {t_pf:.1f}s",
              flush=True)

        t = time.monotonic()
        sift_q = [sift_search(site, q[2], 10) for q in qs]
        sift_t = [sift_search(site, term, 1000000) for term in ts]
        t_sift_q = time.monotonic() - t
        t = time.monotonic()
        pf = pagefind_search(os.path.join(hugo, "public"), [(q[2], False) for q in qs] + [(term, True) for term in ts])
        t_pf_q = time.monotonic() - t
        pf_q, pf_t = pf[:len(qs)], pf[len(qs):]

        rows = []
        for q, s, p in zip(qs, sift_q, pf_q):
            judged = q[3].split()
            rows.append({"kind": q[1], "query": q[2], "judged": judged,
                         "sift": rank_of(s["slugs"], judged), "sift_total": s["total"], "sift_top": s["slugs"][:3],
                         "sift_match": s["match"][:1],
                         "pf": rank_of(p["slugs"], judged), "pf_total": p["total"], "pf_top": p["slugs"][:3]})
        recall = []
        folded = {slug: fold(v["text"]) for slug, v in pages.items()}
        for term, s, p in zip(ts, sift_t, pf_t):
            truth = {slug for slug, text in folded.items() if fold(term) in text}
            recall.append({"term": term, "truth": len(truth),
                           "sift": len(truth & set(s["slugs"])), "sift_total": s["total"],
                           "pf": len(truth & set(p["slugs"])), "pf_total": p["total"]})
        results[corpus] = {"pages": len(pages), "md_bytes": md_bytes, "packages": info["packages"],
                           "times": {"sift_build": t_sift, "hugo": t_hugo, "pagefind": t_pf,
                                     "sift_queries": t_sift_q, "pagefind_queries": t_pf_q},
                           "rows": rows, "recall": recall,
                           "sift": metrics([r["sift"] for r in rows], [r["sift_total"] for r in rows]),
                           "pf": metrics([r["pf"] for r in rows], [r["pf_total"] for r in rows])}
        print(f"  sift  S@1 {results[corpus]['sift']['s1']:.2f} MRR {results[corpus]['sift']['mrr']:.2f}   "
              f"pagefind S@1 {results[corpus]['pf']['s1']:.2f} MRR {results[corpus]['pf']['mrr']:.2f}", flush=True)

    total = time.monotonic() - t_start
    with open(os.path.join(data, "results.json"), "w") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)
    write_report(report, results, t_corpora, total)
    print(f"wrote {report} ({total:.0f} s)")


def pct(x):
    return f"{100 * x:.0f} %"


def write_report(path, results, t_corpora, total):
    sift_rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
    pf_version = version([pagefind_binary("en"), "--version"])
    pfx_version = version([pagefind_binary("zh"), "--version"])
    hugo_version = version(["hugo", "version"]).split(" BuildDate")[0]
    chromium_version = version(["/usr/bin/chromium", "--version"])
    pw_version = version([sys.executable, "-c", "import importlib.metadata as m; print(m.version('playwright'))"])
    mandoc_version = version(["dpkg-query", "-W", "-f=${Version}\n", "mandoc"])
    out = []
    w = out.append
    with open(os.path.join(HERE, "preface.md"), encoding="utf-8") as f:
        w(f.read().rstrip() + "\n")
    w("## Results\n")
    w(f"Generated by `make relevance` (`python3 Benchmarks/relevance/run.py`) on "
      f"{datetime.date.today().isoformat()}, Sift at `{sift_rev}`, in {total / 60:.1f} minutes on "
      f"{os.cpu_count()} cores (corpora {t_corpora:.0f} s). Everything below this heading is written by the runner.\n")
    w(f"Engines: Sift `{sift_rev}` (`sift search --json --limit 10`, the browser's answer); "
      f"Pagefind {pf_version.split()[-1]} (`pagefind-bin`, English) and {pfx_version.split()[-1]} "
      f"(`pagefind-bin-extended`, Chinese and Japanese) over the same pages built by {hugo_version}, queried through "
      f"its `pagefind.js` in {chromium_version} driven by Playwright {pw_version}. Pages converted by mandoc "
      f"{mandoc_version}.\n")
    w("| corpus | pages | Markdown | sift build | hugo + pagefind | queries |")
    w("|---|---|---|---|---|---|")
    for c, r in results.items():
        t = r["times"]
        w(f"| {CORPUS_NAMES[c]} | {r['pages']:,} | {r['md_bytes'] / 1e6:.1f} MB | {t['sift_build']:.1f} s | "
          f"{t['hugo']:.1f} + {t['pagefind']:.1f} s | {len(r['rows'])} |")
    w("")
    w("### Headline\n")
    w("S@k: the share of queries with a judged page among the first k results; MRR@10: mean of 1/rank of the first "
      "judged page in the top 10 (0 when absent); no result: queries answered with an empty list; CJK recall: over "
      "the words of recall_terms.tsv, the pages returned (anywhere in the full list) of those whose text holds the "
      "word, summed over words.\n")
    w("| corpus | engine | S@1 | S@5 | MRR@10 | no result | CJK word recall |")
    w("|---|---|---|---|---|---|---|")
    for c, r in results.items():
        for eng, name in (("sift", "Sift"), ("pf", "Pagefind")):
            m = r[eng]
            rec = "–"
            if r["recall"]:
                found = sum(x[eng] for x in r["recall"])
                truth = sum(x["truth"] for x in r["recall"])
                rec = f"{pct(found / truth)} ({found:,}/{truth:,})"
            w(f"| {CORPUS_NAMES[c]} | {name} | {pct(m['s1'])} | {pct(m['s5'])} | {m['mrr']:.2f} | "
              f"{m['zero']}/{m['n']} | {rec} |")
    w("")
    w("### By kind of query (MRR@10, Sift / Pagefind)\n")
    kinds = []
    for r in results.values():
        for row in r["rows"]:
            if row["kind"] not in kinds:
                kinds.append(row["kind"])
    w("| corpus | " + " | ".join(kinds) + " |")
    w("|---|" + "---|" * len(kinds))
    for c, r in results.items():
        cells = []
        for k in kinds:
            rows = [x for x in r["rows"] if x["kind"] == k]
            if not rows:
                cells.append("–")
                continue
            ms, mp = metrics([x["sift"] for x in rows], [0]), metrics([x["pf"] for x in rows], [0])
            cells.append(f"{ms['mrr']:.2f} / {mp['mrr']:.2f} ({len(rows)})")
        w(f"| {CORPUS_NAMES[c]} | " + " | ".join(cells) + " |")
    w("")
    for c, r in results.items():
        if not r["recall"]:
            continue
        w(f"### {CORPUS_NAMES[c]} word recall\n")
        w("| word | pages holding it | Sift returns | Sift total | Pagefind returns | Pagefind total |")
        w("|---|---|---|---|---|---|")
        for x in r["recall"]:
            w(f"| {x['term']} | {x['truth']} | {x['sift']} | {x['sift_total']} | {x['pf']} | {x['pf_total']} |")
        w("")
    for c, r in results.items():
        w(f"### {CORPUS_NAMES[c]} queries\n")
        w("Rank of the first judged page in the top 10 (– when absent), the number of results, and each engine's "
          "first three slugs.\n")
        w("| kind | query | judged pages | Sift | Pagefind | Sift's first three | Pagefind's first three |")
        w("|---|---|---|---|---|---|---|")
        for x in r["rows"]:
            def cell(rank, total):
                return f"{rank or '–'} ({total})"
            w(f"| {x['kind']} | {x['query']} | {' '.join(x['judged'])} | {cell(x['sift'], x['sift_total'])} | "
              f"{cell(x['pf'], x['pf_total'])} | {' '.join(x['sift_top'])} | {' '.join(x['pf_top'])} |")
        w("")
    w("### Package versions\n")
    for c, r in results.items():
        w(f"- {CORPUS_NAMES[c]}: " + ", ".join(f"{k} {v}" for k, v in r["packages"].items() if v) + "\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out).rstrip() + "\n")


if __name__ == "__main__":
    main()
