"""How strong the bot levels are, on each game's own scale, and how long they think.

    .venv/bin/python tests/bench/bots.py [--games N] [--levels easy,normal,hard]
        [--only pond,solo,tribes,h2h] [--tribes-levels 1,...,6] [--titles crown,...] [--jobs J]
        [--budget hard:iterations=720,max_plies=24000]
    .venv/bin/python tests/bench/bots.py --report FILE [--levels ...]
    .venv/bin/python tests/bench/bots.py --turns 4 [--first 0] [--level hard]

Prints, for each level, over a fixed list of seeds (``--games`` per line):

- Crown Practice Pond: games won against the silent player;
- Aquatica base solo: the distribution of titles;
- Aquatica Tribes Solo, levels 1 to 6: games won;
- head to head, 2 players, per title: each level against the one below, seats
  swapped every other game (a win is ranking first);
- seconds per decision of the searching levels: median and 95th percentile of
  CPU time (what the budget sets; independent of other load on the machine)
  and of wall time.

``--turns N``: a hard bot's whole Crown turn as a person waits for it (issue 45: under 5 s
on a 2-core machine): N two-player games, the level against greedy (seats alternating),
the search's wall-clock cap on as a table runs it; per turn of the level's seat, its
thinking (wall and CPU) plus the table's default pace (``Settings.bot_delay`` between two
bot or chance steps) for each step of the turn. Printed: median, 90th percentile and max.

Each game also writes one JSON line to stderr as it ends; ``--report FILE``
prints the figures from a file of such lines (a long run stopped early, or
several runs' lines put together).

The wall-clock safety cap is lifted here, so every decision runs its whole
iteration budget and the figures repeat exactly for the same seeds. Figures
only; nothing here fails on time.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from coldwater.core import games
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE

Timing = list[tuple[str, float, float]]
"""(level, CPU seconds, wall seconds) of each searched decision."""


BUDGET: dict[str, dict[str, float]] = {}
"""Per level, search attributes to override (``--budget``): a budget is measured here
before it is written into a game's bot spec."""


def play(game_name: str, seed: str, levels: list[str], options: dict[str, Any] | None) -> tuple[Any, Any, Timing]:
    """One whole game: seat i played by level levels[i]. Returns (scores, data, timings)."""
    g = games.get(game_name)
    bots = [g.bot(lv) for lv in levels]
    for lv, b in zip(levels, bots):
        if hasattr(b, "max_seconds"):
            b.max_seconds = math.inf  # the budget alone decides: exact, repeatable figures
        for key, val in BUDGET.get(lv, {}).items():
            if not hasattr(b, key):
                raise SystemExit(f"--budget: {lv} has no {key!r}")
            setattr(b, key, val)
    s = g.new(len(levels), seed=seed, options=options)
    rng = Rng(seed).fork("bots")
    times: Timing = []
    while (cur := s.current) is not None:
        if cur == CHANCE:
            s.apply(s.sample_chance())
            continue
        view = s.view(cur)
        w0, c0 = time.perf_counter(), time.process_time()
        a = bots[cur].choose(view, rng.fork(s.ply))
        if levels[cur] in ("normal", "hard") and len(view.legal()) > 1:
            times.append((levels[cur], time.process_time() - c0, time.perf_counter() - w0))
        s.apply(a)
    return s.scores(), s.data, times


def turns(seed: str, level: str, seat: int) -> list[tuple[float, float, int]]:
    """(think wall s, think CPU s, steps) of each Crown turn of `level` at `seat` against greedy."""
    g = games.get("crown")
    bots = [g.bot(level if i == seat else "greedy") for i in range(2)]
    bot = bots[seat]
    if hasattr(bot, "clock"):
        bot.clock = time.perf_counter  # the safety cap as a table sets it
    for key, val in BUDGET.get(level, {}).items():
        setattr(bot, key, val)
    s = g.new(2, seed=seed)
    rng = Rng(seed).fork("bots")
    out: list[tuple[float, float, int]] = []
    wall = cpu = 0.0
    steps = 0
    mine = False
    while (cur := s.current) is not None:
        now = s.data.turn == seat and s.data.phase != "setup"
        if mine and not now:
            out.append((wall, cpu, steps))
            wall = cpu = 0.0
            steps = 0
        mine = now
        if cur == CHANCE:
            s.apply(s.sample_chance())
        else:
            w0, c0 = time.perf_counter(), time.process_time()
            a = bots[cur].choose(s.view(cur), rng.fork(s.ply))
            if cur == seat:
                wall += time.perf_counter() - w0
                cpu += time.process_time() - c0
            s.apply(a)
        steps += mine
    return out


def _budgets(budget: dict[str, dict[str, float]]) -> None:
    """A pool worker's copy of the --budget overrides (a spawned worker starts without them)."""
    BUDGET.update(budget)


def report_turns(rows: list[list[tuple[float, float, int]]]) -> None:
    from coldwater.tui.settings import Settings

    pace = Settings().bot_delay
    flat = [t for r in rows for t in r]
    if not flat:
        print("no turns")
        return

    def line(xs: list[float]) -> str:
        xs = sorted(xs)
        return f"median {statistics.median(xs):.2f} s, p90 {xs[int(0.9 * (len(xs) - 1))]:.2f} s, max {xs[-1]:.2f} s"

    print(f"{len(flat)} turns in {len(rows)} games; the pace: {pace} s a step")
    print(f"  whole turn (thinking wall + pace x steps): {line([w + pace * n for w, _, n in flat])}")
    print(f"  thinking, wall: {line([w for w, _, _ in flat])}; CPU: {line([c for _, c, _ in flat])}")
    print(f"  steps a turn: median {statistics.median(n for _, _, n in flat):.0f}, max {max(n for _, _, n in flat)}")


def job(args: tuple[str, str, str, list[str], dict[str, Any] | None]) -> tuple[str, str, Any, list[str], Timing]:
    section, key, game_name, levels, options = args[0], args[1], args[2], args[3], args[4]
    seed = f"bots/{section}/{key}"
    sc, d, times = play(game_name, seed, levels, options)
    if section == "pond":
        res: Any = sc.ranking[0] == 0
    elif section == "solo":
        res = sc.outcome.split(": ", 1)[-1]
    elif section == "tribes":
        res = all(t in d.ps[0].tribes for t in d.tribes)
    else:
        res = sc.ranking[0]
    # One JSON line per game on stderr as it ends: `--report FILE` rebuilds the
    # figures from such lines, so a long run cut short still counts.
    print(
        json.dumps(
            {
                "section": section,
                "key": key,
                "res": res,
                "totals": list(sc.totals),
                "levels": levels,
                "times": times,
                "budget": BUDGET,
            }
        ),
        file=sys.stderr,
        flush=True,
    )
    return section, key, res, levels, times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="index of the first seed (to extend an earlier run)")
    ap.add_argument("--levels", default="easy,normal,hard")
    ap.add_argument("--only", default="pond,solo,tribes,h2h")
    ap.add_argument(
        "--solo-levels", help="levels for the one-player lines (Practice Pond, solos), when not all of --levels"
    )
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--tribes-levels", default="1,2,3,4,5,6", help="Tribes Solo levels to play")
    ap.add_argument("--titles", default=",".join(games.names()), help="games for the head-to-head lines")
    ap.add_argument(
        "--budget",
        action="append",
        default=[],
        metavar="LEVEL:KEY=N,...",
        help="override a search level's budget in every game, e.g. hard:iterations=720,max_plies=24000,confidence=0.5",
    )
    ap.add_argument("--report", metavar="FILE", help="print the figures from the game lines a run wrote to stderr")
    ap.add_argument("--turns", type=int, default=0, help="time N Crown games' turns of --level against greedy")
    ap.add_argument("--level", default="hard")
    args = ap.parse_args()
    if args.turns:
        tasks = [(f"bots/turns/{i}", args.level, i % 2) for i in range(args.first, args.first + args.turns)]
        with ProcessPoolExecutor(max(1, args.jobs), initializer=_budgets, initargs=(BUDGET,)) as ex:
            report_turns(list(ex.map(turns, *zip(*tasks))))
        return
    levels = args.levels.split(",")
    for spec in args.budget:
        lv, _, kvs = spec.partition(":")
        BUDGET[lv] = {k: float(v) if "." in v else int(v) for k, v in (kv.split("=", 1) for kv in kvs.split(","))}
    solo_levels = args.solo_levels.split(",") if args.solo_levels else levels
    if args.report:
        with open(args.report) as f:
            # Keyed by section and game: the same game from two runs (same seed, same
            # budget, so the same result) counts once.
            rows = list(
                {(r["section"], r["key"]): r for r in map(json.loads, filter(lambda x: x.startswith("{"), f))}.values()
            )
        done = [(r["section"], r["key"], r["res"], r["levels"], [tuple(t) for t in r["times"]]) for r in rows]
        report(done, levels, None)
        return
    only = set(args.only.split(","))
    n = args.games
    jobs: list[tuple[str, str, str, list[str], dict[str, Any] | None]] = []
    # Game i of every line before game i + 1 of any: a run stopped early (see
    # --report) still has about as many games on each line.
    for i in range(args.first, args.first + n):
        for lv in solo_levels:
            if "pond" in only:
                jobs.append(("pond", f"{lv}/{i}", "crown", [lv], None))
            if "solo" in only:
                jobs.append(("solo", f"{lv}/{i}", "aquatica", [lv], None))
            if "tribes" in only:
                for level in map(int, args.tribes_levels.split(",")):
                    jobs.append(
                        ("tribes", f"{lv}/{level}/{i}", "aquatica", [lv], {"module": "tribes", "solo_level": level})
                    )
        if "h2h" in only:
            for lo, hi in zip(levels, levels[1:]):
                for name in args.titles.split(","):
                    seats = [hi, lo] if i % 2 == 0 else [lo, hi]
                    jobs.append(("h2h", f"{name}/{hi}-{lo}/{i}", name, seats, None))
    t0 = time.perf_counter()
    results: list[tuple[str, str, Any, list[str], Timing]] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            results = list(ex.map(job, jobs))
    else:
        results = [job(j) for j in jobs]
    report(results, levels, n)
    print(f"({len(jobs)} games in {time.perf_counter() - t0:.0f} s)")


def report(results: list[tuple[str, str, Any, list[str], Timing]], levels: list[str], n: int | None) -> None:
    by: dict[tuple[str, str], list[Any]] = {}
    timing: dict[str, Timing] = {lv: [] for lv in levels}
    for section, key, res, seats, times in results:
        parts = key.split("/")
        if section == "pond" or section == "solo":
            by.setdefault((section, parts[0]), []).append(res)
        elif section == "tribes":
            by.setdefault((section, f"{parts[0]}/{parts[1]}"), []).append(res)
        else:
            game, pair = parts[0], parts[1]
            hi = pair.split("-")[0]
            by.setdefault((section, f"{game}/{pair}"), []).append(seats[res] == hi)
        for lv, cpu, wall in times:
            timing[lv].append((lv, cpu, wall))
    print(f"Bot levels, {n if n is not None else 'the'} games per line (fixed seeds)")
    for lv in levels:
        if ("pond", lv) in by:
            r = by[("pond", lv)]
            print(f"  Crown Practice Pond   {lv:6}  won {sum(r)}/{len(r)} ({100 * sum(r) / len(r):.0f}%)")
    for lv in levels:
        if ("solo", lv) in by:
            c = Counter(by[("solo", lv)])
            dist = ", ".join(f"{t} {k}" for t, k in sorted(c.items(), key=lambda x: -x[1]))
            print(f"  Aquatica base solo    {lv:6}  {dist} (of {sum(c.values())})")
    for lv in levels:
        cells = []
        for level in range(1, 7):
            r = by.get(("tribes", f"{lv}/{level}"))
            if r:
                cells.append(f"L{level} {sum(r)}/{len(r)}")
        if cells:
            print(f"  Aquatica Tribes Solo  {lv:6}  " + "  ".join(cells))
    for name in games.names():
        for lo, hi in zip(levels, levels[1:]):
            r = by.get(("h2h", f"{name}/{hi}-{lo}"))
            if r:
                print(f"  {name:10} 2p  {hi} vs {lo}: {hi} wins {sum(r)}/{len(r)} ({100 * sum(r) / len(r):.0f}%)")
    for lv in levels:
        t = timing.get(lv) or []
        if t:
            cpu = sorted(x for _, x, _ in t)
            wall = sorted(y for _, _, y in t)
            p95 = int(0.95 * (len(t) - 1))
            print(
                f"  seconds/decision {lv:6}  CPU median {statistics.median(cpu):.2f} p95 {cpu[p95]:.2f} "
                f"max {cpu[-1]:.2f} | wall median {statistics.median(wall):.2f} p95 {wall[p95]:.2f} "
                f"({len(t)} decisions)"
            )


if __name__ == "__main__":
    main()
