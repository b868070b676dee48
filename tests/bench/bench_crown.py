"""Coldwater Crown engine benchmark: prints figures, never asserts on time.

Run: ``python tests/bench/bench_crown.py [--games N]``

- decisions/s: plies (legal() + apply(), chance draws included) in random play
  straight on the full state, the python-chess-perft style figure;
- full games/s at 2 and 4 players with the random bot through views, as
  ``coldwater simulate`` plays them;
- clone() time on a mid-game position.

Decisions/s are given as CPU time of this process (time.process_time), which a
busy machine distorts less, and as wall-clock time; the rest is CPU time.
"""

from __future__ import annotations

import argparse
import time

from coldwater.core.crown.game import GAME

try:  # run as a script: tests/bench is on sys.path
    from chess_baseline import chess_random_plies
except ImportError:  # imported as tests.bench.bench_crown
    from .chess_baseline import chess_random_plies
from coldwater.core.rng import Rng
from coldwater.core.simulate import play_out
from coldwater.core.state import CHANCE


def random_plies(players: int, games: int) -> tuple[int, float, float]:
    plies = 0
    w0 = time.perf_counter()
    t0 = time.process_time()
    for g in range(games):
        s = GAME.new(players, seed=f"bench/{players}/{g}")
        r = Rng(g)
        while True:
            legal = s.legal()
            if not legal:
                break
            if s.current == CHANCE:
                a = s.sample_chance(r)
            else:
                a = legal[r.below(len(legal))]
            s.apply(a)
        plies += s.ply
    return plies, time.process_time() - t0, time.perf_counter() - w0


def full_games(players: int, games: int, bot: str) -> float:
    t0 = time.process_time()
    for g in range(games):
        s = GAME.new(players, seed=f"games/{players}/{g}")
        play_out(s, [GAME.bot(bot) for _ in range(players)], Rng(g))
    return games / (time.process_time() - t0)


def clone_time(n: int = 2000) -> float:
    s = GAME.new(4, seed="clone")
    r = Rng(1)
    while s.ply < 400 and not s.is_over:
        s.apply(s.sample_chance(r) if s.current == CHANCE else r.choice(s.legal()))
    t0 = time.process_time()
    for _ in range(n):
        s.clone()
    return (time.process_time() - t0) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args()
    total_p = 0
    total_t = total_w = 0.0
    for n in (1, 2, 3, 4):
        p, t, w = random_plies(n, args.games)
        total_p += p
        total_t += t
        total_w += w
        print(
            f"random play, {n} player(s): {p / t:,.0f} decisions/s CPU, {p / w:,.0f} wall "
            f"({p} plies, {p / args.games:.0f} per game)"
        )
    print(
        f"random play, all counts:   {total_p / total_t:,.0f} decisions/s CPU, {total_p / total_w:,.0f} wall "
        "(legal + apply, chance included)"
    )
    for n in (2, 4):
        print(
            f"full games/s, {n} players, random bot via views: {full_games(n, max(4, args.games // 4), 'random'):.2f}"
        )
        print(
            f"full games/s, {n} players, greedy bot via views: {full_games(n, max(4, args.games // 4), 'greedy'):.2f}"
        )
    print(f"clone(): {clone_time() * 1e6:.1f} µs (mid-game, 4 players)")
    base = chess_random_plies()
    if base is None:
        print("python-chess baseline: not installed (pip install chess to compare)")
    else:
        print(
            f"python-chess random play: {base[0]:,.0f} plies/s CPU, {base[1]:,.0f} wall; "
            f"Crown/chess ratio {total_p / total_t / base[0]:.2f}x (CPU)"
        )


if __name__ == "__main__":
    main()
