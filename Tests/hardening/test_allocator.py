"""`sift build` and `sift serve` start again with glibc's allocator tuned for a build
(`ProcessMemory.tuneAllocator`, docs/performance.md): the arguments, the environment and the
process id survive the restart, and tunables the user set are left as they are."""
import os
import re
import shutil
import subprocess
import time

from harden import SIFT, run, scratch, snapshot, write_items


def started(args, env=None):
    """`sift serve` started with `args`; the process and its environment once it listens."""
    proc = subprocess.Popen([SIFT, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    deadline, lines = time.monotonic() + 30, []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        lines.append(line)
        if re.search(r"http://127\.0\.0\.1:\d+", line) or not line:
            break
    assert proc.poll() is None, f"sift serve ended: {lines}"
    environ = open(f"/proc/{proc.pid}/environ", "rb").read().split(b"\0")
    cmdline = open(f"/proc/{proc.pid}/cmdline", "rb").read().split(b"\0")[:-1]
    return proc, dict(e.decode().split("=", 1) for e in environ if b"=" in e), [a.decode() for a in cmdline]


def test_serve_runs_with_the_tuned_allocator_and_its_own_arguments():
    site = scratch("sift allocator é ")
    try:
        write_items(site, [(f"Item {i}", "ABC"[i % 3], "note") for i in range(5)])
        args = ["serve", "--site", site, "--port", "0", "--no-watch"]
        proc, env, cmdline = started(args)
        try:
            assert "glibc.malloc.hugetlb=1" in env.get("GLIBC_TUNABLES", ""), env.get("GLIBC_TUNABLES")
            assert cmdline[1:] == [str(a) for a in args]
        finally:
            proc.kill()
            proc.wait(timeout=10)
        mine = dict(os.environ, GLIBC_TUNABLES="glibc.malloc.tcache_count=0")
        proc, env, _ = started(args, env=mine)
        try:
            assert env["GLIBC_TUNABLES"] == "glibc.malloc.tcache_count=0"
        finally:
            proc.kill()
            proc.wait(timeout=10)
    finally:
        shutil.rmtree(site, ignore_errors=True)


def test_a_build_restarted_with_the_tuned_allocator_writes_what_one_without_it_does():
    site = scratch("sift allocator é ")
    try:
        write_items(site, [(f"Item {i}", "ABC"[i % 3], "x" * (i % 40)) for i in range(300)])
        p, _, _ = run(["build", "--site", site, "--quiet", "--clean"])
        assert p.returncode == 0, p.stderr
        plain = dict(os.environ, SIFT_DEFAULT_MALLOC="1")
        p, _, _ = run(["build", "--site", site, "--quiet", "--clean", "--output", site / "plain"], env=plain)
        assert p.returncode == 0, p.stderr
        assert snapshot(site / "public") == snapshot(site / "plain")
        # A failed build still says where, and exits 1, from the process started again.
        (site / "Content" / "items" / "broken.md").write_text("---\ntitle: [unclosed\n---\n")
        p, _, _ = run(["build", "--site", site, "--quiet"])
        assert p.returncode == 1 and "broken.md:2:" in p.stderr, p.stderr
    finally:
        shutil.rmtree(site, ignore_errors=True)
