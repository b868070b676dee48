"""Benchmark: plies/s, games/s and clone time for Aquatica (prints; never asserts time).

.venv/bin/python tests/bench/bench_aquatica.py [--games N]
"""

from __future__ import annotations

import argparse
import time

from coldwater.core.aquatica.game import GAME
from coldwater.core.rng import Rng

try:  # run as a script: tests/bench is on sys.path
    from chess_baseline import engine_random_plies, print_ratio
except ImportError:  # imported as tests.bench.bench_*
    from .chess_baseline import engine_random_plies, print_ratio
from coldwater.core.simulate import play_out


def run(players: int, module: str, bot: str, games: int) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    plies = 0
    for i in range(games):
        s = GAME.new(players, seed=f"bench/{i}", options={"module": module})
        play_out(s, [GAME.bot(bot) for _ in range(players)], Rng(i))
        plies += s.ply
    dt = time.perf_counter() - t0
    return plies / dt, games / dt, plies // games


def clone_time() -> float:
    s = GAME.new(4, seed="clone", options={"module": "tribes"})
    bots = [GAME.bot("greedy") for _ in range(4)]
    rng = Rng(0)
    while s.ply < 300 and s.current is not None:
        cur = s.current
        s.apply(s.sample_chance() if cur == -1 else bots[cur].choose(s.view(cur), rng.fork(s.ply)))
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        s.clone()
    return (time.perf_counter() - t0) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    engine_random_plies(GAME, 2, 2)  # warm the per-content tables
    print_ratio("Aquatica", *engine_random_plies(GAME, 2, args.games))
    print(f"clone: {clone_time():.1f} µs (4 players, mid-game)")
    for bot in ("random", "greedy"):
        for module in ("goals", "tribes"):
            for players in (1, 2, 3, 4, 5):
                pps, gps, avg = run(players, module, bot, args.games)
                print(f"{bot:6} {module:6} {players}p: {pps:8.0f} plies/s {gps:6.2f} games/s  ({avg} plies/game)")


if __name__ == "__main__":
    main()
