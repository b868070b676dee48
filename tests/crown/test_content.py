"""The card data file: schema, cross-field checks, hash, and loading a person's own file."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from coldwater.core.crown.game import GAME
from coldwater.core.errors import ContentError


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


def test_with_content_loads_a_persons_file(tmp_path: Path) -> None:
    doc = _raw()
    doc["stand_in"] = False
    doc["source"] = "my printed copy"
    doc["fish"][0]["time"] = "6:01"
    g = GAME.with_content(_write(tmp_path, doc))
    assert g.content_hash != GAME.content_hash and not g.stand_in
    s = g.new(2, seed=1)
    assert type(s).TABLES.time[1] == 361 and type(GAME.new(2, seed=1)).TABLES.time[1] != 361
    assert type(s.clone()) is type(s) and type(g.from_text(s.to_text())) is type(s)
    # The same file gives the same hash.
    assert GAME.with_content(_write(tmp_path, doc)).content_hash == g.content_hash


@pytest.mark.parametrize("path,value,message", [
    (("fish", 12, "weight"), 99, r"fish\[12\] \(card 13, john_dory\)\.weight: 99 lb is outside"),
    (("fish", 3, "tag"), "purple", r"fish\[3\] \(card 4, wrasse\)\.tag"),
    (("fish", 5, "time"), "25:00", r"fish\[5\] \(card 6, mackerel\)\.time"),
    (("fish", 5, "time"), "8:39", r"also on card 1"),
    (("fish", 7, "species"), "cod", r"fish\[7\] \(card 8\)\.species: unknown species 'cod'"),
    (("master_angler", 2, "spots"), ["red", "red", "blue"], r"master_angler\[2\] \(card MA03\)\.spots: a colour repeats"),
    (("master_angler", 2, "spots"), ["red", "pink", "blue"], r"master_angler\[2\]"),
    (("trophies", "shore"), [2, 3, 4, 5], r"trophies\.shore: list the stack from highest"),
    (("tag_colours",), ["red", "red", "yellow", "green", "blue"], r"tag_colours"),
    (("fish", 0, "weight"), "heavy", r"fish\[0\]\.weight"),
])
def test_errors_name_file_card_and_field(tmp_path: Path, path: tuple[Any, ...], value: Any, message: str) -> None:
    doc = _raw()
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    f = _write(tmp_path, doc)
    with pytest.raises(ContentError, match=message) as e:
        GAME.with_content(f)
    assert str(f) in str(e.value)


def test_missing_file_is_a_content_error(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot read"):
        GAME.with_content(tmp_path / "nope.json")


def test_unknown_field_and_bad_json_are_refused(tmp_path: Path) -> None:
    doc = _raw()
    doc["fish"][0]["colour"] = "red"
    with pytest.raises(ContentError, match="colour"):
        GAME.with_content(_write(tmp_path, doc))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ContentError, match="not valid JSON"):
        GAME.with_content(bad)


def test_wrong_card_counts_are_refused(tmp_path: Path) -> None:
    doc = _raw()
    doc["fish"][59]["species"] = "perch"
    doc["fish"][59]["weight"] = 1
    with pytest.raises(ContentError, match="5 perch cards, the file has 6"):
        GAME.with_content(_write(tmp_path, doc))
