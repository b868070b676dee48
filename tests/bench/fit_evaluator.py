"""Fit the evaluator's win chance (core/evaluate_fit.py) from self-play, in one command.

    .venv/bin/python tests/bench/fit_evaluator.py [--games 24] [--positions 6] [--worlds 8] [--jobs 2] [--write]

For each game and player count in ``SETUPS``, ``--games`` greedy self-play games are
played (seeds ``fit/<setup>/<i>``); at ``--positions`` decisions spread over each game
the seat to move's position is valued by the evaluator (``evaluate.position``: the mean
of ``--worlds`` greedy playouts from determinized worlds of that seat's view, never the
true hidden values), and paired with whether that seat went on to win the real game
(by its mode's goal: ``evaluate.goal``). A logistic curve P(win) = 1/(1+exp(-(a+b*x)))
is fitted to those pairs by Newton's method (maximum likelihood, a tiny ridge so a
setup nobody loses still has a finite slope). Printed per setup: a, b, the pairs, the
win rate and the log loss against the base rate's; ``--write`` rewrites
core/evaluate_fit.py. Deterministic for its arguments (every Rng is seeded).
"""

from __future__ import annotations

import argparse
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from coldwater.core import evaluate, games
from coldwater.core.review import search_policy
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE

SETUPS: list[tuple[str, int, dict[str, Any] | None]] = [
    ("crown", 1, None),
    ("crown", 2, None),
    ("crown", 3, None),
    ("crown", 4, None),
    ("fisheries", 2, None),
    ("aquatica", 1, None),
    ("aquatica", 1, {"module": "tribes", "solo_level": 1}),
    ("aquatica", 2, None),
    ("aquatica", 3, None),
    ("aquatica", 4, None),
]
"""(game, players, options): each has its own curve (``evaluate.fit_key``)."""


def _pairs(
    title: str, players: int, options: dict[str, Any] | None, i: int, npos: int, worlds: int
) -> list[tuple[float, float]]:
    game = games.get(title)
    policy = search_policy(game)
    bots = [game.bot("greedy") for _ in range(players)]
    st = game.new(players, seed=f"fit/{title}/{players}/{i}", options=options)
    rng = Rng(f"fit/{title}/{players}/{i}/play")
    seen: list[tuple[int, Any]] = []
    while (cur := st.current) is not None:
        if cur == CHANCE:
            st.apply(st.sample_chance(rng.fork(st.ply)))
            continue
        if len(st.legal()) > 1:
            seen.append((cur, st.view(cur)))
        st.apply(bots[cur].choose(st.view(cur), rng.fork(st.ply)))
    step = max(1, len(seen) // max(1, npos))
    out = []
    for k, (seat, view) in enumerate(seen[step // 2 :: step][:npos]):
        col = evaluate.position(game, view, seat, Rng(f"fit/{title}/{players}/{i}/{k}"), policy, worlds)
        _, won = evaluate.goal(st, seat)
        out.append((col.mean(), won))
    return out


def fit(pairs: list[tuple[float, float]], ridge: float = 1e-3) -> tuple[float, float]:
    """Maximum-likelihood logistic regression of won on points (Newton's method, 2 parameters)."""
    a, b = 0.0, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in pairs:
            p = 1 / (1 + math.exp(-max(-40.0, min(40.0, a + b * x))))
            ga += y - p
            gb += (y - p) * x
            w = p * (1 - p)
            haa += w
            hab += w * x
            hbb += w * x * x
        ga -= ridge * a
        gb -= ridge * b
        haa += ridge
        hbb += ridge
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def _logloss(pairs: list[tuple[float, float]], a: float, b: float) -> float:
    s = 0.0
    for x, y in pairs:
        p = 1 / (1 + math.exp(-max(-40.0, min(40.0, a + b * x))))
        p = min(1 - 1e-6, max(1e-6, p))
        s -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return s / max(1, len(pairs))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=24)
    p.add_argument("--positions", type=int, default=6)
    p.add_argument("--worlds", type=int, default=8)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only", default="", help="game/players to fit, comma-separated (default: all)")
    p.add_argument("--write", action="store_true", help="rewrite core/evaluate_fit.py")
    a = p.parse_args()
    setups = [s for s in SETUPS if not a.only or f"{s[0]}/{s[1]}" in a.only.split(",")]
    if a.only and a.write:
        raise SystemExit("--write refits every setup: leave out --only")
    fits: dict[str, tuple[float, float]] = {}
    with ProcessPoolExecutor(a.jobs) as ex:
        for title, players, options in setups:
            jobs = [(title, players, options, i, a.positions, a.worlds) for i in range(a.games)]
            pairs = [pr for got in ex.map(_pairs, *zip(*jobs)) for pr in got]
            ca, cb = fit(pairs)
            base = sum(y for _, y in pairs) / max(1, len(pairs))
            b0 = math.log(max(1e-6, base) / max(1e-6, 1 - base))
            key = evaluate.fit_key(title, games.get(title).new(players, seed="k", options=options))
            fits[key] = (round(ca, 4), round(cb, 4))
            print(
                f"{key}: a {ca:+.3f}, b {cb:.4f} ({len(pairs)} positions, won {base:.0%}; "
                f"log loss {_logloss(pairs, ca, cb):.3f} against {_logloss(pairs, b0, 0.0):.3f} for the base rate)",
                flush=True,
            )
    if a.write:
        path = Path(__file__).resolve().parents[2] / "core" / "evaluate_fit.py"
        text = path.read_text()
        head = text[: text.index("WIN_FIT")]
        body = "".join(f"    {k!r}: {v!r},\n" for k, v in sorted(fits.items()))
        cmd = " ".join(["tests/bench/fit_evaluator.py", *sys.argv[1:]])
        path.write_text(head + f"WIN_FIT: Final[dict[str, tuple[float, float]]] = {{\n    # {cmd}\n{body}}}\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
