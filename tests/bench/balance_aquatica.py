"""Self-play balance check: greedy bots, win rate by seat, cards in winners' hands.

    .venv/bin/python tests/bench/balance_aquatica.py [--games N] [--module goals|tribes] [--jobs J]

Ties count for the seat the rulebook's tie-breaks rank first.
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from coldwater.core.aquatica.game import GAME
from coldwater.core.rng import Rng
from coldwater.core.simulate import play_out


def one(args: tuple[int, str, int, str]) -> tuple[int, list[int], list[str], str]:
    players, module, i, kings = args
    s = GAME.new(players, seed=f"bal/{players}/{module}/{kings}/{i}", options={"module": module, "kings": kings})
    play_out(s, [GAME.bot("greedy") for _ in range(players)], Rng(i))
    sc = s.scores()
    w = sc.ranking[0]
    k = GAME.deck
    hand = [k.char_name[c] for c in s.data.ps[w].hand if c >= 30]
    return w, list(sc.totals), hand, sc.outcome


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--module", default="goals")
    ap.add_argument("--kings", default="basic")
    ap.add_argument("--players", default="1,2,3,4,5")
    ap.add_argument("--jobs", type=int, default=4)
    a = ap.parse_args()
    with ProcessPoolExecutor(a.jobs) as ex:
        for players in [int(x) for x in a.players.split(",")]:
            res = list(ex.map(one, [(players, a.module, i, a.kings) for i in range(a.games)], chunksize=20))
            wins = Counter(r[0] for r in res)
            avg = [sum(r[1][s] for r in res) / len(res) for s in range(players)]
            cards = Counter(c for r in res for c in set(r[2]))
            print(f"== {players} player(s), {a.module}, kings {a.kings}, {len(res)} games")
            if players == 1:
                print("  outcomes:", Counter(r[3].split(":")[-1].strip()[:40] for r in res).most_common(6))
                print(f"  average PP: {avg[0]:.1f}")
            else:
                print("  win rate by seat:", "  ".join(f"S{s + 1} {wins[s] / len(res):.1%}" for s in range(players)))
                print("  average PP by seat:", "  ".join(f"S{s + 1} {v:.1f}" for s, v in enumerate(avg)))
            print("  most common cards in winners' hands:",
                  ", ".join(f"{c} {n / len(res):.0%}" for c, n in cards.most_common(6)))


if __name__ == "__main__":
    main()
