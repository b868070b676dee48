"""The content file: schema, cross-field checks naming file/item/field, hash, own files."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from coldwater.core import games
from coldwater.core.content import content_hash
from coldwater.core.errors import ContentError
from coldwater.core.fisheries.game import GAME, load_default
from coldwater.net.play.files import read_content


def _raw() -> dict:
    return json.loads(resources.files("coldwater.core.fisheries").joinpath("data", "fisheries.json").read_text())


def _write(tmp_path: Path, data: dict) -> Path:
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(data))
    return p


def test_registry_and_stand_in_marking() -> None:
    assert games.get("fisheries") is GAME
    c = load_default()
    assert c.stand_in is True and "stand-in" in c.source.lower()
    assert GAME.bots == ("random", "easy", "normal", "hard", "greedy") and GAME.min_players == GAME.max_players == 2


def test_counts_match_the_rulebook_components() -> None:
    c = load_default()
    assert sum(s.count for s in c.shapes) == 32
    assert len(c.chart_cards) == 6
    assert sum(len(s.cards) for s in c.stacks) == 14 and len(c.stacks) == 6
    assert c.fish_per_colour * len(c.colours) == 24
    flat = "".join(c.board_a)
    assert flat.count("F") == 24 and flat.count("^") == 6 and sum(flat.count(x) for x in "abc") == 6
    assert len(c.variant_islands) == 6 and c.variant_rough == 6


def test_content_hash_is_stable_and_own_files_load(tmp_path: Path) -> None:
    assert GAME.content_hash == content_hash(load_default())
    same = GAME.with_content(read_content(_write(tmp_path, _raw())))
    assert same.content_hash == GAME.content_hash
    data = _raw()
    data["stacks"][3]["cards"][0]["vp"] = 9
    mine = GAME.with_content(read_content(_write(tmp_path, data)))
    assert mine.content_hash != GAME.content_hash
    assert mine.ctx.cards["P09"].vp == 9 and GAME.ctx.cards["P09"].vp == 4
    s = mine.new(2, seed=1)
    assert type(s).CTX is mine.ctx and type(s.clone()).CTX is mine.ctx


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda d: d["stacks"][0]["cards"][0]["requirement"].update(colour="green"),
            "stacks 1c card P01.requirement.colour: unknown colour 'green'",
        ),
        (lambda d: d["stacks"][1]["cards"][0].update(vp="two"), "$.stacks[1].cards[0].vp"),
        (lambda d: d["chart_cards"][0].update(tiles=["2sq", "Z9"]), "chart_cards C1.tiles: unknown tile shape 'Z9'"),
        (lambda d: d["chart_cards"].pop(), "chart_cards: 5 cards, but the game lasts 6 days"),
        (lambda d: d["board_a"].__setitem__(0, "###..F.a.F..F?"), "board_a: row 1 column 14: unknown symbol '?'"),
        (lambda d: d["board_a"].__setitem__(0, "###....a.F..F."), "board_a: 23 fish spaces, but there are 24 fish"),
        (lambda d: d["board_b"].__setitem__(3, "1...^........."), "board_b: row 4 column 5: the B side has no printed"),
        (lambda d: d["shapes"][3].update(cells=[[0, 0], [2, 2]]), "shapes L3.cells"),
        (lambda d: d["stacks"][4]["cards"][0]["action"].update(tile="1sq"), "stacks 3x card P11.action.tile"),
        (lambda d: d.update(surprise=1), "unknown field"),
    ],
)
def test_bad_content_names_file_item_and_field(tmp_path: Path, edit, message: str) -> None:
    data = _raw()
    edit(data)
    path = _write(tmp_path, data)
    with pytest.raises(ContentError) as e:
        GAME.with_content(read_content(path))
    assert str(path) in str(e.value) and message in str(e.value)


def test_missing_or_broken_file(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot read"):
        GAME.with_content(read_content(tmp_path / "nope.json"))
    p = tmp_path / "broken.json"
    p.write_text("{")
    with pytest.raises(ContentError, match="not valid JSON"):
        GAME.with_content(read_content(p))
