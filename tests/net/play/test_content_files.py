"""A person's own card data is read by net (`net.play.files.read_content`) and decoded by core,
which reads no file itself: bounds, folders and the errors that name the path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coldwater.core import games
from coldwater.core.content import ContentFiles
from coldwater.core.errors import ContentError
from coldwater.net.play import files
from coldwater.net.play.files import read_content

CROWN = games.get("crown")


def _crown_doc(tmp: Path, name: str = "crown.json") -> Path:
    from importlib import resources

    raw = json.loads(resources.files("coldwater.core.crown").joinpath("data", "crown.json").read_bytes())
    raw["source"] = "my own copy"
    p = tmp / name
    p.write_text(json.dumps(raw))
    return p


def test_a_file_and_a_folder_holding_it_load_the_same(tmp_path: Path) -> None:
    one = read_content(_crown_doc(tmp_path))
    assert not one.folder and list(one.files) == ["crown.json"]
    (tmp_path / "notes.txt").write_text("not card data")  # only .json files are read
    folder = read_content(tmp_path)
    assert folder.folder and list(folder.files) == ["crown.json"]
    assert CROWN.with_content(one).content_hash == CROWN.with_content(folder).content_hash != CROWN.content_hash


def test_a_single_file_game_given_the_wrong_folder_says_what_it_looked_for(tmp_path: Path) -> None:
    _crown_doc(tmp_path, "other.json")
    with pytest.raises(ContentError, match=r"no crown\.json in this folder"):
        CROWN.with_content(read_content(tmp_path))
    # Core needs nothing but the bytes: the same refusal from a hand-made ContentFiles.
    with pytest.raises(ContentError, match="no crown.json"):
        CROWN.with_content(ContentFiles("x", {"a.json": b"{}", "b.json": b"{}"}, folder=True))


def test_reading_is_bounded_and_errors_name_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_CONTENT_FILE", 100)
    big = tmp_path / "crown.json"
    big.write_bytes(b" " * 101)
    with pytest.raises(ContentError, match=r"crown\.json: over"):
        read_content(big)
    monkeypatch.setattr(files, "MAX_CONTENT_FILES", 2)
    for n in range(3):
        (tmp_path / f"{n}.json").write_text("{}")
    with pytest.raises(ContentError, match="at most 2"):
        read_content(tmp_path)
    with pytest.raises(ContentError, match="nowhere: cannot read"):
        read_content(tmp_path / "nowhere")
