"""Undo at a solo or hotseat table (``Table.undo``): exact, and never past chance.

Undo truncates the record and replays what is left, so the position after an
undo must be the very position before the decision (same digest), and playing on
from there must give the same record as a game where the decision was never
taken back. Each real game is played by a seeded walker through its legal
actions, with every seat a person (hotseat), so every decision is undoable.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coldwater.core import record
from coldwater.core.errors import IllegalAction
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE
from coldwater.net.play.table import Seat, SeatKind, Table, Undone, resume

PLAYERS = {"crown": 2, "fisheries": 2, "aquatica": 2}
PLIES = 160


def people(n: int) -> list[Seat]:
    return [Seat(SeatKind.PERSON, f"P{i + 1}") for i in range(n)]


def step(t: Table, rng: Rng) -> None:
    if t.current == CHANCE:
        t.apply(CHANCE, t.state.sample_chance())
    else:
        t.submit(rng.choice(t.state.legal()))


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_undo_then_replay_matches_the_straight_line(name: str, tmp_path: Path) -> None:
    straight = Table.new(name, people(PLAYERS[name]), seed=11, save_path=tmp_path / "a.json")
    undoing = Table.new(name, people(PLAYERS[name]), seed=11, save_path=tmp_path / "b.json")
    events: list[object] = []
    undoing.subscribe(events.append)
    r1, r2, noise = Rng("walk"), Rng("walk"), Rng("noise")
    undone = 0
    for _ in range(PLIES):
        if straight.state.is_over:
            break
        seat = straight.current
        detour = noise.choice(undoing.state.legal()) if seat != CHANCE else None
        trial = undoing.state.clone()
        if detour is not None:
            trial.apply(detour)
        if detour is not None and trial.current == seat:  # undo works within one's own turn
            # Take a different decision first, then take it back.
            before = undoing.state.digest()
            n = len(undoing.record.entries)
            undoing.submit(detour)
            undoing.undo()
            undone += 1
            assert undoing.state.digest() == before
            assert len(undoing.record.entries) == n
            assert isinstance(events[-1], Undone) and events[-1].ply == n
        step(straight, r1)
        step(undoing, r2)
        assert undoing.state.digest() == straight.state.digest()
    assert undone > 10
    assert record.dumps(undoing.record) == record.dumps(straight.record)
    # The save was rewritten at the undo: resuming it gives the same position.
    assert resume(tmp_path / "b.json").state.digest() == straight.state.digest()


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_undo_is_refused_across_a_chance_outcome(name: str, tmp_path: Path) -> None:
    t = Table.new(name, people(PLAYERS[name]), seed=5, save_path=tmp_path / "g.json")
    rng = Rng("walk")
    refused = 0
    for _ in range(PLIES):
        if t.state.is_over:
            break
        if t.current is not None and t.current >= 0 and t.record.entries and t.record.entries[-1].seat == CHANCE:
            digest, n = t.state.digest(), len(t.record.entries)
            with pytest.raises(IllegalAction, match="draw"):
                t.undo()
            assert t.state.digest() == digest and len(t.record.entries) == n  # nothing changed
            refused += 1
        step(t, rng)
    assert refused > 0


def test_undo_refuses_another_players_move_and_bots(tmp_path: Path) -> None:
    from tests.toygame import GAME, Hold, Roll

    t = Table.new(
        GAME, [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.PERSON, "Bob")], seed=3, save_path=tmp_path / "g.json"
    )
    while t.current == CHANCE:
        t.apply(CHANCE, t.state.sample_chance())
    with pytest.raises(IllegalAction):
        t.undo()  # only chance so far
    first = t.current
    assert first is not None
    t.submit(Hold())  # ends Ann's turn in the toy game: Bob is next
    while t.current == CHANCE:
        t.apply(CHANCE, t.state.sample_chance())
    if t.current != first:
        with pytest.raises(IllegalAction, match="not yours|draw"):
            t.undo()
    bot = Table.new(
        GAME,
        [Seat(SeatKind.BOT, "Bot", bot="random"), Seat(SeatKind.PERSON, "Ann")],
        seed=3,
        save_path=tmp_path / "h.json",
    )
    while bot.current == CHANCE:
        bot.apply(CHANCE, bot.state.sample_chance())
    if bot.current == 0:
        bot.apply(0, Roll())
        with pytest.raises(IllegalAction):
            bot.undo()  # a bot's seat: never undone


def test_undo_with_nothing_played_is_refused(tmp_path: Path) -> None:
    t = Table.new("crown", people(2), seed=1, save_path=tmp_path / "g.json")
    if t.current != CHANCE and not t.record.entries:
        with pytest.raises(IllegalAction, match="nothing"):
            t.undo()
