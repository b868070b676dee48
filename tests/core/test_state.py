"""The shared State contract, notation and records, exercised on a toy game."""

from __future__ import annotations

import msgspec
import pytest

from coldwater.core import record
from coldwater.core.bots import RandomBot
from coldwater.core.errors import IllegalAction, NotationError, RecordError
from coldwater.core.notation import Action, Codec
from coldwater.core.rng import Rng
from coldwater.core.simulate import play_out
from coldwater.core.state import CHANCE
from coldwater.net.play import records

from ..toygame import GAME, Deal, Die, Hold, Roll


class Move(Action, frozen=True, tag="move"):
    piece: str
    to: tuple[int, ...]
    fast: bool = False
    note: str | None = None


def test_notation_round_trips_and_drops_default_tail() -> None:
    codec = Codec([Move, Roll])
    m = Move("ship", (3, 4))
    assert str(m) == "move ship 3,4"
    assert codec.parse(str(m)) == m
    m2 = Move("ship", (), True, "x")
    assert str(m2) == "move ship () y x"
    assert codec.parse(str(m2)) == m2


@pytest.mark.parametrize("bad", ["", "fly", "move", "move ship 3,x", "move ship 1 maybe", "move a 1 y z extra"])
def test_notation_refuses_bad_text(bad: str) -> None:
    with pytest.raises(NotationError):
        Codec([Move]).parse(bad)


def test_apply_refuses_illegal_and_changes_nothing() -> None:
    s = GAME.new(2, seed=1)
    assert s.current == CHANCE
    before = s.to_text()
    for junk in [Roll(), Die(3), Deal(1, 1), "roll", None, 42]:
        with pytest.raises(IllegalAction):
            s.apply(junk)  # type: ignore[arg-type]
        assert s.to_text() == before


def test_views_hide_secrets_and_round_trip() -> None:
    s = GAME.new(3, seed=2)
    while s.current == CHANCE:
        s.apply(s.sample_chance())
    v = s.view(0)
    assert v.data.secret[0] == s.data.secret[0]
    assert v.data.secret[1] is None and v.data.secret[2] is None
    assert v.seed is None
    t = s.to_text()
    assert GAME.from_text(t) == s and GAME.from_text(t).to_text() == t
    c = s.clone()
    c.apply(Hold())
    assert c != s and c.digest() != s.digest()


def test_record_replays_and_names_the_first_bad_entry(tmp_path) -> None:
    s = GAME.new(2, seed="r")
    rec = record.start(GAME, s)
    bots = [RandomBot(), RandomBot()]
    rng = Rng("bots")
    while s.current is not None:
        cur = s.current
        a = s.sample_chance() if cur == CHANCE else bots[cur].choose(s.view(cur), rng)
        s.apply(a)
        record.append(rec, cur, a, s)
    path = tmp_path / "game.json"
    records.save(rec, path)
    again = records.load(path)
    assert record.replay(again, GAME).digest() == s.digest()

    # Tamper with one action in the middle: the replay names that entry.
    k = len(again.entries) // 2
    bad = msgspec.structs.replace(again.entries[k], action="hold" if again.entries[k].action != "hold" else "roll")
    again.entries[k] = bad
    with pytest.raises(RecordError, match=f"entry {k + 1}"):
        record.replay(again, GAME)
    with pytest.raises(RecordError):
        record.loads(b"{not json")


def test_play_out_is_deterministic() -> None:
    a = play_out(GAME.new(3, seed=5), [RandomBot()] * 3, Rng(1))
    b = play_out(GAME.new(3, seed=5), [RandomBot()] * 3, Rng(1))
    assert a.digest() == b.digest() and a.is_over


def test_a_game_from_its_module_path_is_the_registered_one() -> None:
    """`--game-module` (the LAN tools' test hook) and the registry load a game the same way."""
    from coldwater.core import games

    for name in games.names():
        assert games.from_module(type(games.get(name)).__module__) is games.get(name)
    with pytest.raises(ModuleNotFoundError):
        games.from_module("coldwater.core.no_such_game")
