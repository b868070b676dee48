"""Is the review's luck honest? (issue 48 item 3; docs/coach.md, "Luck").

    .venv/bin/python tests/bench/luck.py [--titles crown,fisheries,aquatica] [--games 20]
        [--bots random,random] [--seed luck]

For each title, ``--games`` 2-player games are simulated (seeds ``SEED-0``, ``SEED-1``, …)
and every chance event's luck is measured for both seats (``core/luck.py``, the default
budget). Printed per title and seat: the mean final result, the mean luck and the mean
luck-adjusted result, each with its standard error over the games, and whether the
luck-adjusted mean is within two standard errors of zero (with random against random,
neither seat has skill to show, so it should be, but for any edge of the seats' order,
which the mean result shows), and each figure's spread over the games (a game's standard
deviation: where the draws explain the results, the luck-adjusted result spreads less than
the result); then the games some seat won only by
its draws (won, luck clearly above the margin, lost on skill), and the CPU seconds a
game's luck took. Figures only: nothing here fails on a number.
"""

from __future__ import annotations

import argparse
import math
import time

from coldwater.core import games
from coldwater.core.luck import final_result, luck_events, seat_luck
from coldwater.core.simulate import simulate


def mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, math.inf
    m = sum(xs) / n
    se = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n) if n > 1 else math.inf
    return m, se


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--titles", default="crown,fisheries,aquatica")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--bots", default="random,random")
    ap.add_argument("--seed", default="luck")
    args = ap.parse_args()
    for name in args.titles.split(","):
        game = games.get(name)
        rows: list[list[tuple[float, float, float, float]]] = [[], []]
        on_draws: list[str] = []
        cpu: list[float] = []
        for i in range(args.games):
            res = next(simulate(game, 2, 1, f"{args.seed}-{i}", bot=args.bots, records=True))
            rec = res.record
            assert rec is not None
            t = time.process_time()
            events = [e for _, _, e in luck_events(rec, game)]
            cpu.append(time.process_time() - t)
            result = final_result(rec, game)
            for s in range(2):
                sl = seat_luck(s, result[s], events)
                rows[s].append((sl.result, sl.luck, sl.luck_adjusted, sl.luck_se))
                if sl.result > 0 and sl.luck_adjusted < 0 and sl.luck > 2 * sl.luck_se:
                    on_draws.append(
                        f"{args.seed}-{i} seat {s + 1}: won by {sl.result:.1f}, luck {sl.luck:+.1f} ± {sl.luck_se:.1f}"
                    )
        print(f"== {name}: {args.games} games, {args.bots}")
        for s in range(2):
            res_m, res_se = mean_se([r[0] for r in rows[s]])
            luck_m, luck_se = mean_se([r[1] for r in rows[s]])
            adj_m, adj_se = mean_se([r[2] for r in rows[s]])
            within = abs(adj_m) <= 2 * adj_se
            inner = sum(r[3] for r in rows[s]) / max(1, len(rows[s]))
            # Spread a game: the draws explain the result where result − luck spreads less than it.
            root = math.sqrt(len(rows[s]))
            print(
                f"  seat {s + 1}: result {res_m:+.2f} ± {res_se:.2f}; luck {luck_m:+.2f} ± {luck_se:.2f} "
                f"(a game's own ± {inner:.1f}); luck-adjusted {adj_m:+.2f} ± {adj_se:.2f} "
                f"({'within' if within else 'NOT within'} 2 SE of 0); spread a game: result "
                f"{res_se * root:.1f}, luck {luck_se * root:.1f}, luck-adjusted {adj_se * root:.1f}"
            )
        cpu.sort()
        print(f"  won on the draws: {len(on_draws)} ({'; '.join(on_draws[:4])})")
        print(f"  CPU a game: median {cpu[len(cpu) // 2]:.1f} s, max {cpu[-1]:.1f} s", flush=True)


if __name__ == "__main__":
    main()
