"""The deal of the day (tui/serve/deals.py): the same deal for everyone on a server, once a day, a
results board, and others' replays only once your own game of it is done."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest

from coldwater.tui import serve
from coldwater.tui.serve import history
from coldwater.tui.serve.control import Failed, Saved
from coldwater.tui.serve.database import Store
from coldwater.tui.serve.deals import Deals, today
from coldwater.tui.serve.turns import TurnTablesKeeper
from tests.tui.serve.sshclient import MENU, connect, open_app
from tests.tui.serve.test_turns import ANN, BEN, CAT, Clock, keeper


@pytest.fixture(autouse=True)
def quick_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("coldwater.tui.serve.turns.BOT", "random")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "serve.db")
    yield s
    s.close()


async def finish(k: TurnTablesKeeper, me: str, tid: int, rng: random.Random | None = None) -> None:
    """Play `me`'s deal to its end: the first legal choice each time, or `rng`'s."""
    while True:
        pos = k.view(me, tid)
        if pos.info.current < 0:
            return
        await k.move(me, tid, pos.info.ply, rng.choice(pos.legal) if rng else pos.legal[0])


async def test_everyone_gets_the_same_deal_once_a_day_and_the_board_ranks_them(store: Store, tmp_path: Path) -> None:
    clock = Clock()
    k = keeper(store, clock)
    deals = Deals(k, store, "srv1")
    first = {who: await deals.play(who, "crown") for who in (ANN, BEN)}
    a, b = (k.tables[first[w].info.id] for w in (ANN, BEN))
    assert a is not b and a.deal == b.deal == f"crown/solo/{today(clock.now)}"
    assert a.state.digest() == b.state.digest()  # the same deal, dealt the same way
    assert (await deals.play(ANN, "crown")).info.id == a.id  # once a day: back to the same table
    # Another server deals another deal.
    other = Deals(keeper(Store(tmp_path / "other.db"), clock), store, "srv2")
    assert (await other.play(ANN, "crown")).view != first[ANN].view
    await finish(k, ANN, a.id, random.Random(1))
    await finish(k, BEN, b.id, random.Random(2))
    (crown,) = [d for d in deals.boards(CAT) if d.game == "crown"]
    assert crown.mine is None and crown.table == 0 and crown.seed == f"srv1/{a.deal}"
    assert [s.player for s in crown.board] == sorted(
        [ANN, BEN], key=lambda p: -next(x.score for x in crown.board if x.player == p)
    )
    assert crown.board[0].rank == 1 and crown.board[0].score >= crown.board[1].score
    # Cat may not open their games before finishing the same deal; afterwards she may.
    home = tmp_path / "cat"
    assert isinstance(history.replay_of(store, CAT, home, crown.board[0].result), Failed)
    c = k.tables[(await deals.play(CAT, "crown")).info.id]
    await finish(k, CAT, c.id)
    assert isinstance(history.replay_of(store, CAT, home, crown.board[0].result), Saved)
    (crown,) = [d for d in deals.boards(CAT) if d.game == "crown"]
    assert crown.mine is not None and len(crown.board) == 3
    assert all(not r.agreed or len({s.player for s in r.seats if s.player}) == 1 for r in store.results())
    # (a game alone rates nobody: the deals move no ratings)
    from coldwater.tui.serve import ratings

    assert not ratings.rate(store.results()).by_player
    # Tomorrow is another deal.
    clock.now += 86400
    assert (await deals.play(ANN, "crown")).info.id != a.id


async def test_the_bot_seat_of_a_deal_answers_alike_for_everyone(store: Store) -> None:
    k = keeper(store)
    deals = Deals(k, store, "srv1")
    tables = []
    for who in (ANN, BEN):
        pos = await deals.play(who, "fisheries")
        tables.append(k.tables[pos.info.id])
        await finish(k, who, pos.info.id)  # the same choices as the other key
    a, b = tables
    assert a.deal.startswith("fisheries/vs-bot/") and a.bots == [False, True]
    assert a.moves == b.moves and a.state.digest() == b.state.digest()


async def test_a_third_key_plays_the_days_deal_over_ssh_and_sees_the_others_on_the_board(tmp_path: Path) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]
    fps = [serve.key_fingerprint(k.public_data) for k in keys]
    allowed = tmp_path / "allowed"
    allowed.write_bytes(b"".join(k.export_public_key() for k in keys))
    cfg = serve.ServeConfig(port=0, bind="127.0.0.1", host_key=tmp_path / "hk", allow=allowed, advertise=False)
    server = serve.Server(cfg, root=tmp_path / "data", log=lambda line: None)
    server.port = await server.start()  # type: ignore[attr-defined]
    deals, turns = server.tables.deals, server.tables.turns
    assert deals is not None and turns is not None
    try:
        for who, seed in ((fps[0], 1), (fps[1], 2)):  # two keys played today's Crown deal already
            pos = await deals.play(who, "crown")
            await finish(turns, who, pos.info.id, random.Random(seed))
        async with await connect(server, keys[2]) as conn:
            c = await open_app(conn)
            # (Thirteen entries still fit 80×24: the last one is drawn.)
            await c.until(lambda s: MENU in s and "Deal of the day" in s and "Quit" in s, "the whole menu")
            c.proc.stdin.write(b"d")
            shown = await c.until(lambda s: "you: not played yet" in " ".join(s.split()), "today's deals")
            assert "Coldwater Crown · solo" in " ".join(shown.split())
            await asyncio.sleep(0.3)
            c.proc.stdin.write(b"\r")  # the first line: Crown
            await c.until(lambda s: "your turn" in s.splitlines()[0], "the deal's table")
            (mine,) = [t for t in turns.tables.values() if fps[2] in t.players]
            assert mine.state.digest() != "" and mine.deal.startswith("crown/solo/")
            # A few moves by keys, the rest as the app would send them, then back to the list.
            for _ in range(3):
                ply = mine.state.ply
                c.proc.stdin.write(b"\r")
                for _ in range(100):
                    if mine.state.ply > ply:
                        break
                    await asyncio.sleep(0.05)
                assert mine.state.ply > ply
                await asyncio.sleep(0.3)
            await finish(turns, fps[2], mine.id, random.Random(3))
            c.proc.stdin.write(b"\x1b")
            shown = await c.until(lambda s: "you: " in s and "of 3" in s, "the deal finished, 3 on the board")
            c.proc.stdin.write(b"\r")
            board = await c.until(lambda s: "deal of" in s and "(you)" in s, "the results board")
            names = [f"key {fp[:9]}" for fp in fps]
            assert all(n in board for n in names)
            await asyncio.sleep(0.3)
            c.proc.stdin.write(b"\r")  # the best score's replay
            await c.until(lambda s: "Replay · " in s or " replay · " in s, "another key's game of the deal")
    finally:
        await server.close()
