"""Helpers for the hardening tests: generated sites, whole-folder snapshots, mounts, bounded runs.

Every run of `sift` here has a timeout; a test that would hang fails instead.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import siftsite  # noqa: E402  (the browser tests' helpers: REPO, SIFT, fixture_site)

REPO = siftsite.REPO
SIFT = siftsite.SIFT


def scratch(prefix: str) -> Path:
    """A new temporary folder, on /dev/shm when there is one: these tests write thousands of files."""
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


def run(args, timeout=60, **kw):
    """Runs sift with `args`; returns (CompletedProcess, seconds, peak RSS in MB of this child)."""
    start = time.monotonic()
    before = _children_maxrss()
    p = subprocess.run([SIFT, *map(str, args)], capture_output=True, text=True, timeout=timeout, **kw)
    return p, time.monotonic() - start, max(_children_maxrss(), before)


def _children_maxrss() -> float:
    import resource
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def measured(args, timeout=60, cwd=None):
    """Runs sift under /usr/bin/time -v when present: (CompletedProcess, seconds, peak RSS MB of this run)."""
    start = time.monotonic()
    if os.path.exists("/usr/bin/time"):
        p = subprocess.run(["/usr/bin/time", "-f", "%M", SIFT, *map(str, args)], capture_output=True, text=True,
                           timeout=timeout, cwd=cwd)
        lines = [l for l in p.stderr.rstrip().split("\n") if not l.startswith("Command exited with non-zero status")]
        rss = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else float("nan")
        p.stderr = "\n".join(lines[:-1]) + ("\n" if len(lines) > 1 else "")
        return p, time.monotonic() - start, rss
    p = subprocess.run([SIFT, *map(str, args)], capture_output=True, text=True, timeout=timeout, cwd=cwd)
    return p, time.monotonic() - start, float("nan")


def write_items(site: Path, rows, extra_pages=None):
    """Writes Content/items/items.csv (name, category, note) and optional Markdown pages."""
    folder = site / "Content" / "items"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "items.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["name", "category", "note"])
        w.writerows(rows)
    (folder / "collection.yml").write_text("scope_field: category\nscopes: [A, B, C]\nsearch_fields: [name, note]\n")
    for rel, text in (extra_pages or {}).items():
        (site / "Content" / rel).write_text(text, encoding="utf-8")


def snapshot(folder: Path) -> dict:
    """Every entry under `folder`: files by their bytes, folders as None."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), folder)] = None
        for f in files:
            p = os.path.join(root, f)
            out[os.path.relpath(p, folder)] = Path(p).read_bytes()
    return out


def differences(a: dict, b: dict, limit=5) -> str:
    only_a = sorted(set(a) - set(b))[:limit]
    only_b = sorted(set(b) - set(a))[:limit]
    changed = sorted(k for k in set(a) & set(b) if a[k] != b[k])[:limit]
    return f"only before: {only_a}, only after: {only_b}, changed: {changed}"


def leftovers(parent: Path, name="public"):
    """Staging and swapped-out folders a build left beside the output."""
    return sorted(e for e in os.listdir(parent) if e.startswith(f".{name}.sift-"))


def cache_leftovers(site: Path):
    """Temporary files a build left in the site's .sift-cache/."""
    folder = site / ".sift-cache"
    return sorted(e for e in os.listdir(folder) if ".tmp-" in e) if folder.exists() else []


@contextmanager
def mounted(target: Path, *args):
    """`mount args… target` for the duration; skips when this user may not mount."""
    import pytest
    target.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a tmpfs or a read-only bind mount (permission bits alone are tested by non-root runs)")
    p = subprocess.run(["mount", *args, str(target)], capture_output=True, text=True, timeout=10)
    if p.returncode != 0:
        pytest.skip(f"cannot mount here: {p.stderr.strip()}")
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True, timeout=10)
