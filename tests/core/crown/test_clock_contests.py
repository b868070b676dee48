"""The contests after Crown's last turn are nobody's turn (issue #30): every seat answers
in turn order, and the answers keep the last turn's round and turn instead of counting
up to two more rounds that were never played."""

from __future__ import annotations

import asyncio

from coldwater.net.play.table import Seat, SeatKind, Table


def test_contest_answers_are_not_turns() -> None:
    async def whole_game() -> Table:
        seats = [Seat(SeatKind.BOT, f"B{n}", bot="random") for n in range(3)]
        table = Table.new("crown", seats, seed="contests")
        while not table.state.is_over:
            await table.step()
        return table

    table = asyncio.run(whole_game())
    assert table.record is not None
    entries = table.record.entries
    first = next(n for n, e in enumerate(entries) if e.action.startswith("submit"))
    submits = [e for e in entries[first:] if e.seat >= 0]
    assert len({e.seat for e in submits}) == 3, "every seat answered the contests"
    last_turn = entries[first - 1].clock
    assert last_turn is not None and not last_turn.setup
    # Every answer, and the end, keep the last turn's round and turn.
    assert {(e.clock.round, e.clock.turn) for e in entries[first:] if e.clock} == {(last_turn.round, last_turn.turn)}
