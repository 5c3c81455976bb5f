"""Content at and past the limits (docs/limits.md): each case builds, or fails with one clear
`path:line:column: error:` line, within a bounded time and memory. Never a hang or a crash.

Every case prints its time and peak memory (pytest -s shows them).
"""
import os
import re
import shutil

import pytest

from harden import measured, scratch, write_items

ERROR = re.compile(r"^[^\s:][^:]*:\d+:\d+: error: .+$")


@pytest.fixture
def site():
    root = scratch("sift-limits-")
    (root / "Content").mkdir()
    yield root
    shutil.rmtree(root, ignore_errors=True)


def build(site, timeout=60, max_seconds=30, max_mb=1024):
    p, seconds, mb = measured(["build", "--quiet"], timeout=timeout, cwd=site)
    print(f"  {seconds:.2f} s, {mb:.0f} MB peak, exit {p.returncode}: {p.stderr.strip()[:160]}")
    assert p.returncode in (0, 1), f"crashed: exit {p.returncode}\n{p.stderr[-2000:]}"
    assert seconds < max_seconds and mb < max_mb, (seconds, mb)
    return p


def fails_clearly(p, message, where):
    lines = p.stderr.strip().split("\n")
    assert p.returncode == 1 and len(lines) == 1 and ERROR.match(lines[0]), p.stderr[:2000]
    assert lines[0].startswith(where) and message in lines[0], lines[0]


def collection(site, name, file, text):
    (site / "Content" / name).mkdir(parents=True, exist_ok=True)
    (site / "Content" / name / file).write_text(text, encoding="utf-8")


def test_a_50_mb_markdown_page_builds(site):
    para = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. " * 10 + "\n\n"
    (site / "Content" / "big.md").write_text("# Big\n\n" + para * (50_000_000 // len(para)))
    p = build(site, max_seconds=30, max_mb=1500)
    assert p.returncode == 0
    assert (site / "public" / "big" / "index.html").stat().st_size > 50_000_000


def test_a_300_mb_static_file_is_copied_without_being_held(site):
    (site / "Content" / "about.md").write_text("# About\n")
    (site / "Static").mkdir()
    film = site / "Static" / "film.mp4"
    with open(film, "wb") as f:
        f.truncate(300_000_000)  # sparse: read as zeros, in no memory of its own
        f.seek(299_999_999)
        f.write(b"\x01")
    p = build(site, max_seconds=30, max_mb=150)
    assert p.returncode == 0, p.stderr
    copied = site / "public" / "film.mp4"
    assert copied.stat().st_size == 300_000_000
    with open(copied, "rb") as f:
        f.seek(299_999_999)
        assert f.read() == b"\x01"
    copied.unlink()  # 300 MB of /dev/shm back at once


def test_ten_thousand_scopes_build(site):
    rows = "".join(f"n{i},Scope {i}\n" for i in range(10_000))
    collection(site, "c", "c.csv", "name,cat\n" + rows)
    scopes = ", ".join(f"Scope {i}" for i in range(10_000))
    collection(site, "c", "collection.yml", f"scope_field: cat\nscopes: [{scopes}]\n")
    assert build(site, max_seconds=30).returncode == 0


def test_json_nested_ten_thousand_levels_is_an_error(site):
    collection(site, "c", "c.json", "[" + '{"a":' * 10_000 + "1" + "}" * 10_000 + "]")
    fails_clearly(build(site, max_seconds=5), "nesting deeper than 512 levels", "Content/c/c.json:1:")


def test_json_nested_arrays_in_a_field_are_an_error(site):
    collection(site, "c", "c.json", '[{"name": "x", "a": ' + "[" * 10_000 + "]" * 10_000 + "}]")
    fails_clearly(build(site, max_seconds=5), "nesting deeper than 512 levels", "Content/c/c.json:1:")


def test_yaml_nested_ten_thousand_levels_is_an_error(site):
    collection(site, "c", "c.yml", "- " + "{a: " * 10_000 + "1" + "}" * 10_000 + "\n")
    fails_clearly(build(site, max_seconds=5), "YAML nests more than 512 levels deep", "Content/c/c.yml:1:")


def test_yaml_block_nesting_in_front_matter_is_an_error(site):
    fm = "".join("  " * i + "a:\n" for i in range(2_000))
    (site / "Content" / "deep.md").write_text("---\n" + fm + "---\nbody\n")
    fails_clearly(build(site, max_seconds=10), "YAML nests more than 512 levels deep", "Content/deep.md:")


def billion_laughs():
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    return lines


def test_yaml_alias_bomb_in_a_dataset_is_an_error(site):
    collection(site, "c", "c.yml", "- name: lol\n" + "".join(f"  {l}\n" for l in billion_laughs()))
    fails_clearly(build(site, max_seconds=5, max_mb=256), "more than 1,000,000 nodes", "Content/c/c.yml:")


def test_yaml_alias_bomb_in_front_matter_is_an_error(site):
    (site / "Content" / "lol.md").write_text("---\n" + "\n".join(billion_laughs()) + "\n---\nbody\n")
    fails_clearly(build(site, max_seconds=5, max_mb=256), "more than 1,000,000 nodes", "Content/lol.md:")


def test_a_ten_thousand_character_name_is_an_error_naming_the_row(site):
    collection(site, "c", "c.txt", "short\n" + "N" * 10_000 + "\n")
    p = build(site, max_seconds=5)
    fails_clearly(p, "is 10000 bytes long, more than the 255 a folder name may have", "Content/c/c.txt:2:1:")
    assert len(p.stderr) < 400, "the message must not repeat the whole name"


def test_a_ten_thousand_character_title_with_a_short_slug_builds(site):
    collection(site, "c", "c.csv", "name,slug\n" + "N" * 10_000 + ",long\n")
    assert build(site, max_seconds=5).returncode == 0
    assert "N" * 10_000 in (site / "public" / "c" / "long" / "index.html").read_text()


def test_null_bytes_in_content_build(site):
    collection(site, "c", "c.csv", "name,note\na\x00b,c\x00d\n")
    (site / "Content" / "nul.md").write_text("---\ntitle: \"t\\0x\"\n---\n# a\x00b\n\nbody\x00\n")
    assert build(site, max_seconds=5).returncode == 0
    for page in (site / "public").rglob("*.html"):
        assert b"\x00" not in page.read_bytes(), page


def test_links_that_loop_build(site):
    """Two links back to their own folder: 2^24 paths to a walk that follows links, unless each
    folder is walked once."""
    collection(site, "a", "a.txt", "A\n")
    for link in ("l1", "l2"):
        (site / "Content" / "a" / link).symlink_to(".")
    (site / "Content" / "about.md").write_text("hi\n")
    assert build(site, timeout=30, max_seconds=5).returncode == 0
    assert (site / "public" / "about" / "index.html").exists()


def test_a_named_pipe_as_a_page_is_an_error(site):
    """Opened for reading, a named pipe waits for a writer: it is refused before it is read."""
    collection(site, "a", "a.txt", "A\n")
    os.mkfifo(site / "Content" / "about.md")
    p = build(site, timeout=30, max_seconds=5)
    assert p.returncode == 1
    assert p.stderr == "Content/about.md: error: cannot read file: not a regular file but a named pipe\n", p.stderr


def test_self_recursive_partial_is_an_error(site):
    (site / "Content" / "index.md").write_text("# hi\n")
    (site / "Templates" / "partials").mkdir(parents=True)
    (site / "Templates" / "partials" / "loop.mustache").write_text("a{{> loop}}b\n")
    (site / "Templates" / "home.mustache").write_text("<p>{{> loop}}</p>\n")
    fails_clearly(build(site, max_seconds=5), "nests templates more than 64 levels deep", "Templates/partials/loop.mustache:1:2:")


def test_exponential_partials_are_an_error(site):
    """Ten partials each including the next ten times: 10^9 copies, the billion laughs in Mustache."""
    (site / "Content" / "index.md").write_text("# hi\n")
    partials = site / "Templates" / "partials"
    partials.mkdir(parents=True)
    for i in range(9):
        (partials / f"a{i}.mustache").write_text(f"{{{{> a{i + 1}}}}}" * 10)
    # A long leaf reaches the cap in far fewer copies than a three-byte one, which keeps the test quick.
    (partials / "a9.mustache").write_text("lol " * 1000)
    (site / "Templates" / "home.mustache").write_text("{{> a0}}\n")
    fails_clearly(build(site, max_seconds=20, max_mb=1500), "makes the page larger than 256 MB", "Templates/partials/")


def test_sections_that_repeat_each_other_writing_nothing_are_an_error(site):
    """Twenty sections nested over the three pages, which every page's context still finds: 3^20
    entries that write nothing, which no size cap stops (FuzzMustache found the like)."""
    (site / "Content" / "index.md").write_text("# hi\n")
    for name in "abc":
        (site / "Content" / f"{name}.md").write_text(f"# {name}\n")
    (site / "Templates").mkdir(exist_ok=True)
    (site / "Templates" / "home.mustache").write_text("{{#pages}}" * 20 + "{{/pages}}" * 20 + "\n")
    fails_clearly(build(site, max_seconds=5), "makes the page enter sections and templates 1048577 times for 0 bytes", "Templates/home.mustache:1:")
