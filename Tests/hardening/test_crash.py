"""`sift build` killed with SIGKILL at random points, onto a read-only parent and onto a full disk.

docs/cli.md: a failed build leaves the previous output untouched. Each kill must leave public/
exactly the previous complete site or exactly the new one, and the next build must succeed and
clear what the killed one left behind. SIFT_KILL_RUNS (default 20) and SIFT_KILL_SEED pick the runs.
"""
import os
import random
import shutil
import signal
import statistics
import subprocess
import time

import pytest

from harden import (SIFT, cache_leftovers, differences, leftovers, mounted, run, scratch,
                    snapshot, write_items)

ITEMS = 2000


def version(site, which):
    """Two contents whose outputs differ in page bytes, in the file list and in the index."""
    if which == "a":
        rows = [(f"Item {i}", "ABC"[i % 3], "x" * (i % 50)) for i in range(ITEMS)]
        pages = {"about.md": "# About\n\nVersion A.\n"}
    else:
        rows = [(f"Item {i}" + (" changed" if i % 2 == 0 else ""), "ABC"[(i + 1) % 3], "y" * (i % 40))
                for i in range(100, ITEMS + 100)]
        pages = {"about.md": "# About\n\nVersion B, longer than A.\n"}
    write_items(site, rows, pages)


def build(site, timeout=60):
    p, seconds, _ = run(["build", "--site", site, "--quiet"], timeout=timeout)
    assert p.returncode == 0, p.stderr
    return seconds


def killed_after(site, delay):
    """Starts `sift build` of `site` and sends it SIGKILL after `delay` seconds; whether the kill
    found it still running."""
    proc = subprocess.Popen([SIFT, "build", "--site", str(site), "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    return proc.returncode == -signal.SIGKILL


def test_sigkill_at_random_points_leaves_old_or_new_site():
    runs = int(os.environ.get("SIFT_KILL_RUNS", "20"))
    seed = int(os.environ.get("SIFT_KILL_SEED", str(random.randrange(1 << 30))))
    rng = random.Random(seed)
    site = scratch("sift-kill-")
    try:
        snaps, durations = {}, []
        for which in ("a", "b"):
            version(site, which)
            build(site)
            snaps[which] = snapshot(site / "public")
        # The killed builds switch versions with the last build's cache in place, which is
        # faster than the first, clean builds: time such builds to spread the kills over.
        for which in ("a", "b", "a", "b"):
            version(site, which)
            durations.append(build(site))
        assert snaps["a"] != snaps["b"]
        current = "b"
        killed_mid_build = 0
        outcomes = {"old": 0, "new": 0}
        for n in range(runs):
            target = "a" if current == "b" else "b"
            version(site, target)
            # Spread over the whole build, from before it reads anything to the swap at its end.
            delay = rng.uniform(0, statistics.median(durations[-6:]) * 1.1)
            if killed_after(site, delay):
                killed_mid_build += 1
            now = snapshot(site / "public")
            if now == snaps[current]:
                outcomes["old"] += 1
            elif now == snaps[target]:
                outcomes["new"] += 1
                current = target
            else:
                pytest.fail(f"run {n} (seed {seed}, kill after {delay:.3f}s): public/ is a mix: "
                            f"vs old {differences(snaps[current], now)}; vs new {differences(snaps[target], now)}")
            durations.append(build(site))
            assert snapshot(site / "public") == snaps[target], f"run {n} (seed {seed}): the build after a kill differs"
            assert leftovers(site) == [], f"run {n} (seed {seed}): {leftovers(site)}"
            assert cache_leftovers(site) == [], f"run {n} (seed {seed}): {cache_leftovers(site)}"
            current = target
        print(f"\n{runs} kills (seed {seed}), {killed_mid_build} mid-build: public/ old {outcomes['old']}, new {outcomes['new']}")
        assert killed_mid_build >= runs // 2, "too few kills landed inside a build: the site builds too fast to test"
    finally:
        shutil.rmtree(site, ignore_errors=True)


def test_sigkill_during_a_one_item_edit_leaves_whole_files_and_the_next_build_mends_it():
    """A small edit is committed in place (docs/cli.md): files renamed over the old ones, pages
    and the index's manifest last. A kill then leaves public/ the old site, the new one, or while
    renaming a mix of whole files of the two, never a file of neither; the next build gives the
    new site exactly."""
    runs = int(os.environ.get("SIFT_KILL_RUNS", "20"))
    seed = int(os.environ.get("SIFT_KILL_SEED", str(random.randrange(1 << 30))))
    rng = random.Random(seed)
    site = scratch("sift-kill-small-")
    rows = [(f"Item {i}", "ABC"[i % 3], "x" * (i % 50)) for i in range(ITEMS)]
    page = site / "Content" / "items" / "item-7.md"
    try:
        write_items(site, rows)
        snaps, durations = {}, []
        for which in ("a", "b"):
            page.write_text(f"Version {which}: {'harbor' if which == 'a' else 'volcano lantern'} text.\n")
            build(site)
            snaps[which] = snapshot(site / "public")
        for which in ("a", "b", "a", "b"):
            page.write_text(f"Version {which}: {'harbor' if which == 'a' else 'volcano lantern'} text.\n")
            durations.append(build(site))
        changed = sorted(k for k in set(snaps["a"]) | set(snaps["b"]) if snaps["a"].get(k, 0) != snaps["b"].get(k, 0))
        assert 0 < len(changed) < len(snaps["a"]) // 8, f"{len(changed)} of {len(snaps['a'])} entries differ: not a small edit"
        current, outcomes = "b", {"old": 0, "new": 0, "mix": 0}
        for n in range(runs):
            target = "a" if current == "b" else "b"
            page.write_text(f"Version {target}: {'harbor' if target == 'a' else 'volcano lantern'} text.\n")
            delay = rng.uniform(0, statistics.median(durations[-6:]) * 1.1)
            killed_after(site, delay)
            now = snapshot(site / "public")
            if now == snaps[current]:
                outcomes["old"] += 1
            elif now == snaps[target]:
                outcomes["new"] += 1
            else:
                outcomes["mix"] += 1
                strays = [k for k in now if k not in snaps[current] and k not in snaps[target]]
                torn = [k for k in now if now[k] != snaps[current].get(k, 0) and now[k] != snaps[target].get(k, 0)]
                assert not strays and not torn, f"run {n} (seed {seed}): files of neither site: {strays[:5]} {torn[:5]}"
            durations.append(build(site))
            assert snapshot(site / "public") == snaps[target], f"run {n} (seed {seed}): the build after a kill differs"
            assert leftovers(site) == [] and cache_leftovers(site) == [], f"run {n} (seed {seed})"
            current = target
        print(f"\n{runs} kills during one-item edits (seed {seed}): public/ {outcomes}")
    finally:
        shutil.rmtree(site, ignore_errors=True)


def small_site(root, note="first"):
    write_items(root, [(f"Item {i}", "ABC"[i % 3], note) for i in range(5)])


def test_read_only_output_parent_gives_a_clear_error_and_keeps_public():
    tmp = scratch("sift-ro-")
    try:
        site = tmp / "site"
        small_site(site)
        out = tmp / "out"
        out.mkdir()
        with mounted(out, "-t", "tmpfs", "-o", "size=8m", "tmpfs"):
            p, _, _ = run(["build", "--site", site, "--output", out / "public", "--quiet"])
            assert p.returncode == 0, p.stderr
            before = snapshot(out / "public")
            subprocess.run(["mount", "-o", "remount,ro", str(out)], check=True, timeout=10)
            small_site(site, note="second")
            p, seconds, _ = run(["build", "--site", site, "--output", out / "public", "--quiet"], timeout=30)
            assert p.returncode == 1, (p.returncode, p.stderr)
            assert "error: " in p.stderr and str(out) in p.stderr and "Read-only file system" in p.stderr, p.stderr
            assert "\n" not in p.stderr.strip(), f"one error line expected: {p.stderr}"
            assert snapshot(out / "public") == before
            assert seconds < 10
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_full_disk_gives_a_clear_error_keeps_public_and_frees_the_space():
    tmp = scratch("sift-full-")
    try:
        site = tmp / "site"
        small_site(site)
        out = tmp / "out"
        with mounted(out, "-t", "tmpfs", "-o", "size=1m", "tmpfs"):
            p, _, _ = run(["build", "--site", site, "--output", out / "public", "--quiet"])
            assert p.returncode == 0, p.stderr
            before = snapshot(out / "public")
            # About 2,000 pages of 3-4 KB cannot fit in 1 MB beside the first site.
            write_items(site, [(f"Item {i}", "ABC"[i % 3], "z" * 60) for i in range(ITEMS)])
            p, seconds, _ = run(["build", "--site", site, "--output", out / "public", "--quiet"], timeout=30)
            assert p.returncode == 1, (p.returncode, p.stderr)
            assert "error: " in p.stderr and "No space left on device" in p.stderr, p.stderr
            # Once: every page after the first that could not be written would fail the same way.
            assert p.stderr.count("No space left on device") == 1, p.stderr
            assert snapshot(out / "public") == before
            assert leftovers(out) == [], "the failed build's staging folder must be removed, freeing the disk"
            # With the space back, a build that fits succeeds.
            small_site(site, note="third")
            p, _, _ = run(["build", "--site", site, "--output", out / "public", "--quiet"])
            assert p.returncode == 0, p.stderr
            assert seconds < 10
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def as_nobody(args):
    """Runs sift as an unprivileged user (root reads every folder whatever its mode), when this is
    root and `setpriv` (util-linux) is there; else as this user."""
    if os.geteuid() == 0 and shutil.which("setpriv"):
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", SIFT, *map(str, args)],
                           capture_output=True, text=True, timeout=60)
        return p
    return subprocess.run([SIFT, *map(str, args)], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("folder", ["Content/items", "Content", "Static/dl", "Templates", "Templates/assets"])
def test_an_unreadable_folder_is_an_error_and_keeps_public(folder):
    """A folder of the sources that cannot be read was read as empty: the build said it succeeded
    and took its pages or files out of the output (`Content/` unreadable: the whole site)."""
    tmp = scratch("sift-unreadable-")
    try:
        site = tmp / "site"
        small_site(site)
        (site / "Static" / "dl").mkdir(parents=True)
        (site / "Static" / "dl" / "a.txt").write_text("a\n")
        (site / "Templates" / "assets").mkdir(parents=True)
        (site / "Templates" / "assets" / "custom.css").write_text("body { color: red }\n")
        (site / "Templates" / "page.mustache").write_text("{{< layout}}{{$ main}}{{{content}}}{{/ main}}{{/ layout}}\n")
        (site / "Content" / "about.md").write_text("# About\n\nHello.\n")
        if os.geteuid() == 0:
            shutil.chown(tmp, "nobody", "nogroup")
            for root, dirs, files in os.walk(tmp):
                for name in dirs + files:
                    shutil.chown(os.path.join(root, name), "nobody", "nogroup")
        p = as_nobody(["build", "--site", site, "--quiet"])
        assert p.returncode == 0, p.stderr
        before = snapshot(site / "public")
        os.chmod(site / folder, 0)
        try:
            for command in (["build"], ["build", "--clean"], ["check"]):
                p = as_nobody([*command, "--site", site, "--quiet"])
                assert p.returncode == 1, (command, p.returncode, p.stderr)
                assert f"{folder}: error: cannot read folder: Permission denied" in p.stderr, (command, p.stderr)
                assert snapshot(site / "public") == before, command
        finally:
            os.chmod(site / folder, 0o755)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
