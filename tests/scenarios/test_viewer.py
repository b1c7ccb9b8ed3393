"""The replay in the browser: ``tapeline replay FILE --html OUT.html``.

The page is checked twice: as text (self-contained, one board per step, what each step lists),
and end to end in a real headless Chromium driven by Playwright — load it, step forward and back
with the buttons, the keyboard and the timeline, open a step from its link, check what is shown
and take a screenshot; step through a Heresy charge's Set-up Move, volley and charge move; and
open the page with JavaScript disabled (every step listed, the final board shown). What each
step says and draws is checked against hand-worked values in test_viewer_steps.py. The
browser, and when its test is skipped: tests/scenarios/chromium.py.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from tapeline.scenarios.load import read
from tests.conftest import EXAMPLES, cli
from tests.scenarios.chromium import launch

SHOW = EXAMPLES / "showcase.yaml"
ROACHES = EXAMPLES / "charge-roaches-7in.yaml"
@pytest.fixture(scope="module")
def showcase_html(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("viewer") / "showcase.html"
    code, stdout, err = cli("replay", SHOW, "--html", out)
    assert code == 0, err
    assert "25 of 25 expectations hold" in stdout and f"wrote {out}" in err
    return out


@functools.lru_cache(maxsize=None)
def _casualties_of_the_volley() -> list[str]:
    """Zerglings of zerglings-b on the table before the volley (action 2) and gone after it,
    read from the replay's own final state — independent of the page."""
    code, stdout, err = cli("models", SHOW, "--after", "2", "--json")
    import json

    after = {m["id"] for u in json.loads(stdout)["units"] for m in u["models"]}
    before = {m for u in read(SHOW).state.units for m in u.models}
    return sorted(before - after)


def test_page_is_self_contained(showcase_html):
    text = showcase_html.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    # nothing to fetch: no external scripts, styles, images or fonts
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', text)
    assert "@import" not in text and "url(" not in text
    # one board per step: the set-up and each of the showcase's three actions
    assert text.count('<section class="step') == 4 and text.count("<svg ") == 4


def test_each_step_lists_its_action_dice_verdicts_and_casualties(showcase_html):
    text = showcase_html.read_text(encoding="utf-8")
    panels = re.findall(r'<section class="step[^"]*" id="panel-(\d+)".*?</section>', text, re.S)
    assert panels == ["0", "1", "2", "3"]
    volley = re.search(r'<section class="step final" id="panel-3".*?</section>', text, re.S).group(0)
    assert "[2] shoot" in volley and "to hit" in volley and 'class="die"' in volley
    gone = _casualties_of_the_volley()
    assert gone and ", ".join(gone) in volley
    for m in gone:  # removed from the board of that step, drawn on the step before
        assert f'data-model="{m}"' not in volley
        before = re.search(r'<section class="step" id="panel-2".*?</section>', text, re.S).group(0)
        assert f'data-model="{m}"' in before
    assert 'data-layer="casualties"' in volley and "removed as a casualty" in volley


def test_same_file_same_page(tmp_path):
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    assert cli("replay", ROACHES, "--html", a)[0] == 0
    assert cli("replay", ROACHES, "--html", b)[0] == 0
    assert a.read_bytes() == b.read_bytes()


def test_unwritable_page_is_exit_2(tmp_path):
    code, out, err = cli("replay", ROACHES, "--html", tmp_path / "missing" / "x.html")
    assert code == 2 and "cannot write" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def browser():
    yield from launch("the HTML viewer")


def test_viewer_in_headless_chromium(browser, showcase_html, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 950})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = showcase_html.as_uri()
    page.goto(url)

    def shown() -> list[str]:
        return page.eval_on_selector_all("section.step", "els => els.filter(e => !e.hidden).map(e => e.dataset.step)")

    def title() -> str:
        return page.inner_text("section.step:not([hidden]) .step-title")

    # loads at the set-up, one board shown
    assert shown() == ["0"] and title() == "0: set-up"
    assert page.inner_text("#counter") == "step 0 / 3"
    assert page.is_visible("section.step:not([hidden]) svg")
    # forward with the keyboard and the button
    page.keyboard.press("ArrowRight")
    assert shown() == ["1"] and title() == "1: [0] move" and page.url.endswith("#step-1")
    page.click("#next")
    assert shown() == ["2"] and title() == "2: [1] place"
    page.click("#next")
    assert shown() == ["3"] and title() == "3: [2] shoot"
    # the volley's step: dice, casualties gone from the board, the others still on it
    panel = "section.step:not([hidden])"
    assert "to hit" in page.inner_text(f"{panel} .dice-list")
    gone = _casualties_of_the_volley()
    assert page.inner_text(f"{panel} .casualties") == ", ".join(gone)
    for m in gone:
        assert page.locator(f'{panel} svg [data-model="{m}"]').count() == 0
    assert page.locator(f'{panel} svg [data-model="zb2"]').count() == 1
    assert page.locator(f'{panel} svg [data-layer="casualties"] polyline').count() == 2 * len(gone)
    page.screenshot(path=str(tmp_path / "viewer-step-3.png"))
    assert (tmp_path / "viewer-step-3.png").stat().st_size > 10_000
    # the end stops at the last step; back with the keyboard and the button
    page.keyboard.press("ArrowRight")
    assert shown() == ["3"]
    page.keyboard.press("ArrowLeft")
    assert shown() == ["2"] and page.url.endswith("#step-2")
    page.click("#prev")
    assert shown() == ["1"]
    page.keyboard.press("End")
    assert shown() == ["3"]
    page.keyboard.press("Home")
    assert shown() == ["0"]
    # the timeline jumps to any step
    page.click('ol.timeline a[data-step="2"]')
    assert shown() == ["2"] and page.get_attribute('ol.timeline a[data-step="2"]', "aria-current") == "step"
    # a link to a step opens the page at that step
    page.goto(url + "#step-3")
    page.reload()
    assert shown() == ["3"] and page.inner_text("#counter") == "step 3 / 3"
    # the board is the renderer's picture, legend included
    assert f"removed as a casualty ({len(gone)})" in page.text_content(f"{panel} svg")
    assert errors == []
    assert all(u.startswith("file://") for u in requests), requests
    page.close()


HERESY = EXAMPLES / "assault-heresy.yaml"


@pytest.fixture(scope="module")
def heresy_html(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("viewer") / "heresy.html"
    code, _stdout, err = cli("replay", HERESY, "--html", out)
    assert code == 0, err
    return out


def test_viewer_steps_through_the_parts_of_a_charge(browser, heresy_html, tmp_path):
    """The Set-up Move and the charge move are separate steps; each step's sentence and dice
    are shown; forward and back."""
    page = browser.new_page(viewport={"width": 1400, "height": 950})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(heresy_html.as_uri())
    panel = "section.step:not([hidden])"
    page.click("#next")
    assert page.inner_text(f"{panel} .step-title") == "1: [0] charge — Set-up Move"
    assert 'tac make their Set-up Move of 3.0"' in page.inner_text(f"{panel} .lines")
    assert page.locator(f'{panel} svg [data-layer="paths"] polyline').count() == 3  # a1, a2, a3 each 3"
    page.click("#next")
    assert page.inner_text(f"{panel} .step-title") == "2: [0] charge — volley"
    die = page.locator(f"{panel} .die.miss")
    assert die.count() == 1 and die.get_attribute("title") == "needs 5+: fails"
    page.click("#next")
    assert page.inner_text(f"{panel} .step-title") == "3: [0] charge — charge move"
    assert "tac charge trt: 4.5\" needed (needs 2+), rolled 2 and 4, kept 4: success" in page.inner_text(f"{panel} .lines")
    assert page.locator(f"{panel} .die.dropped").count() == 1 and page.locator(f"{panel} .die.hit").count() == 1
    page.screenshot(path=str(tmp_path / "viewer-heresy-charge.png"))
    page.click("#prev")
    page.click("#prev")
    assert page.inner_text(f"{panel} .step-title") == "1: [0] charge — Set-up Move"
    assert errors == []
    page.close()


def test_viewer_without_javascript(browser, heresy_html, tmp_path):
    """JavaScript off: every step's sentences are on the page, and the final board."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1400, "height": 950})
    page = context.new_page()
    page.goto(heresy_html.as_uri())
    titles = page.locator("section.step .step-title")
    assert titles.count() == 8 and all(titles.nth(k).is_visible() for k in range(8))
    boards = page.locator("section.step > div.board")
    assert [boards.nth(k).is_visible() for k in range(8)] == [False] * 7 + [True]
    assert page.locator("section.step.final svg [data-model]").count() > 0
    assert page.is_visible("text=tac pile in: a2 1.98\" into base contact")
    assert not page.is_visible("nav.controls")
    page.screenshot(path=str(tmp_path / "viewer-no-js.png"), full_page=True)
    context.close()
