"""The app's benchmark: prints figures, never asserts on time.

Run: ``python tests/bench/bench_tui.py [--runs N]``

- cold start to the menu: a fresh process (``python -m`` style, imports
  included) until the main menu has been composed and painted, headless; the
  wall time of the whole process and the time inside it are both printed;
- keypress to repaint on the Coldwater Crown table screen at 80×24 and 200×60:
  a key is delivered as the terminal driver delivers it, the app handles it, and
  the screen's compositor renders the changed regions. Four kinds of key: moving
  the highlight (↓), scrolling the board (PgDn), opening and closing the full
  log pane (F3), and making a choice (the board, the list and the log are
  redrawn; only choices after which it is still the person's turn are timed,
  so no bot thinking is counted);
- keypress to repaint while a hard bot thinks (the key must not wait for the
  search): opening and closing the full log pane (F3) and scrolling the board,
  timed only while the bot is mid-search; with the search in the app's worker
  process (as shipped), and for comparison in a thread of the app (held while a
  key is handled, and not held);
- peak memory (RSS) of a process that opens the app and plays a whole Crown game
  by keyboard against a bot.

Aims (DESIGN/issue): ≤ 0.5 s, ≤ 50 ms, ≤ 80 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

COLD_START = r"""
import time, os
t0 = time.perf_counter()
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.screens.menu import MenuScreen

class Bench(ColdwaterApp):
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(self._painted)
    def _painted(self):
        if isinstance(self.screen, MenuScreen):
            print(f"INSIDE {time.perf_counter() - t0:.4f}", flush=True)
            self.exit()
Bench().run(headless=True, size=(80, 24))
"""

BARE = r"""
import time
t0 = time.perf_counter()
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("hello")
    def on_mount(self):
        self.call_after_refresh(self._painted)
    def _painted(self):
        print(f"INSIDE {time.perf_counter() - t0:.4f}", flush=True)
        self.exit()
Bare().run(headless=True, size=(80, 24))
"""

PEAK = r"""
import asyncio, os, resource, sys
sys.path.insert(0, {root!r})
os.fsync = lambda fd: None
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.settings import Settings
from tests.tui.driver import play, start_game

async def main():
    app = ColdwaterApp(catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await start_game(pilot, mode_key="s", game="crown", seats=["person", "bot:greedy"], seed="bench")
        await play(pilot)
asyncio.run(main())
print(f"PEAK {{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}")
"""


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["COLDWATER_HOME"] = tempfile.mkdtemp(prefix="coldwater-bench-")
    return e


def cold_start(runs: int, script: str = COLD_START, what: str = "cold start to the menu") -> None:
    walls, insides = [], []
    for _ in range(runs):
        w0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env(), timeout=60)
        walls.append(time.perf_counter() - w0)
        line = next((x for x in out.stdout.splitlines() if x.startswith("INSIDE")), None)
        if line is None:
            print("cold start failed:", out.stderr[-2000:])
            return
        insides.append(float(line.split()[1]))
    print(
        f"{what}: process {statistics.median(walls) * 1000:.0f} ms median "
        f"(min {min(walls) * 1000:.0f}), imports+compose+paint {statistics.median(insides) * 1000:.0f} ms "
        f"median over {runs} runs  [aim ≤ 500 ms]"
    )


async def keypress(samples: int, size: tuple[int, int], profile: str = "") -> None:
    """Keys at the Crown table at `size`, each timed to its repaint; with `profile` (a kind:
    down, pagedown, f3, "f3 close", choice), those keys run under cProfile and the functions
    that took the most time are printed after the figures."""
    os.environ["COLDWATER_HOME"] = tempfile.mkdtemp(prefix="coldwater-bench-")
    sys.path.insert(0, str(ROOT))
    from textual import events

    from coldwater.net.play.table import Seat, SeatKind, Table
    from coldwater.tui.app import ColdwaterApp
    from coldwater.tui.catalog import Catalog
    from coldwater.tui.screens.table import TableScreen
    from coldwater.tui.settings import Settings
    from coldwater.tui.widgets.choices import ChoiceList

    app = ColdwaterApp(catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))
    moves: list[float] = []
    choices: list[float] = []
    scrolls: list[float] = []
    panes: list[float] = []
    closes: list[float] = []
    cpus: dict[str, list[float]] = {}
    """CPU time of the process per key, by kind: a figure that a busy machine disturbs less."""
    profiler = cProfile.Profile()
    async with app.run_test(size=size) as pilot:
        seats = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Gil", bot="greedy")]
        screen_cls = app.catalog.table_screen("crown")
        await app.push_screen(screen_cls(Table.new("crown", seats, seed="bench")))

        async def idle_turn() -> TableScreen:
            while True:
                s = app.screen
                if isinstance(s, TableScreen) and s.my_turn() and not s.busy:
                    return s
                await asyncio.sleep(0.002)

        async def settle(done: Callable[[], bool] = lambda: True) -> None:
            # Until nothing is left to do: the screen's messages handled, the changed
            # regions rendered, and the callbacks that wait for a repaint (a focus
            # change refreshing the footer, say) run and rendered in turn; with `done`,
            # until it holds too (a choice: the worker that applies it has repainted).
            screen = app.screen
            for _ in range(200):
                await pilot._wait_for_screen()
                screen._on_timer_update()
                if done() and not screen._callbacks and not screen._layout_required:
                    await pilot._wait_for_screen()
                    if not screen._callbacks and not screen._dirty_widgets and not screen._repaint_required:
                        return
                await asyncio.sleep(0)

        async def press(key: str, done: Callable[[], bool] = lambda: True, kind: str = "") -> float:
            kind = kind or (key if len(key) > 1 else "choice")
            took, cpu = await timed(key, done, profiler if kind == profile else None)
            cpus.setdefault(kind, []).append(cpu)
            return took

        async def timed(
            key: str, done: Callable[[], bool], prof: cProfile.Profile | None = None
        ) -> tuple[float, float]:
            event = events.Key(key, key if len(key) == 1 else None)
            event.set_sender(app)
            # Start from a quiet screen: anything the previous key left to do is done
            # first, and everything this key causes is counted, deferred work included.
            await settle()
            t0, c0 = time.perf_counter(), time.process_time()
            assert app._driver is not None
            if prof is not None:
                prof.enable()
            app._driver.send_message(event)
            await settle(done)
            if prof is not None:
                prof.disable()
            return time.perf_counter() - t0, time.process_time() - c0

        n = 0
        while (len(moves) < samples or len(choices) < samples) and n < samples * 20:
            n += 1
            s = await idle_turn()
            if s.table.state.is_over:
                break
            moves.append(await press("down"))
            if len(scrolls) < samples:
                scrolls.append(await press("pagedown"))
                await press("pageup")
                panes.append(await press("f3", kind="f3"))
                closes.append(await press("f3", kind="f3 close"))
            decision = s.query_one("#decision", ChoiceList)
            generation, ply = decision.generation, s.table.state.ply
            cur = s.table.current
            key = "1" if decision.has_key("1") else "e"
            took = await press(key, lambda: decision.generation != generation and not s.busy)
            for _ in range(5000):
                if decision.generation != generation:
                    break
                await asyncio.sleep(0.001)
            else:
                print(
                    f"key {key!r} made no choice; stopping ({app.focused}, busy {s.busy}, "
                    f"turn {s.my_turn()}, {s.table.state.ply} vs {ply})",
                    flush=True,
                )
                break
            # Time only choices that stayed with the person (no bot move in between).
            if s.table.current == cur and not s.busy and s.table.state.ply == ply + 1:
                choices.append(took)
            else:
                cpus["choice"].pop()  # (its CPU time may include a bot's thinking)
    w, h = size
    for label, xs, kind in (
        ("move the highlight (↓)", moves, "down"),
        ("scroll the board (PgDn)", scrolls, "pagedown"),
        ("open the log pane (F3)", panes, "f3"),
        ("close the log pane (F3)", closes, "f3 close"),
        ("make a choice", choices, "choice"),
    ):
        if xs:
            xs.sort()
            cpu_all = sorted(cpus.get(kind) or [0.0])
            cpu = statistics.median(cpu_all)
            cpu90 = cpu_all[int(len(cpu_all) * 0.9)]
            print(
                f"keypress to repaint, Crown table {w}×{h}, {label}: median {statistics.median(xs) * 1000:.1f} ms, "
                f"p90 {xs[int(len(xs) * 0.9)] * 1000:.1f} ms, max {xs[-1] * 1000:.1f} ms "
                f"({len(xs)} keys; CPU median {cpu * 1000:.1f} ms, p90 {cpu90 * 1000:.1f} ms; "
                f"load average {os.getloadavg()[0]:.1f})  [aim: CPU ≤ 30 ms]"
            )
    if profile:
        print(f"profile of the {profile!r} keys at {w}×{h} (cumulative, top 40):")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


THINK_MODES = {
    "process": "search in the worker process",
    "thread": "search in a thread, held while a key is handled",
    "thread-unheld": "search in a thread, not held",
}


async def keypress_while_thinking(samples: int, size: tuple[int, int], mode: str = "process") -> None:
    """F3 and PgDn/PgUp pressed while a hard bot searches, each timed to its repaint.

    Besides wall time, the CPU time of the event loop's thread alone (the bot's
    thread excluded): on an idle 2-core machine the wall time comes close to it;
    on a busy one, other processes stretch the wall time. `mode` is where the
    search runs (THINK_MODES): the worker process as shipped, or a thread of the
    app as before, held while a key is handled or not (for comparison)."""
    os.environ["COLDWATER_HOME"] = tempfile.mkdtemp(prefix="coldwater-bench-")
    sys.path.insert(0, str(ROOT))
    from textual import events

    from coldwater.net.play.table import Seat, SeatKind, Table
    from coldwater.tui.app import ColdwaterApp
    from coldwater.tui.catalog import Catalog
    from coldwater.tui.screens.table import TableScreen
    from coldwater.tui.settings import Settings
    from coldwater.tui.widgets.choices import ChoiceList

    app = ColdwaterApp(
        catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0), bot_process=mode == "process"
    )
    took: dict[str, list[float]] = {"f3": [], "pagedown": []}
    cpus: dict[str, list[float]] = {}
    idle: dict[str, list[float]] = {"f3": [], "pagedown": []}
    idle_cpus: dict[str, list[float]] = {}
    unqueued: dict[str, list[float]] = {}
    """Wall time less the time the event loop's thread sat in the run queue waiting for a
    CPU (Linux schedstat): what a busy machine adds is taken out, while waiting for the
    search's thread to let go of the interpreter (a sleep, not a queue) stays in."""
    async with app.run_test(size=size) as pilot:
        # The hard bot sits first, so the table opens on its search.
        seats = [Seat(SeatKind.BOT, "Gil", bot="hard"), Seat(SeatKind.PERSON, "Ada")]
        screen = app.catalog.table_screen("crown")(Table.new("crown", seats, seed="bench-think"))
        await app.push_screen(screen)
        assert isinstance(screen, TableScreen)
        table = screen.table
        if mode == "thread-unheld":
            assert isinstance(table, Table)
            table.think_pause = None

        def thinking() -> bool:
            cur = table.current
            return screen.busy and cur is not None and cur >= 0 and table.seats[cur].kind is SeatKind.BOT

        async def settle() -> None:
            for _ in range(400):
                await pilot._wait_for_screen()
                screen._on_timer_update()
                if not screen._callbacks and not screen._layout_required:
                    await pilot._wait_for_screen()
                    if not screen._callbacks and not screen._dirty_widgets and not screen._repaint_required:
                        return
                await asyncio.sleep(0)

        keys = ("f3", "f3", "pagedown", "pageup")
        k = 0
        rounds = 0

        async def timed(key: str, cat: str) -> tuple[float, float]:
            await settle()
            event = events.Key(key, None)
            event.set_sender(app)
            t0, c0, q0 = time.perf_counter(), time.thread_time(), queued()
            assert app._driver is not None
            app._driver.send_message(event)
            await settle()
            wall = time.perf_counter() - t0
            unqueued.setdefault(f"{cat} {key}", []).append(wall - (queued() - q0))
            return wall, time.thread_time() - c0

        while min(len(v) for v in took.values()) < samples and rounds < samples * 50 and not table.state.is_over:
            rounds += 1
            if screen.my_turn() and not screen.busy:
                # The same keys with nothing thinking, at the same point of the game and
                # the same machine load: the baseline the keys below are measured against.
                if min(len(v) for v in idle.values()) < samples:
                    for key in keys:
                        dt, cpu = await timed(key, "idle")
                        kind = "f3" if key == "f3" else "pagedown"
                        idle[kind].append(dt)
                        idle_cpus.setdefault(kind, []).append(cpu)
                decision = screen.query_one("#decision", ChoiceList)
                await pilot.press("1" if decision.has_key("1") else "e")
                await asyncio.sleep(0.01)
                continue
            if not thinking():
                await asyncio.sleep(0.005)
                continue
            key = keys[k % len(keys)]
            await settle()
            if not thinking():
                continue
            dt, cpu = await timed(key, "think")
            k += 1
            if thinking():  # the bot was still searching when the repaint was done
                took.setdefault(key, []).append(dt)
                cpus.setdefault("f3" if key == "f3" else "pagedown", []).append(cpu)
            else:
                unqueued[f"think {key}"].pop()  # (it ended mid-key: not counted)
            await asyncio.sleep(0.05)  # let the search run between keys, as a person would
        if screen.pane:
            screen.action_pane(screen.pane)
        thinker = app.thinker
        if thinker is not None:
            ups = ", ".join(f"{x * 1000:.0f}" for x in thinker.startups)
            print(f"worker process: started in {ups} ms; {thinker.remote_moves} moves thought there", flush=True)
    w, h = size
    for key, label in (("f3", "open/close the log pane (F3)"), ("pagedown", "scroll the board (PgDn/PgUp)")):
        xs = sorted(took.get(key, []) + (took.get("pageup", []) if key == "pagedown" else []))
        if xs:
            print(
                f"keypress to repaint while a hard bot thinks ({THINK_MODES[mode]}), "
                f"Crown table {w}×{h}, {label}: median {statistics.median(xs) * 1000:.1f} ms, "
                f"p90 {xs[int(len(xs) * 0.9)] * 1000:.1f} ms, max {xs[-1] * 1000:.1f} ms ({len(xs)} keys; "
                f"event-loop thread CPU median {statistics.median(cpus[key]) * 1000:.1f} ms; "
                f"load average {os.getloadavg()[0]:.1f})  [aim ≤ 50 ms]"
            )
        else:
            print(f"keypress while a hard bot thinks, {label}: no key landed mid-search")
        qs = unqueued.get(f"think {key}", []) + (unqueued.get("think pageup", []) if key == "pagedown" else [])
        if qs:
            print(
                f"  less the time it waited in the machine's run queue (what the machine's load adds): "
                f"median {statistics.median(qs) * 1000:.1f} ms"
            )
        ys = sorted(idle[key])
        if ys:
            print(
                f"  the same key on the person's turn (nothing thinking), same run: median "
                f"{statistics.median(ys) * 1000:.1f} ms, p90 {ys[int(len(ys) * 0.9)] * 1000:.1f} ms ({len(ys)} keys; "
                f"event-loop thread CPU median {statistics.median(idle_cpus[key]) * 1000:.1f} ms)"
            )
            qs = unqueued.get(f"idle {key}", []) + (unqueued.get("idle pageup", []) if key == "pagedown" else [])
            print(f"    less its run-queue wait: median {statistics.median(qs) * 1000:.1f} ms")


def queued() -> float:
    """Seconds this thread has waited in the run queue for a CPU (0 where Linux does not say)."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def peak_memory() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PEAK.format(root=str(ROOT))], capture_output=True, text=True, env=env(), timeout=600
    )
    line = next((x for x in out.stdout.splitlines() if x.startswith("PEAK")), None)
    if line is None:
        print("peak memory run failed:", out.stderr[-2000:])
        return
    kib = int(line.split()[1])  # Linux reports ru_maxrss in KiB
    print(f"peak RSS, app + a whole Crown game by keyboard at 120×40: {kib / 1024:.1f} MiB  [aim ≤ 80 MB]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="cold starts to time")
    ap.add_argument("--keys", type=int, default=40, help="keypresses of each kind to time")
    ap.add_argument("--only-thinking", action="store_true", help="only the keys pressed while a hard bot thinks")
    ap.add_argument("--only-keys", action="store_true", help="only the keypresses at the table, at 80×24 and 200×60")
    ap.add_argument("--profile", default="", help="with --only-keys: cProfile one kind of key (down, f3, choice, ...)")
    ap.add_argument("--size", action="append", default=[], help="with --only-keys: only this size (WxH; repeatable)")
    args = ap.parse_args()
    if args.only_keys:
        print(f"(machine load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
        sizes = [tuple(int(n) for n in size.split("x")) for size in args.size] or [(80, 24), (200, 60)]
        for w, h in sizes:
            size = (w, h)
            asyncio.run(keypress(args.keys, size, args.profile))
        return
    if args.only_thinking:
        for mode in THINK_MODES:
            asyncio.run(keypress_while_thinking(args.keys, (80, 24), mode))
        return
    # The same measurement for a bare Textual "hello" app, for scale on this machine.
    cold_start(args.runs, BARE, "for scale, a bare Textual app")
    cold_start(args.runs)
    print(f"(machine load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    for size in ((80, 24), (200, 60)):
        asyncio.run(keypress(args.keys, size))
    asyncio.run(keypress_while_thinking(args.keys, (80, 24)))
    peak_memory()


if __name__ == "__main__":
    main()
