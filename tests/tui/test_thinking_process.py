"""Search bots think in a worker process: the same moves as in a thread, no orphans,
and a worker that fails costs a notice, never a move or a hang."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from coldwater.core import games
from coldwater.core.rng import Rng
from coldwater.core.search import SearchBot
from coldwater.core.state import CHANCE, Game, State
from coldwater.net.play.files import read_content
from coldwater.net.play.table import Seat, SeatKind, Table, list_saves, resume
from coldwater.net.play.thinker import Thinker
from coldwater.net.play.thinkwire import Chose, Failed, RngPath, SearchBudget, Stopped, Think
from coldwater.net.play.thinkworker import Worker
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.thinking import ThinkGate

ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie nobody has reaped yet counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def until_gone(pid: int, within: float = 10.0) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def position(name: str, plies: int, seed: str) -> State[Any, Any]:
    """A position `plies` random decisions into a 2-player game, at a seat's decision."""
    game = games.get(name)
    st = game.new(2, seed=seed)
    rng = Rng(seed).fork("walk")
    done = 0
    while st.current is not None:
        if st.current == CHANCE:
            st.apply(st.sample_chance())
            continue
        if done >= plies and len(st.legal()) > 1:
            break
        st.apply(rng.choice(st.legal()))
        done += 1
    assert st.current is not None and st.current >= 0
    return st


def unclocked(game: Game[Any, Any], level: str) -> Any:
    """The level's bot with its wall-clock cap lifted: only the budget decides."""
    bot = game.bot(level)
    if isinstance(bot, SearchBot):
        bot.max_seconds = math.inf
    return bot


# ---- the same move, whichever process thinks ------------------------------------
@pytest.mark.parametrize("name", games.names())
def test_the_worker_code_chooses_as_the_bot_does_for_every_level(name: str) -> None:
    """Every bot name, through the worker's own decoding (in this process, quick)."""
    game = games.get(name)
    out = _Sink()
    worker = Worker(out)  # type: ignore[arg-type]
    for plies in (0, 9):
        st = position(name, plies, f"same-{name}")
        view = st.view(st.current)
        path = RngPath(f"seed-{name}", ("bot1", st.ply))
        for level in game.bots:
            bot = unclocked(game, level)
            budget = None
            if isinstance(bot, SearchBot):
                bot.iterations = min(bot.iterations, 24)  # a budget of the table's own, carried over
                budget = SearchBudget.of(bot)
            job = Think(
                id=1,
                game=name,
                content=None,
                content_hash=game.content_hash,
                bot=level,
                budget=budget,
                ply=view.ply,
                view=view.encode(),
                digest=view.digest(),
                rng=path,
            )
            reply = worker.think(job)
            expected = bot.choose(view, path.rng())
            assert isinstance(reply, Chose) and reply.action == str(expected), (level, reply)
            assert game.parse_action(reply.action) == expected


class _Sink:
    def write(self, b: bytes) -> int:
        return len(b)

    def flush(self) -> None:
        pass


def test_the_worker_refuses_a_view_that_is_not_the_apps_position() -> None:
    game = games.get("crown")
    st = position("crown", 3, "refuse")
    view = st.view(st.current)
    job = Think(
        id=7,
        game="crown",
        content=None,
        content_hash=game.content_hash,
        bot="hard",
        budget=None,
        ply=view.ply + 1,  # the digest covers the ply: this is another position
        view=view.encode(),
        digest=view.digest(),
        rng=RngPath("x"),
    )
    reply = Worker(_Sink()).think(job)  # type: ignore[arg-type]
    assert isinstance(reply, Failed) and "not the app's position" in reply.error
    bad_hash = msgspec.structs.replace(job, ply=view.ply, content_hash="0" * 64)
    reply = Worker(_Sink()).think(bad_hash)  # type: ignore[arg-type]
    assert isinstance(reply, Failed) and "card data" in reply.error
    cancelled = Worker(_Sink())  # type: ignore[arg-type]
    cancelled.cancelled.add(7)
    assert isinstance(cancelled.think(msgspec.structs.replace(job, ply=view.ply)), Stopped)


async def test_a_worker_process_chooses_what_the_thread_would_for_every_game_and_search_level() -> None:
    thinker = Thinker()
    try:
        for name in games.names():
            game = games.get(name)
            st = position(name, 6, f"proc-{name}")
            view = st.view(st.current)
            path = RngPath(f"proc-{name}", ("bot0", st.ply))
            for level in ("normal", "hard"):
                mine = unclocked(game, level)
                theirs = unclocked(game, level)
                remote = await thinker.choose(game, None, mine, view, path)
                assert remote == theirs.choose(view, path.rng()), (name, level)
                assert mine.last_iterations == theirs.last_iterations > 0
        # One worker served every move: its start-up was paid once.
        assert thinker.remote_moves == 6 and len(thinker.startups) == 1 and not thinker.notices
        pid = thinker.pid
        assert pid is not None and alive(pid)
    finally:
        await thinker.close()
    assert thinker.pid is None and until_gone(pid)


async def test_non_search_bots_and_unknown_games_think_here() -> None:
    thinker = Thinker(command=[sys.executable, "-c", "raise SystemExit(9)"])  # would fail if started
    game = games.get("fisheries")
    st = position("fisheries", 2, "here")
    view = st.view(st.current)
    for level in ("random", "easy", "greedy"):
        bot = game.bot(level)
        path = RngPath("here", ("bot0", st.ply))
        assert await thinker.choose(game, None, bot, view, path) == game.bot(level).choose(view, path.rng())
    assert thinker.pid is None and not thinker.startups and not thinker.notices


# ---- faults ---------------------------------------------------------------------
def slow_bot(game: Game[Any, Any], iterations: int = 10**7) -> SearchBot:
    bot = game.bot("hard")
    assert isinstance(bot, SearchBot)
    bot.iterations = iterations
    bot.max_seconds = math.inf
    return bot


async def until_worker(thinker: Thinker) -> int:
    for _ in range(30000):
        if thinker.pid is not None:
            return thinker.pid
        await asyncio.sleep(0.001)
    raise AssertionError("no worker started")


async def test_a_worker_killed_mid_search_costs_a_notice_not_the_move() -> None:
    notes: list[str] = []
    thinker = Thinker(notify=notes.append)
    game = games.get("crown")
    st = position("crown", 4, "crash")
    view = st.view(st.current)
    path = RngPath("crash", ("bot0", st.ply))
    bot = slow_bot(game, 200)
    expected = slow_bot(game, 200).choose(view, path.rng())
    try:
        task = asyncio.ensure_future(thinker.choose(game, None, bot, view, path))
        pid = await until_worker(thinker)
        # Frozen the moment it said Ready, it cannot answer before the kill (a fast
        # machine finished the search within a fixed sleep); the request still lands.
        os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(0.2)
        os.kill(pid, signal.SIGKILL)
        # The move is thought here instead: the same move.
        assert await asyncio.wait_for(task, 120) == expected
        assert len(notes) == 1 and "failed" in notes[0] and "exited" in notes[0]
        assert thinker.faults == 1 and thinker.disabled is None
        # The next move starts a fresh worker.
        again = await thinker.choose(game, None, slow_bot(game, 20), view, path)
        assert again == slow_bot(game, 20).choose(view, path.rng())
        assert len(thinker.startups) == 2 and thinker.pid not in (None, pid)
    finally:
        await thinker.close()


@pytest.mark.parametrize(
    "program",
    [
        "raise SystemExit(3)",  # dies at once
        "import time; time.sleep(600)",  # never says it is ready
        "import sys; sys.stdout.buffer.write(b'\\x00\\x00\\x00\\x02hi'); sys.stdout.flush(); input()",  # gibberish
    ],
    ids=["exits", "silent", "gibberish"],
)
async def test_a_worker_that_cannot_start_falls_back_and_is_given_up_on(program: str) -> None:
    notes: list[str] = []
    thinker = Thinker(notify=notes.append, command=[sys.executable, "-c", program], start_timeout=2.0, restarts=1)
    game = games.get("aquatica")
    st = position("aquatica", 3, "nostart")
    view = st.view(st.current)
    path = RngPath("nostart", ("bot0", st.ply))
    try:
        for _ in range(3):
            t0 = time.perf_counter()
            move = await asyncio.wait_for(thinker.choose(game, None, slow_bot(game, 10), view, path), 60)
            assert move == slow_bot(game, 10).choose(view, path.rng())
            assert time.perf_counter() - t0 < 30
    finally:
        await thinker.close()
    # Two faults (restarts=1), then the app stopped trying: no third start.
    assert thinker.faults == 2 and thinker.disabled is not None
    assert len(notes) == 2 and "from now on" in notes[-1]
    assert not thinker.startups


async def test_a_cancelled_search_leaves_the_worker_for_the_next_move() -> None:
    thinker = Thinker()
    game = games.get("crown")
    st = position("crown", 2, "cancel")
    view = st.view(st.current)
    path = RngPath("cancel", ("bot0", st.ply))
    try:
        task = asyncio.ensure_future(thinker.choose(game, None, slow_bot(game), view, path))
        pid = await until_worker(thinker)
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The worker dropped that search at its next iteration: the next move is prompt.
        t0 = time.perf_counter()
        move = await asyncio.wait_for(thinker.choose(game, None, slow_bot(game, 10), view, path), 60)
        assert move == slow_bot(game, 10).choose(view, path.rng())
        assert thinker.pid == pid and len(thinker.startups) == 1 and not thinker.notices
        assert time.perf_counter() - t0 < 20
    finally:
        await thinker.close()
    assert until_gone(pid)


async def test_closing_mid_search_ends_the_worker_at_once() -> None:
    thinker = Thinker()
    game = games.get("fisheries")
    st = position("fisheries", 2, "close")
    view = st.view(st.current)
    task = asyncio.ensure_future(thinker.choose(game, None, slow_bot(game), view, RngPath("close")))
    pid = await until_worker(thinker)
    await asyncio.sleep(0.3)
    t0 = time.perf_counter()
    await thinker.close()
    assert time.perf_counter() - t0 < 3 and until_gone(pid, 1.0)
    task.cancel()
    with pytest.raises((asyncio.CancelledError, Exception)):
        await task


ORPHAN = textwrap.dedent(
    """
    import asyncio, math, sys
    sys.path.insert(0, {root!r})
    from coldwater.core import games
    from coldwater.net.play.thinker import RngPath, Thinker
    from tests.tui.test_thinking_process import position, slow_bot

    async def main():
        thinker = Thinker()
        game = games.get("crown")
        st = position("crown", 2, "orphan")
        task = asyncio.ensure_future(thinker.choose(game, None, slow_bot(game), st.view(st.current), RngPath("o")))
        while thinker.pid is None:
            await asyncio.sleep(0.01)
        print(thinker.pid, flush=True)
        await task  # searches for hours, until this process is killed

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("how", ["sigkill-the-app", "hangup-the-session"])
def test_a_worker_never_outlives_its_app_even_when_the_app_is_killed(how: str) -> None:
    """Killed outright, or as `coldwater serve` ends an SSH session (SIGHUP to the
    session's process group, the app's worker included)."""
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN.format(root=str(ROOT))],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())
        time.sleep(0.5)
        assert alive(pid)
        if how == "sigkill-the-app":
            parent.send_signal(signal.SIGKILL)  # no clean-up of any kind
        else:
            os.killpg(parent.pid, signal.SIGHUP)
        parent.wait(10)
        assert until_gone(pid, 10.0), "the worker outlived its app"
    finally:
        parent.kill()
        parent.wait()


# ---- in the app ------------------------------------------------------------------------
def hard_table(home: Path, iterations: int | None = None) -> Table:
    seats = [Seat(SeatKind.BOT, "Gil", bot="hard"), Seat(SeatKind.PERSON, "Ada")]
    table = Table.new("crown", seats, seed="proc", save_path=home / "saves" / "proc.json")
    bot = table._bots[0]
    assert isinstance(bot, SearchBot)
    if iterations is not None:
        bot.iterations = iterations
    bot.max_seconds = math.inf
    return table


async def until_thinking(screen: TableScreen, table: Table) -> int:
    for _ in range(3000):
        if screen.busy and table.current == 0 and "thinking" in str(screen.query_one("#decision-title").render()):
            return table.state.ply
        await asyncio.sleep(0.01)
    raise AssertionError("the bot never started thinking")


async def test_the_app_thinks_in_its_worker_and_it_ends_with_the_app(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = hard_table(home, iterations=24)  # a real search, small enough for a test
        expected = hard_table(home / "twin", iterations=24)
        await app.push_screen(app.catalog.table_screen("crown")(table))
        for _ in range(6000):
            if table.waiting_for_person:
                break
            await asyncio.sleep(0.01)
        assert table.waiting_for_person
        assert app.thinker is not None and app.thinker.remote_moves >= 1 and not app.thinker.notices
        pid = app.thinker.pid
        assert pid is not None and alive(pid)
        # What the worker chose is what the table's own bot would have chosen here.
        await expected.advance()
        assert expected.record.entries == table.record.entries
        await pilot.press("escape", "q")
    assert until_gone(pid, 5.0)


async def test_leaving_mid_thought_saves_every_move_and_the_worker_stays(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = hard_table(home, iterations=10**7)
        screen = app.catalog.table_screen("crown")(table)
        await app.push_screen(screen)
        ply = await until_thinking(screen, table)
        entries = list(table.record.entries)
        pid = await until_worker(app.thinker)
        await pilot.press("escape", "l")  # leave to the menu while the bot thinks
        await pilot.pause()
        assert not isinstance(app.screen, TableScreen)
        (save,) = list_saves()
        assert save.plies == len(entries) == ply
        # The saved game resumes at the bot's move, and the same worker thinks it.
        again = resume(Path(save.path))
        assert again.record.entries == entries and again.current == 0
        bot = again._bots[0]
        assert isinstance(bot, SearchBot)
        bot.max_seconds = math.inf
        move = await app.thinker.choose(again.game, None, bot, again.view(0), again.bot_rng_path(0))
        twin = resume(Path(save.path))
        twin_bot = twin._bots[0]
        assert isinstance(twin_bot, SearchBot)
        twin_bot.max_seconds = math.inf
        assert move == twin_bot.choose(twin.view(0), twin.bot_rng(0))
        assert app.thinker.pid == pid and len(app.thinker.startups) == 1
        await pilot.press("q")
    assert until_gone(pid, 5.0)


async def test_a_game_with_its_own_card_data_thinks_in_the_worker_with_that_data(tmp_path: Path) -> None:
    """The worker loads the person's card data from its path, and checks its hash."""
    import json
    from importlib import resources

    from coldwater.core.aquatica.game import GAME as AQ
    from coldwater.net.play.table import ContentRef

    folder = tmp_path / "mine"
    folder.mkdir()
    raw = json.loads(resources.files("coldwater.core.aquatica").joinpath("data", "kings.json").read_text())
    raw["kings"][0]["effects"][0]["n"] = 7
    (folder / "kings.json").write_text(json.dumps(raw))
    mine = AQ.with_content(read_content(folder))
    assert mine.content_hash != AQ.content_hash

    def table(name: str) -> Table:
        t = Table.new(
            mine,
            [Seat(SeatKind.BOT, "Nat", bot="normal"), Seat(SeatKind.BOT, "Hal", bot="hard")],
            seed="own",
            save_path=tmp_path / f"{name}.json",
            content=ContentRef(str(folder), mine.content_hash),
        )
        for bot in t._bots.values():
            assert isinstance(bot, SearchBot)
            bot.iterations = 12
            bot.max_seconds = math.inf
        return t

    there, here = table("there"), table("here")
    thinker = Thinker()
    there.thinker = thinker
    try:
        for _ in range(400):  # the deal, then some moves of both bots
            assert await there.step() and await here.step()
            if thinker.remote_moves >= 6:
                break
        assert there.record.entries == here.record.entries
        assert thinker.remote_moves >= 6 and not thinker.notices
    finally:
        await thinker.close()


def cpu_ticks(pid: int) -> int:
    """User plus system clock ticks `pid` has run."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


async def test_a_key_holds_the_workers_search_until_its_repaint() -> None:
    """On a busy machine the worker competes with the app for a CPU: a key holds it."""
    thinker = Thinker()
    game = games.get("crown")
    st = position("crown", 2, "hold")
    task = asyncio.ensure_future(thinker.choose(game, None, slow_bot(game), st.view(st.current), RngPath("h")))
    try:
        pid = await until_worker(thinker)
        await asyncio.sleep(0.5)  # searching now
        held = []
        for _ in range(3):
            thinker.hold(True)
            await asyncio.sleep(0.04)  # the playout under way ends
            t0 = cpu_ticks(pid)
            await asyncio.sleep(0.15)
            held.append(cpu_ticks(pid) - t0)
            thinker.hold(False)
            await asyncio.sleep(0.3)
        t0 = cpu_ticks(pid)
        await asyncio.sleep(0.5)
        running = cpu_ticks(pid) - t0
        assert min(held) <= 2 < running, (held, running)
        # A hold never outlasts HOLD_AT_MOST, even with no Go: the search goes on.
        thinker.hold(True)
        await asyncio.sleep(0.4)
        t0 = cpu_ticks(pid)
        await asyncio.sleep(0.5)
        assert cpu_ticks(pid) - t0 > 2
        thinker.hold(False)
        assert not task.done()
    finally:
        task.cancel()
        await thinker.close()


def test_the_gate_tells_the_app_when_it_closes_and_opens() -> None:
    seen: list[bool] = []
    gate = ThinkGate(on_change=seen.append)
    gate.hold()
    gate.hold()
    gate.release()
    assert seen == [True]
    gate.release()
    gate.release()  # one too many: no second "open"
    assert seen == [True, False]
