"""Two `sift build`s of one site at once: the second waits for the first (`.sift-cache/lock`)
instead of removing its staging folder as a killed build's leftover, which failed the first
with "cannot write …/.public.sift-staging-N/…: No such file or directory" (seen in `make bench`
when a build was started by hand beside it)."""
import shutil
import subprocess
import time

from harden import SIFT, leftovers, run, scratch, snapshot, write_items


def test_a_second_build_waits_for_the_first():
    site = scratch("sift-concurrent-")
    try:
        write_items(site, [(f"Item {i}", "ABC"[i % 3], "x" * (i % 50)) for i in range(3000)])
        first = subprocess.Popen([SIFT, "build", "--site", str(site), "--clean", "--quiet"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not leftovers(site) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        assert first.poll() is None, "the first build ended before the second could start: too small a site"
        second, _, _ = run(["build", "--site", site], timeout=60)
        assert first.wait(timeout=60) == 0, first.stderr.read()
        assert second.returncode == 0, second.stderr
        assert "waiting for another build of this site to finish" in second.stderr, second.stderr
        built = snapshot(site / "public")
        p, _, _ = run(["build", "--site", site, "--clean", "--quiet", "--output", site / "clean"])
        assert p.returncode == 0, p.stderr
        assert built == snapshot(site / "clean")
        assert leftovers(site) == []
    finally:
        shutil.rmtree(site, ignore_errors=True)
