"""The table layer: seats, events, autosave and resume, on the toy game."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from coldwater.core.errors import IllegalAction
from coldwater.net.play.files import read_content
from coldwater.net.play.table import Applied, GameOver, SaveError, Seat, SeatKind, Table, list_saves, resume
from tests.toygame import GAME, Hold, Roll

PERSON = Seat(SeatKind.PERSON, "Ann")
BOT = Seat(SeatKind.BOT, "Bot", bot="random")


async def test_bots_play_to_the_persons_turn_and_events_flow(tmp_path: Path) -> None:
    t = Table.new(GAME, [PERSON, BOT], seed=3, save_path=tmp_path / "g.json")
    events: list[object] = []
    t.subscribe(events.append)
    await t.advance()
    assert t.waiting_for_person and t.current == 0
    assert any(isinstance(e, Applied) and e.seat == -1 for e in events)  # the deal
    with pytest.raises(IllegalAction):
        t.apply(1, Hold())  # not seat 1's turn
    while not t.state.is_over:
        t.submit(Hold() if t.state.data.pot >= 6 else Roll())
        await t.advance()
    assert isinstance(events[-1], GameOver)


async def test_autosave_and_resume_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    t = Table.new(GAME, [PERSON, BOT], seed=4, save_path=path)
    await t.advance()
    t.submit(Roll())
    await t.advance()
    digest, ply = t.state.digest(), t.state.ply
    back = resume(path, game=GAME)
    assert back.state.digest() == digest and back.state.ply == ply
    assert back.seats == t.seats


@pytest.mark.parametrize("damage", ["garbage", "format", "tamper"])
def test_bad_saves_are_reported_and_set_aside_untouched(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "g.json"
    t = Table.new(GAME, [PERSON, PERSON], seed=5, save_path=path)
    while t.current == -1:
        t.apply(-1, t.state.sample_chance())
    t.submit(Roll())
    raw = path.read_bytes()
    if damage == "garbage":
        raw = b"\x00not json"
    elif damage == "format":
        d = json.loads(raw)
        d["format"] = 99
        raw = json.dumps(d).encode()
    else:
        d = json.loads(raw)
        d["record"]["entries"][1][1] = "deal 1 3" if d["record"]["entries"][1][1] != "deal 1 3" else "deal 1 2"
        raw = json.dumps(d).encode()
    path.write_bytes(raw)
    with pytest.raises(SaveError) as err:
        resume(path, game=GAME)
    assert "kept aside" in str(err.value)
    assert not path.exists()
    kept = tmp_path / "g.json.unreadable"
    assert kept.read_bytes() == raw
    if damage == "format":
        assert "incompatible version" in str(err.value)
    if damage == "tamper":
        assert "entry 2" in str(err.value)


def test_list_saves_reports_problems(tmp_path: Path) -> None:
    Table.new(GAME, [PERSON, BOT], seed=1, save_path=tmp_path / "a.json")
    (tmp_path / "b.json").write_text("{}")
    infos = {Path(i.path).name: i for i in list_saves(tmp_path)}
    assert infos["a.json"].problem is None and infos["a.json"].game == "toy"
    assert infos["b.json"].problem is not None


def test_unknown_bot_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        Table.new(GAME, [PERSON, Seat(SeatKind.BOT, "X", bot="genius")], seed=1, autosave=False)


# ---- a game played with a person's own card data ---------------------------------------
def _own_kings(folder: Path, coins: int = 5) -> Path:
    """A content folder with King 1's coins changed (everything else packaged)."""
    from coldwater.core.aquatica.game import GAME as AQ

    folder.mkdir(parents=True, exist_ok=True)
    raw = json.loads(resources.files("coldwater.core.aquatica").joinpath("data", "kings.json").read_text())
    raw["kings"][0]["effects"][0]["n"] = coins
    (folder / "kings.json").write_text(json.dumps(raw))
    assert AQ.with_content(read_content(folder)).content_hash != AQ.content_hash
    return folder


def _aq_table(tmp_path: Path) -> tuple[Table, Path, Path]:
    from coldwater.core.aquatica.game import GAME as AQ
    from coldwater.net.play.table import ContentRef

    folder = _own_kings(tmp_path / "mine")
    mine = AQ.with_content(read_content(folder))
    path = tmp_path / "saves" / "aq.json"
    t = Table.new(
        mine,
        [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Bot", bot="random")],
        seed=2,
        save_path=path,
        content=ContentRef(str(folder), mine.content_hash),
    )
    while t.current == -1:
        t.apply(-1, t.state.sample_chance())
    return t, path, folder


def test_own_content_is_saved_and_loaded_again_on_resume(tmp_path: Path) -> None:
    from coldwater.core.aquatica.game import GAME as AQ

    t, path, folder = _aq_table(tmp_path)
    saved = json.loads(path.read_text())
    assert saved["content"] == {"path": str(folder), "hash": t.game.content_hash}
    assert t.record.meta["content"] == str(folder)
    for game in (None, AQ):  # the app passes the packaged game; resume loads the card data itself
        back = resume(path, game=game)
        assert back.game.content_hash == t.game.content_hash and back.content == t.content
        assert back.state.digest() == t.state.digest()
    assert [i.content for i in list_saves(path.parent)] == [str(folder)]


@pytest.mark.parametrize("change", ["gone", "edited", "broken"])
def test_resume_refuses_missing_or_changed_content_and_keeps_the_save(tmp_path: Path, change: str) -> None:
    from coldwater.net.play.table import ContentUnavailable

    t, path, folder = _aq_table(tmp_path)
    kings = folder / "kings.json"
    if change == "gone":
        kings.unlink()
        folder.rmdir()
    elif change == "edited":
        _own_kings(folder, coins=6)
    else:
        kings.write_text("{not json")
    before = path.read_bytes()
    with pytest.raises(ContentUnavailable) as err:
        resume(path)
    msg = str(err.value)
    assert "aq.json cannot be resumed" in msg and "The save is kept" in msg
    assert {"gone": "is gone", "edited": "has changed", "broken": "no longer loads"}[change] in msg
    assert path.read_bytes() == before and not list(path.parent.glob("*.unreadable*"))


def test_saves_from_before_the_content_field_still_load(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    Table.new(GAME, [PERSON, BOT], seed=1, save_path=path)
    d = json.loads(path.read_text())
    del d["content"]
    path.write_text(json.dumps(d))
    assert resume(path, game=GAME).content is None


async def test_each_save_reaches_the_disk_before_it_replaces_the_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The durable path the app tests skip (tests/tui/conftest.py's no_fsync): every
    save is flushed with fsync while it is still the temporary file, then renamed."""
    import os

    from coldwater.net.play import files

    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync")
        real_fsync(fd)

    def replace(src: str, dst: str | os.PathLike[str]) -> None:
        assert Path(src).name.startswith("g.json.") and Path(src).exists()
        events.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "fsync", fsync)
    monkeypatch.setattr(files.os, "replace", replace)
    t = Table.new(GAME, [PERSON, BOT], seed=3, save_path=tmp_path / "g.json")
    await t.advance()
    t.submit(Roll())
    assert events and events == ["fsync", "replace"] * (len(events) // 2)
    assert len(events) >= 4  # the new game's save and the move's
    assert resume(tmp_path / "g.json", game=GAME).state.ply == t.state.ply
