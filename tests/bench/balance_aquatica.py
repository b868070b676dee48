"""Self-play balance check: bots on every seat, win rate by seat, cards in winners' hands.

    .venv/bin/python tests/bench/balance_aquatica.py [--games N] [--module goals|tribes]
        [--kings basic|advanced] [--players 2,3,4,5] [--content PATH] [--jobs J] [--bot greedy|hard|...]

The greedy bot by default (thousands of games a minute); ``--bot hard`` plays the
search level on every seat, about a thousand times slower, for a small sample.

For each player count it prints the win rate by seat, how far the furthest seat is
from a fair share (1/N), average PP by seat and the cards most often in the winner's
hand. Ties count for the seat the rulebook's tie-breaks rank first. Solo (1 player)
prints outcomes instead. With --content it checks a person's own card data.
"""

from __future__ import annotations

import argparse
import functools
import math
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from coldwater.core.aquatica.game import GAME, AquaticaGame
from coldwater.core.rng import Rng
from coldwater.core.simulate import play_out
from coldwater.net.play.files import read_content


@functools.cache
def _load(content: str | None) -> AquaticaGame:
    """The game with this content, compiled once per worker process."""
    return GAME.with_content(read_content(content)) if content else GAME


def one(args: tuple[int, str, int, str, str | None, str]) -> tuple[int, list[int], list[str], str]:
    players, module, i, kings, content, bot = args
    g = _load(content)
    s = g.new(players, seed=f"bal/{players}/{module}/{kings}/{i}", options={"module": module, "kings": kings})
    bots = [g.bot(bot) for _ in range(players)]
    for b in bots:
        if hasattr(b, "max_seconds"):
            b.max_seconds = math.inf  # the budget alone decides: repeatable figures
    play_out(s, bots, Rng(i))
    sc = s.scores()
    w = sc.ranking[0]
    k = g.deck
    hand = [k.char_name[c] for c in s.data.ps[w].hand if c >= 30]
    return w, list(sc.totals), hand, sc.outcome


def report(players: int, res: list[Any], label: str) -> float:
    """Print one player count's figures; returns the furthest seat's distance from fair, in points."""
    n = len(res)
    wins = Counter(r[0] for r in res)
    avg = [sum(r[1][s] for r in res) / n for s in range(players)]
    cards = Counter(c for r in res for c in set(r[2]))
    print(f"== {players} player(s), {label}, {n} games")
    dev = 0.0
    if players == 1:
        print("  outcomes:", Counter(r[3].split(":")[-1].strip()[:40] for r in res).most_common(6))
        print(f"  average PP: {avg[0]:.1f}")
    else:
        rates = [100 * wins[s] / n for s in range(players)]
        dev = max(abs(r - 100 / players) for r in rates)
        print(
            "  win rate by seat:",
            "  ".join(f"S{s + 1} {r:.1f}%" for s, r in enumerate(rates)),
            f"  (furthest from fair {100 / players:.1f}%: {dev:.1f} points)",
        )
        print("  average PP by seat:", "  ".join(f"S{s + 1} {v:.1f}" for s, v in enumerate(avg)))
    print("  most common cards in winners' hands:", ", ".join(f"{c} {k / n:.0%}" for c, k in cards.most_common(6)))
    return dev


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--module", default="goals", choices=["goals", "tribes"])
    ap.add_argument("--kings", default="basic", choices=["basic", "advanced"])
    ap.add_argument("--players", default="2,3,4,5")
    ap.add_argument("--content", default=None, help="a folder or file of your own card data")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bot", default="greedy", help="the bot on every seat (greedy, easy, normal, hard, random)")
    a = ap.parse_args()
    label = f"{a.bot} bots, {a.module}, kings {a.kings}" + (f", content {a.content}" if a.content else "")
    devs: list[float] = []
    with ProcessPoolExecutor(a.jobs) as ex:
        for players in [int(x) for x in a.players.split(",")]:
            jobs = [(players, a.module, i, a.kings, a.content, a.bot) for i in range(a.games)]
            res = list(ex.map(one, jobs, chunksize=25 if a.bot == "greedy" else 1))
            dev = report(players, res, label)
            if players > 1:
                devs.append(dev)
    if devs:
        print(f"furthest seat from fair over all counts: {max(devs):.1f} points")


if __name__ == "__main__":
    main()
