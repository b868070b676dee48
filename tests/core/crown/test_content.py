"""The card data file: schema, cross-field checks, hash, and loading a person's own file."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from coldwater.core.crown.game import GAME
from coldwater.core.errors import ContentError
from coldwater.net.play.files import read_content


def _raw() -> dict[str, Any]:
    return json.loads(resources.files("coldwater.core.crown").joinpath("data", "crown.json").read_text())


def _write(tmp_path: Path, doc: dict[str, Any]) -> Path:
    p = tmp_path / "my-crown.json"
    p.write_text(json.dumps(doc))
    return p


def test_shipped_content_is_a_marked_stand_in_consistent_with_the_rulebook() -> None:
    doc = _raw()
    assert doc["stand_in"] is True and doc["source"]
    T = GAME.tables
    assert len(doc["fish"]) == 60 and len(doc["master_angler"]) == 30
    # The rulebook's examples: a 5 lb Sea Trout at 8:32; 5 lb Flounder, 4 lb Wrasse, 5 lb Mackerel.
    assert any(f["species"] == "sea_trout" and f["weight"] == 5 and f["time"] == "8:32" for f in doc["fish"])
    for sp, w in (("flounder", 5), ("wrasse", 4), ("mackerel", 5)):
        assert any(f["species"] == sp and f["weight"] == w for f in doc["fish"])
    # Every Mystery Weight is reachable on at least 5 cards.
    for w in T.mw_tiles:
        assert sum(1 for c in range(1, 61) if T.weight[c] == w) >= 5
    assert len(GAME.content_hash) == 64 and GAME.stand_in


PACKAGED_HASH = "4521f267ed6f63ea462db616f7eec1d001fe6c6f833c85e625110024f1179c76"
"""The shipped cards' hash: peers and saved records compare it, so a change to
crown.json is deliberate (update this with the data and the component sheet)."""


def test_packaged_content_matches_the_component_sheet() -> None:
    assert GAME.content_hash == PACKAGED_HASH
    # The sheet's two cards that repeat a colour (the rulebook's Lydia needs a Char
    # with two open red spots).
    names = {16: ("char", ["red", "red", "green", "blue"]), 22: ("dogfish", ["purple", "purple", "blue", "black"])}
    for cid, (species, spots) in names.items():
        m = GAME.tables.content.master_angler[cid - 1]
        assert (m.species, list(m.spots)) == (species, spots)
    counts = Counter(s for m in GAME.tables.content.master_angler for s in m.spots)
    assert counts == {"red": 18, "black": 18, "yellow": 18, "blue": 17, "green": 17, "purple": 17}


def test_with_content_loads_a_persons_file(tmp_path: Path) -> None:
    doc = _raw()
    doc["stand_in"] = False
    doc["source"] = "my printed copy"
    doc["fish"][0]["time"] = "6:01"
    g = GAME.with_content(read_content(_write(tmp_path, doc)))
    assert g.content_hash != GAME.content_hash and not g.stand_in
    s = g.new(2, seed=1)
    assert type(s).TABLES.time[1] == 361 and type(GAME.new(2, seed=1)).TABLES.time[1] != 361
    assert type(s.clone()) is type(s) and type(g.from_text(s.to_text())) is type(s)
    # The same file gives the same hash.
    assert GAME.with_content(read_content(_write(tmp_path, doc))).content_hash == g.content_hash


@pytest.mark.parametrize(
    "path,value,message",
    [
        (("fish", 12, "weight"), 99, r"fish\[12\] \(card 13, john_dory\)\.weight: 99 lb is outside"),
        (("fish", 3, "tag"), "purple", r"fish\[3\] \(card 4, wrasse\)\.tag"),
        (("fish", 5, "time"), "25:00", r"fish\[5\] \(card 6, mackerel\)\.time"),
        (("fish", 5, "time"), "8:39", r"also on card 1"),
        (("fish", 7, "species"), "cod", r"fish\[7\] \(card 8\)\.species: unknown species 'cod'"),
        (
            ("master_angler", 2, "spots"),
            ["red", "red", "blue", "blue", "green"],
            r"master_angler\[2\] \(card MA03\)\.spots: a card has 3 or 4",
        ),
        (("master_angler", 2, "spots"), ["red", "pink", "blue"], r"master_angler\[2\]"),
        (("trophies", "shore"), [2, 3, 4, 5], r"trophies\.shore: list the stack from highest"),
        (("tag_colours",), ["red", "red", "yellow", "green", "blue"], r"tag_colours"),
        (("fish", 0, "weight"), "heavy", r"fish\[0\]\.weight"),
    ],
)
def test_errors_name_file_card_and_field(tmp_path: Path, path: tuple[Any, ...], value: Any, message: str) -> None:
    doc = _raw()
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    f = _write(tmp_path, doc)
    with pytest.raises(ContentError, match=message) as e:
        GAME.with_content(read_content(f))
    assert str(f) in str(e.value)


def test_missing_file_is_a_content_error(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot read"):
        GAME.with_content(read_content(tmp_path / "nope.json"))


def test_unknown_field_and_bad_json_are_refused(tmp_path: Path) -> None:
    doc = _raw()
    doc["fish"][0]["colour"] = "red"
    with pytest.raises(ContentError, match="colour"):
        GAME.with_content(read_content(_write(tmp_path, doc)))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ContentError, match="not valid JSON"):
        GAME.with_content(read_content(bad))


def test_wrong_card_counts_are_refused(tmp_path: Path) -> None:
    doc = _raw()
    doc["fish"][59]["species"] = "perch"
    doc["fish"][59]["weight"] = 1
    with pytest.raises(ContentError, match="5 perch cards, the file has 6"):
        GAME.with_content(read_content(_write(tmp_path, doc)))
