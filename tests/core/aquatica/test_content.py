"""The content files: counts, stand-in marks, validation errors, a person's own data."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from coldwater.core.aquatica.game import GAME
from coldwater.core.errors import ContentError
from coldwater.net.play.files import read_content

DATA = resources.files("coldwater.core.aquatica").joinpath("data")


def _raw(name: str) -> dict:
    return json.loads(DATA.joinpath(f"{name}.json").read_text())


def test_packaged_content_counts_and_marks() -> None:
    c = GAME.deck.content
    assert len(c.characters.starting) == 6 and len(c.characters.ocean) == 15
    assert sum(x.expansion == "cold_waters" for x in c.characters.ocean) == 6
    assert sum(bool(x.delayed) for x in c.characters.ocean) >= 3
    names = {x.name for x in c.characters.ocean}
    assert {"The Grabber", "Mantas Leader", "Healer", "Meg", "Researcher", "Big Bad Walrus", "Sealord"} <= names
    assert len(c.kings.kings) == 11 and {k.name for k in c.kings.kings if k.setup_discard} == {"Fancelot", "Herbert"}
    assert len(c.locations.locations) == 70
    assert len(c.mantas.trained) == 4 and len(c.mantas.wild) == 37
    assert len(c.tribes.tribes) == 20 and {"Red Thunder", "Spirit Hunters"} <= {t.name for t in c.tribes.tribes}
    assert sum(g.expansion == "cold_waters" for t in c.goals.tokens for g in (t.a, t.b)) == 4
    frosty = [x for x in c.locations.locations if x.type == "frosty"]
    ops = {e.op for x in frosty for e in x.depths}
    assert {"opp_flip", "copy"} <= ops
    for part in ("characters", "kings", "locations", "mantas", "tribes", "goals"):
        raw = _raw(part)
        assert raw["stand_in"] is True and raw["source"]


def test_content_hash_is_stable_and_sha256() -> None:
    assert len(GAME.content_hash) == 64
    assert GAME.with_content(read_content(Path(str(DATA)))).content_hash == GAME.content_hash


def test_schema_error_names_file_card_and_field(tmp_path: Path) -> None:
    raw = _raw("locations")
    raw["locations"][12]["pp"] = "lots"
    f = tmp_path / "locations.json"
    f.write_text(json.dumps(raw))
    with pytest.raises(ContentError) as e:
        GAME.with_content(read_content(f))
    msg = str(e.value)
    assert "locations.json" in msg and "locations[12]" in msg and "pp" in msg


def test_cross_field_error_names_file_card_and_field(tmp_path: Path) -> None:
    raw = _raw("characters")
    raw["ocean"][3]["effects"].append({"op": "teleport"})
    (tmp_path / "characters.json").write_text(json.dumps(raw))
    with pytest.raises(ContentError) as e:
        GAME.with_content(read_content(tmp_path))
    msg = str(e.value)
    assert "characters.json" in msg and "'Meg'" in msg and "effects" in msg and "teleport" in msg


@pytest.mark.parametrize(
    "edit,words",
    [
        (lambda r: r["locations"][0].update(type="lava"), "type"),
        (lambda r: r["locations"][5]["depths"].insert(0, {"op": "empty"}), "empty"),
        (lambda r: r["locations"][3]["depths"].append({"op": "raise"}), "n between 1 and 9"),
        (lambda r: r["locations"].pop(), "14 Locations"),
    ],
)
def test_more_malformed_locations(tmp_path: Path, edit, words: str) -> None:
    raw = _raw("locations")
    edit(raw)
    f = tmp_path / "locations.json"
    f.write_text(json.dumps(raw))
    with pytest.raises(ContentError, match=words):
        GAME.with_content(read_content(f))


def test_a_file_with_an_unknown_name_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "cards.json"
    f.write_text("{}")
    with pytest.raises(ContentError, match="file name"):
        GAME.with_content(read_content(f))


def test_a_missing_path_or_an_empty_folder_is_refused(tmp_path: Path) -> None:
    # A typo in a path must not quietly play the stand-in.
    with pytest.raises(ContentError, match="no such file or folder"):
        GAME.with_content(read_content(tmp_path / "nowhere"))
    with pytest.raises(ContentError, match="none of characters.json"):
        GAME.with_content(read_content(tmp_path))


def test_own_content_changes_the_hash_and_plays(tmp_path: Path) -> None:
    raw = _raw("kings")
    raw["kings"][0]["effects"] = [{"op": "coins", "n": 4}, {"op": "buy"}]
    (tmp_path / "kings.json").write_text(json.dumps(raw))
    g = GAME.with_content(read_content(tmp_path))
    assert g.content_hash != GAME.content_hash
    s = g.new(2, seed=3)
    assert g.deck.char_effs[g.deck.king_id(1)][0].n == 4
    from coldwater.core.bots import RandomBot
    from coldwater.core.rng import Rng
    from coldwater.core.simulate import play_out

    play_out(s, [RandomBot(), RandomBot()], Rng(1))
    assert s.is_over
