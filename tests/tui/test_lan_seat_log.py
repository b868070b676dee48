"""Every seat's log at a LAN table reads as the watcher's (#29 item 5).

At a fair-dealer table a seat's view is changed in place by each step, so a view the log kept
"from before the step" was the view after it: the seats' logs said "places a 0" and "Host: Guest
flips…" while the watcher's, whose view is a new object each step, was right. The LanTable now
hands out copies and names the view each step was made from; this plays whole games on loopback
(host and seat by bots, a watcher) and compares, step by step, what each log writes.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from coldwater import net
from coldwater.core import games
from coldwater.core.state import CHANCE
from coldwater.net.identity import Identity
from coldwater.net.play.table import Applied
from coldwater.tui.lantable import LanTable
from coldwater.tui.screens.table import with_names


class Log:
    """What a table screen's log writes for each step: (seat, line) by ply, from the view before it."""

    def __init__(self, lan: LanTable) -> None:
        self.lan = lan
        self.lines: dict[int, tuple[int, str]] = {}
        self.unchanged = 0
        self.kept = lan.view(lan.my_seat)  # as the screen keeps one before each step
        lan.subscribe(self.on_event)

    def on_event(self, event: Any) -> None:
        if not isinstance(event, Applied):
            return
        # The view the step was made from, on the event (TableScreen._on_event), else the one kept before it.
        before = event.before if event.before is not None else self.kept
        if self.kept.ply == event.ply - 1:
            self.unchanged += 1  # a view taken before the step still shows the position before it
        self.kept = self.lan.view(self.lan.my_seat)
        if before.ply != event.ply - 1 or event.seat == CHANCE or event.action == "(sealed)":
            return
        action = self.lan.game.parse_action(event.action)
        names = [s.name for s in self.lan.seats]
        self.lines[event.ply] = (event.seat, with_names(before.describe(action), names))


@pytest.mark.parametrize("game_name", ["crown", "aquatica"])
async def test_each_seat_logs_every_move_as_the_watcher_does(game_name: str, tmp_path: Path) -> None:
    game = games.get(game_name)
    host = await net.open_table(
        game,
        name="Pond",
        seats=["host", "open"],
        chooser=net.bot_chooser(game),
        host_name="Host",
        bind="127.0.0.1",
        advertise=False,
        auto_start=False,
        save_dir=tmp_path / "h",
        identity=Identity.generate(),
    )
    assert host.info.dealer == "fair"  # where a seat's view is changed in place
    run = asyncio.ensure_future(host.run())
    peer = await net.join_table(
        f"127.0.0.1:{host.port}",
        name="Guest",
        identity=Identity.generate(),
        chooser=net.bot_chooser(game),
        bind="127.0.0.1",
        save_dir=tmp_path / "p",
    )
    watcher = await net.watch_table(
        f"127.0.0.1:{host.port}", name="Kim", identity=Identity.generate(), save_dir=tmp_path / "w"
    )
    tasks = [asyncio.ensure_future(peer.run()), asyncio.ensure_future(watcher.run())]
    logs: list[Log] = []
    try:

        async def until(cond: Any, what: str) -> None:
            for _ in range(2000):
                if cond():
                    return
                await asyncio.sleep(0.01)
            raise AssertionError(f"timed out waiting for {what}")

        host.start_game()  # once the seat is ready; the logs start with the first step all three hear
        await until(
            lambda: watcher.state is not None and peer.state is not None and host.fair_host.fair is not None,
            "the game under way everywhere",
        )
        logs = [Log(LanTable(host)), Log(LanTable(peer)), Log(LanTable(watcher))]
        await asyncio.wait_for(asyncio.gather(run, *tasks), 240)
    finally:
        for t in (run, *tasks):
            t.cancel()
        await peer.close()
        await watcher.close()
        await host.close()
    host_log, seat_log, watch_log = logs
    assert len(watch_log.lines) > 20, "the watcher saw the game"
    for seat in (host_log, seat_log):
        common = sorted(set(seat.lines) & set(watch_log.lines))
        assert len(common) > 20, "the seat kept no view from before its steps (the live view changed under it)"
        for ply in common:
            assert seat.lines[ply] == watch_log.lines[ply], (ply, seat.lines[ply], watch_log.lines[ply])
        assert seat.unchanged > 20
    assert not any(" a 0 " in line for _, line in seat_log.lines.values())
