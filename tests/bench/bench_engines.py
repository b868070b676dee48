"""All three engines beside python-chess, in one run: random-play plies/s and the ratio.

Run: ``.venv/bin/python tests/bench/bench_engines.py [--rounds R] [--slice S]``
(``pip install chess`` first: python-chess is the yardstick, not a dependency).

Each engine plays 2-player games at random straight on the full state, as
``chess_baseline.engine_random_plies`` does: ``legal()`` then ``apply()`` every
ply, chance outcomes drawn with ``sample_chance``, nothing reused between
positions that a real game would not reuse. python-chess plays random games
(``list(board.legal_moves)`` then ``push``). The two alternate in slices of about
S seconds (chess, engine, chess, next engine, ...), R rounds, and each engine is
compared with the chess slices on either side of its own, so load that comes and
goes on a shared machine weighs on both alike. Figures are CPU time of this
process; each round's ratio is printed too, to show the spread. Prints figures
only; it never fails on time.
"""

from __future__ import annotations

import argparse
from typing import Any

from coldwater.core.aquatica.game import GAME as AQUATICA
from coldwater.core.crown.game import GAME as CROWN
from coldwater.core.fisheries.game import GAME as FISHERIES

try:  # run as a script: tests/bench is on sys.path
    from chess_baseline import ChessClock, engine_random_plies
except ImportError:  # imported as tests.bench.bench_engines
    from .chess_baseline import ChessClock, engine_random_plies

ENGINES: list[tuple[str, Any, float]] = [
    ("Coldwater Crown", CROWN, 5.0),
    ("Aquatica", AQUATICA, 2.0),
    ("Fisheries of Gloucester", FISHERIES, 2.0),
]
"""(title, game, aim as a multiple of python-chess's plies/s)."""


def engine_slice(game: Any, seconds: float, first: int) -> tuple[int, float, float, int]:
    """Whole random games from number `first` on for about `seconds` of CPU time:
    (plies, CPU s, wall s, next game number)."""
    plies, cpu, wall = 0, 0.0, 0.0
    g = first
    while cpu < seconds:
        p, c, w = engine_random_plies(game, 2, 1, first=g)
        plies, cpu, wall, g = plies + p, cpu + c, wall + w, g + 1
    return plies, cpu, wall, g


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="chess/engine alternations per engine")
    ap.add_argument("--slice", type=float, default=1.0, help="seconds per slice")
    args = ap.parse_args()
    clock = ChessClock.make()
    if clock is None:
        print("python-chess is not installed (pip install chess): engine figures only")
    for _, game, _ in ENGINES:
        engine_random_plies(game, 2, 2)  # warm the per-content tables
    totals = {title: [0, 0.0, 0.0, 0, 0.0] for title, _, _ in ENGINES}  # plies, cpu, wall; chess plies, cpu
    rounds: dict[str, list[float]] = {title: [] for title, _, _ in ENGINES}
    next_game = {title: 100 for title, _, _ in ENGINES}
    for _ in range(args.rounds):
        for title, game, _ in ENGINES:
            t = totals[title]
            c1 = clock.play(args.slice) if clock else (0, 0.0, 0.0)
            p, c, w, next_game[title] = engine_slice(game, args.slice, next_game[title])
            c2 = clock.play(args.slice) if clock else (0, 0.0, 0.0)
            t[0] += p
            t[1] += c
            t[2] += w
            t[3] += c1[0] + c2[0]
            t[4] += c1[1] + c2[1]
            if clock:
                rounds[title].append((p / c) / ((c1[0] + c2[0]) / (c1[1] + c2[1])))
    for title, _, aim in ENGINES:
        plies, cpu, wall, cp, cc = totals[title]
        line = f"{title:<24} {plies / cpu:9,.0f} plies/s CPU ({plies / wall:,.0f} wall)"
        if clock:
            ratio = (plies / cpu) / (cp / cc)
            spread = ", ".join(f"{x:.2f}" for x in rounds[title])
            line += (
                f"; python-chess beside it {cp / cc:,.0f} -> {ratio:.2f}x"
                f" (rounds: {spread}; aim >= {aim:g}x: {'met' if ratio >= aim else 'NOT met'})"
            )
        print(line)


if __name__ == "__main__":
    main()
