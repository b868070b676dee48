"""The engine contract: registry, options, notation, text form, views, messages, records."""

from __future__ import annotations

import pytest

from coldwater.core import games, record
from coldwater.core.crown.actions import CODEC, _all_actions
from coldwater.core.crown.game import GAME
from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE
from coldwater.net.play import records

from .helpers import started


def test_registry_and_game_object() -> None:
    g = games.get("crown")
    assert g is GAME and g.min_players == 1 and g.max_players == 4
    assert g.bots == ("random", "easy", "normal", "hard", "greedy")
    with pytest.raises(ValueError):
        g.new(5)
    with pytest.raises(ValueError, match="bad Coldwater Crown options"):
        g.new(2, options={"no_tag": True})
    assert g.new(2, options={"no_tags": True}).data.no_tags


def test_every_action_notation_round_trips() -> None:
    for a in _all_actions():
        assert CODEC.parse(str(a)) == a
    for bad in ("catch 4 sea 4", "place", "submit pike x", "white maybe", "fly"):
        with pytest.raises(NotationError):
            CODEC.parse(bad)


def test_refused_actions_leave_the_state_unchanged_with_a_reason() -> None:
    s = started(2)
    before = s.to_text()
    for junk in [
        "place port",
        None,
        7,
        CODEC.parse("fill 3"),
        CODEC.parse("bait red"),
        CODEC.parse("end"),
        CODEC.parse("remove red"),
        CODEC.parse("submit pike 1"),
        CODEC.parse("zone6"),
    ]:
        with pytest.raises(IllegalAction) as e:
            s.apply(junk)  # type: ignore[arg-type]
        assert str(e.value)
        assert s.to_text() == before


def test_why_illegal_messages_are_specific() -> None:
    s = started(2)
    assert "Port action" in s.why_illegal(CODEC.parse("fill 3"))
    assert "Step 2" in s.why_illegal(CODEC.parse("remove red"))
    assert "chance outcome" in s.why_illegal(CODEC.parse("bait red"))
    assert "end of the game" in s.why_illegal(CODEC.parse("submit pike 1"))


def test_describe_gives_words_without_secrets() -> None:
    s = GAME.new(2, seed="d")
    lines = []
    while s.current == CHANCE:
        a = s.sample_chance()
        lines.append(s.describe(a))
        s.apply(a)
    assert any("Tag tile is" in x for x in lines) and any("deck now shows a" in x for x in lines)
    assert any("draws a tackle piece" in x for x in lines)
    assert not any(k in x for x in lines for k in ("rod", "lure", "reel", " line"))
    assert s.describe(CODEC.parse("place port")) == "Seat 1 places a 1 on the port space"


def test_view_legal_equals_legal_on_that_seats_turn() -> None:
    s = started(3)
    assert s.view(0).legal() == s.legal()
    assert s.view(0).seed is None


def test_record_replay_reproduces_digests(tmp_path) -> None:
    s = GAME.new(2, seed="rec")
    rec = record.start(GAME, s)
    bots = [GAME.bot("greedy"), GAME.bot("random")]
    rng = Rng("rec")
    while not s.is_over:
        cur = s.current
        a = s.sample_chance() if cur == CHANCE else bots[cur].choose(s.view(cur), rng.fork(s.ply))
        s.apply(a)
        record.append(rec, cur, a, s)
    path = tmp_path / "crown.json"
    records.save(rec, path)
    assert record.replay(records.load(path)).digest() == s.digest()


def test_bots_are_deterministic_given_their_rng() -> None:
    for name in GAME.bots:
        s = started(4, seed="bots")
        b = GAME.bot(name)
        if hasattr(b, "max_seconds"):
            b.max_seconds = float("inf")  # the search's clock cap is a safety net; the budget decides
        v = s.view(0)
        assert b.choose(v, Rng(3)) == b.choose(v, Rng(3))
