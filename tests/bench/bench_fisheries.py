"""Fisheries of Gloucester benchmark: plies/s, games/s, clone and legal() times.

Run: ``.venv/bin/python tests/bench/bench_fisheries.py [--games N]``.
Prints figures only; it never fails on time.
"""

from __future__ import annotations

import argparse
import time

from coldwater.core.fisheries.game import GAME
from coldwater.core.rng import Rng

try:  # run as a script: tests/bench is on sys.path
    from chess_baseline import engine_random_plies, print_ratio
except ImportError:  # imported as tests.bench.bench_*
    from .chess_baseline import engine_random_plies, print_ratio
from coldwater.core.simulate import play_out


def bench_games(bot: str, games: int, options: dict | None) -> tuple[float, float, int]:
    plies = 0
    t0 = time.perf_counter()
    for i in range(games):
        s = play_out(GAME.new(2, seed=f"bench/{i}", options=options), [GAME.bot(bot), GAME.bot(bot)], Rng(i))
        plies += s.ply
    dt = time.perf_counter() - t0
    return plies / dt, games / dt, plies


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    args = ap.parse_args()
    engine_random_plies(GAME, 2, 2)  # warm the per-content tables
    print_ratio("Fisheries", *engine_random_plies(GAME, 2, args.games))
    for bot in GAME.bots:
        for label, options in (("A", None), ("B+market", {"board": "B", "market": True})):
            pps, gps, plies = bench_games(bot, args.games, options)
            print(f"{bot:>7} {label:<9} {gps:8.1f} games/s {pps:10.0f} plies/s ({plies / args.games:.0f} plies/game)")
    # A mid-game position: clone, legal() and to_text() cost.
    s = GAME.new(2, seed="clone")
    bots = [GAME.bot("greedy"), GAME.bot("greedy")]
    rng = Rng(0)
    while s.data.day < 3 and s.current is not None:
        cur = s.current
        s.apply(s.sample_chance() if cur < 0 else bots[cur].choose(s.view(cur), rng.fork(s.ply)))
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        s.clone()
    clone_us = (time.perf_counter() - t0) / n * 1e6
    t0 = time.perf_counter()
    for _ in range(n // 4):
        s.clone().legal()
    legal_us = (time.perf_counter() - t0) / (n // 4) * 1e6 - clone_us
    print(
        f"clone {clone_us:.1f} us   legal() {legal_us:.0f} us ({len(s.legal())} actions)   "
        f"state {len(s.encode())} bytes"
    )


if __name__ == "__main__":
    main()
