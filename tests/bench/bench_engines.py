"""All three engines beside python-chess, in one run: random-play plies/s and the ratio.

Run: ``.venv/bin/python tests/bench/bench_engines.py [--games N] [--rounds R]``
(``pip install chess`` first: python-chess is the yardstick, not a dependency).

Each engine plays 2-player games at random straight on the full state, as
``chess_baseline.engine_random_plies`` does: ``legal()`` then ``apply()`` every
ply, chance outcomes drawn with ``sample_chance``, nothing reused between
positions that a real game would not reuse. python-chess plays random games
(``list(board.legal_moves)`` then ``push``) for 3 s before the engines and again
after them; each ratio is against the mean of the two, so a machine whose load
changes during the run shifts both sides alike. Figures are CPU time of this
process. Prints figures only; it never fails on time.
"""

from __future__ import annotations

import argparse
from typing import Any

from coldwater.core.aquatica.game import GAME as AQUATICA
from coldwater.core.crown.game import GAME as CROWN
from coldwater.core.fisheries.game import GAME as FISHERIES

try:  # run as a script: tests/bench is on sys.path
    from chess_baseline import chess_random_plies, engine_random_plies
except ImportError:  # imported as tests.bench.bench_engines
    from .chess_baseline import chess_random_plies, engine_random_plies

ENGINES: list[tuple[str, Any, float]] = [
    ("Coldwater Crown", CROWN, 5.0),
    ("Aquatica", AQUATICA, 2.0),
    ("Fisheries of Gloucester", FISHERIES, 2.0),
]
"""(title, game, aim as a multiple of python-chess's plies/s)."""


def one_round(games: int) -> None:
    before = chess_random_plies()
    if before is None:
        print("python-chess is not installed (pip install chess): engine figures only")
    rates = []
    for title, game, aim in ENGINES:
        engine_random_plies(game, 2, 2)  # warm the per-content tables
        plies, cpu, wall = engine_random_plies(game, 2, games)
        rates.append((title, plies / cpu, plies / wall, aim))
    after = chess_random_plies()
    chess = None if before is None or after is None else (before[0] + after[0]) / 2
    if chess is not None and before is not None and after is not None:
        print(f"python-chess random play: {before[0]:,.0f} plies/s CPU before, {after[0]:,.0f} after")
    for title, cpu_rate, wall_rate, aim in rates:
        line = f"{title:<24} {cpu_rate:9,.0f} plies/s CPU ({wall_rate:,.0f} wall)"
        if chess is not None:
            ratio = cpu_rate / chess
            line += f"  {ratio:5.2f}x python-chess (aim >= {aim:g}x: {'met' if ratio >= aim else 'NOT met'})"
        print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=30, help="games per engine per round")
    ap.add_argument("--rounds", type=int, default=1, help="repeat the whole comparison")
    args = ap.parse_args()
    for r in range(args.rounds):
        if args.rounds > 1:
            print(f"-- round {r + 1} of {args.rounds}")
        one_round(args.games)


if __name__ == "__main__":
    main()
