"""Screenshots of the search bar for review: python3 Tests/browser/screenshots.py [OUT_DIR]

The candies page idle, active with the dimmed background, filtered with scope Hard, and
the centered style (the example content with `style: centered`, default look), plus the
results panel on the home page; then every options-matrix site (test_options_matrix.py; the
legend is matrix.txt) idle, active, searching with a scope, and its panel; each at 1280x900
and 390x844. Uses the same builds and
server as the browser tests (SIFT=… and SIFT_ASSETS=… work here too).
"""
import re
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

import siftsite
from test_options_matrix import MATRIX, build_site, label

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


def centered_site(root: Path) -> Path:
    """The example content with the centered style and no template overrides, in root."""
    shutil.copytree(siftsite.REPO / "Content", root / "Content")
    yml = root / "Content/site.yml"
    yml.write_text(re.sub(r"(?m)^(\s*style:\s*)\S+", r"\1centered", yml.read_text()))
    return root


def main(out: Path):
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="sift-shots-"))
    example = siftsite.Server(siftsite.build(siftsite.REPO, tmp / "example"))
    centered = siftsite.Server(siftsite.build(centered_site(tmp / "centered-site"), tmp / "centered"))
    matrix = [siftsite.Server(build_site(combo, tmp / f"matrix{n}")) for n, combo in enumerate(MATRIX)]
    (out / "matrix.txt").write_text("".join(f"site{n}: {label(c)}\n" for n, c in enumerate(MATRIX)), encoding="utf-8")
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=siftsite.CHROMIUM, headless=True)
        for size, (w, h) in SIZES.items():
            ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=2 if w < 500 else 1)
            page = ctx.new_page()

            def shot(name):
                page.wait_for_timeout(400)  # let the 250 ms transitions finish
                path = out / f"{name}-{size}.png"
                page.screenshot(path=str(path))
                shots.append(path)

            page.goto(example.url + "/candies/")
            shot("candies-idle")
            page.get_by_role("searchbox").click()
            shot("candies-active-dimmed")
            page.get_by_role("radio", name="Hard").click()
            page.get_by_role("searchbox").fill("a")
            shot("candies-scope-hard")
            page.get_by_role("button", name="Cancel").click()

            page.goto(centered.url + "/candies/")
            shot("centered-idle")
            page.get_by_role("searchbox").click()
            page.get_by_role("searchbox").fill("choc")
            shot("centered-active")

            page.goto(example.url + "/")
            page.get_by_role("combobox").fill("an")
            page.get_by_role("option").first.wait_for()
            page.keyboard.press("ArrowDown")
            shot("home-panel")

            for n, (combo, server) in enumerate(zip(MATRIX, matrix)):
                page.goto(server.url + "/candies/")
                shot(f"matrix-site{n}-idle")
                box = page.get_by_role("searchbox")
                box.click()
                shot(f"matrix-site{n}-active")
                box.fill("a")
                box.press("Enter")
                page.get_by_role("radio", name=re.compile("^Hard")).click()
                shot(f"matrix-site{n}-scope")
                page.goto(server.url + "/about/")
                page.get_by_role("combobox").fill("an")
                page.get_by_role("combobox").press("Enter")
                page.get_by_role("option").first.wait_for()
                page.keyboard.press("ArrowDown")
                shot(f"matrix-site{n}-panel")
            ctx.close()
        browser.close()
    for server in [example, centered, *matrix]:
        server.close()
    shutil.rmtree(tmp, ignore_errors=True)
    print("\n".join(map(str, shots)))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/sift-shots"))
