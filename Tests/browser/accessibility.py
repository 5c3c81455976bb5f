"""axe-core (through axe-playwright-python, PyPI) over a page in its current state: the WCAG 2.1
A and AA rules, failing on any serious or critical violation."""
from axe_playwright_python.sync_playwright import Axe

_AXE = Axe()
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, "resultTypes": ["violations"]}


def violations(page) -> list[str]:
    """The serious and critical violations on the page, one line each: rule, element, why."""
    if not page.evaluate("typeof axe == 'object'"):
        page.evaluate(_AXE.axe_script)  # once per document: the script is half a megabyte
    found = []
    for v in page.evaluate("o => axe.run(document, o)", RULES)["violations"]:
        if v["impact"] in ("serious", "critical"):
            for node in v["nodes"]:
                why = "; ".join(c["message"] for c in node["any"] + node["all"] + node["none"])
                found.append(f"{v['id']}: {node['target']}: {why}")
    return found


def assert_accessible(page, where: str):
    # Once the bar's transitions have settled: the Cancel button caught fading in measured a
    # contrast of 4.38 against its final 4.5+ (a run on a fast machine).
    page.wait_for_function("document.getAnimations().every(a => a.playState != 'running')")
    found = violations(page)
    assert found == [], f"axe-core on {page.url} ({where}):\n" + "\n".join(found)
