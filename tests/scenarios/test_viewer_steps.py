"""What the replay viewer says and draws of each step, checked against the example files'
recorded dice and geometry, worked out by hand (the files' comments show the working)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import shapely

from tapeline.board.render import Layer
from tapeline.scenarios import viewer
from tapeline.scenarios.load import read
from tapeline.scenarios.overlays.steps import state_after, step_layers
from tests.conftest import EXAMPLES

NS = {"s": "http://www.w3.org/2000/svg"}
HERESY = EXAMPLES / "assault-heresy.yaml"


def frames(name: str) -> list[viewer.Frame]:
    return viewer.frames(read(EXAMPLES / name))[0]


def panel(page: str, k: int) -> str:
    return re.search(rf'<section class="step[^"]*" id="panel-{k}".*?</section>', page, re.S).group(0)


def marks(html_text: str) -> list[tuple[int, str]]:
    """Each die of a piece of the page: its value and its mark (``""``: unmarked)."""
    out = []
    for m in re.finditer(r'<span class="die( (\w+))?"[^>]*>(\d+)', html_text):
        out.append((int(m.group(3)), m.group(2) or ""))
    return out


def line_with(html_text: str, start: str) -> str:
    m = re.search(r'<li class="line"[^>]*><span class="sentence">' + re.escape(start) + r".*?</li>(</ul></li>)?", html_text, re.S)
    assert m, f"no line starting {start!r}"
    return m.group(0)


def test_roaches_charge_in_a_sentence():
    """Roaches (Speed 4) need 7" (the file's working): a 3 or more on the D6; the file's die is a 6."""
    f = frames("charge-roaches-7in.yaml")[1]
    assert [line.text for line in f.lines] == ['roaches charge marines: 7.0" needed (needs 3+), rolled 6: success']
    assert f.lines[0].rule == "§8.7.7 Charge"
    page = viewer.page(read(EXAMPLES / "charge-roaches-7in.yaml"))
    line = line_with(panel(page, 1), "roaches charge marines")
    assert "(§8.7.7 Charge)" in line and marks(line) == [(6, "hit")]


def test_a_heresy_charge_is_its_set_up_move_then_its_volley_then_its_charge_move():
    fs = frames("assault-heresy.yaml")
    assert [f.title for f in fs[:5]] == ["set-up", "[0] charge — Set-up Move", "[0] charge — volley",
                                         "[0] charge — charge move", "[1] challenge"]
    setup, volley, move = fs[1], fs[2], fs[3]
    # Set-up Move: M7 + I4 = 11 → 3"; each legionary 3" nearer (5 → 8)
    assert setup.lines[0].text == 'tac make their Set-up Move of 3.0": a1 3.0", a2 3.0", a3 3.0"'
    a1 = ET.fromstring(setup.svg).find(".//s:circle[@class='model'][@data-model='a1']", NS)
    assert (float(a1.get("cx")), float(a1.get("cy"))) == (8, 10)
    # the volley: one Snap Shot hitting on 5+, the die a 3: a miss
    assert [(d.value, d.mark, d.needs) for d in volley.lines[0].rolls[0].dice] == [(3, "miss", "5+")]
    # the charge roll 2D6 discard the lower (2, 4): 4 kept, needs 2+ (1.5" left after 3"): a hit
    charge = [line for line in move.lines if line.kind == "charge"][0]
    assert charge.text == 'tac charge trt: 4.5" needed (needs 2+), rolled 2 and 4, kept 4: success'
    assert [(d.value, d.mark) for d in charge.rolls[0].dice] == [(2, "dropped"), (4, "hit")]
    a1 = ET.fromstring(move.svg).find(".//s:circle[@class='model'][@data-model='a1']", NS)
    assert (float(a1.get("cx")), float(a1.get("cy"))) == (9.5, 10)  # into base contact with t1


def test_fight_dice_marked_against_what_they_needed():
    """[2] fight (the file's working): a2, a3 roll 4 2 to hit on 4+, wound 5 on 4+, t2 saves
    on 3+ with a 2; t2, t3 roll 6 1, wound 3 on 4+."""
    f = [f for f in frames("assault-heresy.yaml") if f.title == "[2] fight"][0]
    loyal, traitor = [line for line in f.lines if line.kind == "strike"]
    assert [[(d.value, d.mark) for d in r.dice] for r in loyal.rolls] == [[(4, "hit"), (2, "miss")], [(5, "hit")], [(2, "miss")]]
    assert [[(d.value, d.mark) for d in r.dice] for r in traitor.rolls] == [[(6, "hit"), (1, "miss")], [(3, "miss")]]
    assert loyal.text.endswith("t2 removed") and loyal.rule == "HH3 §A.7 Fight"


def test_a_panic_check_marks_the_total():
    """[3] resolution: LD 7 − 4 = 3, the dice (2, 3) = 5 > 3: failed."""
    f = [f for f in frames("assault-heresy.yaml") if f.title == "[3] resolution"][0]
    check = [line for line in f.lines if line.kind == "check"][0]
    assert "needs 3 or less on the dice, rolled 2+3=5: failed" in check.text
    assert [d.mark for d in check.rolls[0].dice] == ["", ""] and "total 5" in check.rolls[0].note


def test_a_starcraft_charge_is_drawn_along_its_path_round_the_ruin():
    f = frames("charge-around-wall.yaml")[1]
    root = ET.fromstring(f.svg)
    path = root.find(".//s:g[@data-layer='paths']/s:polyline[@data-path='z1']", NS)
    pts = [tuple(map(float, p.split(","))) for p in path.get("points").split()]
    ruin = shapely.box(12, 8, 13.5, 13)  # the file's ruin: rect [12, 8, 1.5, 5]
    assert pts[0] == (8, 10)  # z1's start
    assert shapely.LineString([pts[0], pts[-1]]).intersects(ruin)  # the straight line goes through it
    assert not shapely.LineString(pts).intersects(ruin.buffer(-1e-6))  # the path goes round
    # at least the 7.5" the file works out by hand to the 1" ring round m1, at most Speed 4 +
    # the kept 6; it ends in base contact with m1 (16, 10): both 32 mm bases
    length = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
    assert 7.5 < length <= 10
    assert math.isclose(math.dist(pts[-1], (16, 10)), 32 / 25.4, abs_tol=1e-3)


def test_a_casualty_is_crossed_where_it_fell():
    """A model that moves and is then removed in the same step: the cross is at the end of its
    move, not where it stood."""
    before = read(HERESY).state
    ev = [{"type": "fall_back", "unit": "trt", "moves": [
              {"model": "t3", "from": [10.5, 8.6], "to": [17.5, 8.6], "length": 7.0, "how": "route",
               "path": [[10.5, 8.6], [14, 7], [17.5, 8.6]]}]},
          {"type": "casualties", "unit": "trt", "models": ["t3"]}]
    after = state_after(before, ev)
    assert not after.on_table("t3")
    layers = {layer.name: layer for layer in step_layers(before, after, ev)}
    cross = [ET.fromstring(e) for e in layers["casualties"].elements]
    assert len(cross) == 2  # one cross: two strokes
    for c in cross:
        (x0, y0), (x1, y1) = [tuple(map(float, p.split(","))) for p in c.get("points").split()]
        assert math.isclose((x0 + x1) / 2, 17.5) and math.isclose((y0 + y1) / 2, 8.6)  # not (10.5, 8.6)
    path = ET.fromstring(layers["paths"].elements[0])
    assert path.get("points") == "10.5,8.6 14,7 17.5,8.6"
    assert isinstance(layers["moved"], Layer)


def test_the_page_reads_without_javascript():
    """Every step's sentences are plain HTML; the final step carries the board shown without
    JavaScript (the others' boards are hidden by CSS only when the script has not run)."""
    page = viewer.page(read(HERESY))
    assert page.count('class="step final"') == 1
    assert "body:not(.js) section.step:not(.final) .board { display: none; }" in page
    assert "<noscript>" in page and "document.body.classList.add('js')" in page
    assert " hidden" not in re.sub(r"<script>.*?</script>", "", page, flags=re.S).split("<main>")[1]


def test_a_run_is_drawn_along_the_path_the_file_gives():
    """charge-run-grass.yaml: m1 runs from (5, 10) 3" up through the Grass to (5, 13), then 1"
    right to (6, 13) — an L, not the straight line from start to end."""
    f = frames("charge-run-grass.yaml")[1]
    path = ET.fromstring(f.svg).find(".//s:g[@data-layer='paths']/s:polyline[@data-path='m1']", NS)
    assert path.get("points") == "5,10 5,13 6,13"
    assert f.lines[0].text.startswith('marines run 4.0"') and f.lines[0].rule == "§8.5.2 Move / §8.7.1 Run"


def test_starcraft_dice_marked_against_what_they_needed():
    """round-zealots-charge.yaml (the file's working): IMPACT (3) 4+ rolls 4 5 6 1 2 3, Armour
    5+ 5 2 1; Psi Blades hit on 3+: 3 4 5 6 1 2 3 6; the Surge Die (4) is a number, unmarked;
    Armour 5+ on the 4 left: 5 6 1 1 (§8.7.4, §11 IMPACT)."""
    fs = frames("round-zealots-charge.yaml")

    def dice(title: str) -> list[list[tuple[int, str, str]]]:
        f = [f for f in fs if f.title == title][0]
        return [[(d.value, d.mark, d.needs) for d in r.dice] for line in f.lines for r in line.rolls]

    h, m = "hit", "miss"
    assert dice("[2] impact") == [[(4, h, "4+"), (5, h, "4+"), (6, h, "4+"), (1, m, "4+"), (2, m, "4+"), (3, m, "4+")],
                                  [(5, h, "5+"), (2, m, "5+"), (1, m, "5+")]]
    assert dice("[8] close_combat") == [[(v, h if v >= 3 else m, "3+") for v in (3, 4, 5, 6, 1, 2, 3, 6)],
                                        [(4, "", "")],
                                        [(5, h, "5+"), (6, h, "5+"), (1, m, "5+"), (1, m, "5+")]]
    page = viewer.page(read(EXAMPLES / "round-zealots-charge.yaml"))
    assert 'title="needs 4+: succeeds"' in page


def test_starcraft_shooting_dice_marked():
    """attack-direct-cover.yaml: C-14 rifles hit on 3+ (12 of 18: the last six are 2 1 2 1 2 1),
    the Surge Die 5 unmarked, Zergling Armour 6+ saves the two 6s of nine."""
    f = frames("attack-direct-cover.yaml")[1]
    rolls = [r for line in f.lines for r in line.rolls]
    assert [r.purpose for r in rolls] == ["to hit", "surge die (D3)", "armour"]
    assert [d.mark for d in rolls[0].dice] == ["hit"] * 12 + ["miss"] * 6
    assert [d.mark for d in rolls[1].dice] == [""]
    assert [d.mark for d in rolls[2].dice] == ["hit", "hit"] + ["miss"] * 7
    assert {d.needs for d in rolls[2].dice} == {"6+"}
