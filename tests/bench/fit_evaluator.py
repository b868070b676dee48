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

    .venv/bin/python tests/bench/fit_evaluator.py --value [--games 120] [--every 3] [--jobs 2] [--write]

fits the value at the cut instead (``VALUE_FIT``): for each game that declares one
(``eval_spec().value``, an ``evaluate.LinearCut``) and each of its setups with two rows or
more, ``--games`` greedy self-play games (seeds ``value/<setup>/<i>``) give, at every
``--every``-th ply of the true (full) position, each row's cut features and its final
total; least squares (a tiny ridge) fits the weights on four games in five, and the
fifth are held out: printed is the spread of the final total around the fitted value
there, against the spread around the points so far plus the mean still to come.
"""

from __future__ import annotations

import argparse
import json
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


def _rows(
    title: str, players: int, options: dict[str, Any] | None, i: int, every: int
) -> list[tuple[list[float], float]]:
    """(features, final total) of every row at every `every`-th ply of one greedy self-play game."""
    game = games.get(title)
    cut = evaluate.spec_of(game).value
    assert isinstance(cut, evaluate.LinearCut)
    bots = [game.bot("greedy") for _ in range(players)]
    st = game.new(players, seed=f"value/{title}/{players}/{i}", options=options)
    rng = Rng(f"value/{title}/{players}/{i}/play")
    seen: list[list[list[float]]] = []
    while (cur := st.current) is not None:
        if st.ply % every == 0:
            seen.append([list(cut.features(st, r)) for r in range(len(st.scores().totals))])
        if cur == CHANCE:
            st.apply(st.sample_chance(rng.fork(st.ply)))
        else:
            st.apply(bots[cur].choose(st.view(cur), rng.fork(st.ply)))
    final = st.scores().totals
    return [(f, float(final[r])) for rows in seen for r, f in enumerate(rows)]


def least_squares(rows: list[tuple[list[float], float]], ridge: float = 1e-3) -> list[float]:
    """Weights minimising the squared error (normal equations, Gauss-Jordan; no dependency)."""
    k = len(rows[0][0])
    m = [[0.0] * (k + 1) for _ in range(k)]
    for f, y in rows:
        for a in range(k):
            fa = f[a]
            if fa:
                ma = m[a]
                for b in range(k):
                    ma[b] += fa * f[b]
                ma[k] += fa * y
    for a in range(k):
        m[a][a] += ridge * len(rows)
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        d = m[c][c]
        m[c] = [x / d for x in m[c]]
        for r in range(k):
            if r != c and m[r][c]:
                e = m[r][c]
                m[r] = [x - e * y for x, y in zip(m[r], m[c])]
    return [m[a][k] for a in range(k)]


def fit_values(
    setups: list[tuple[str, int, dict[str, Any] | None]], n: int, every: int, jobs: int
) -> dict[str, tuple[float, ...]]:
    out: dict[str, tuple[float, ...]] = {}
    with ProcessPoolExecutor(jobs) as ex:
        for title, players, options in setups:
            game = games.get(title)
            first = game.new(players, seed="k", options=options)
            if not isinstance(evaluate.spec_of(game).value, evaluate.LinearCut) or len(first.scores().totals) < 2:
                continue
            jobs_ = [(title, players, options, i, every) for i in range(n)]
            per_game = list(ex.map(_rows, *zip(*jobs_)))
            held = [r for i, g in enumerate(per_game) if i % 5 == 4 for r in g]
            train = [r for i, g in enumerate(per_game) if i % 5 != 4 for r in g]
            w = least_squares(train)
            res = [y - sum(a * b for a, b in zip(w, f)) for f, y in held]
            # Baseline: the points so far (feature 2 by convention of the cut features) plus
            # the mean of what is still to come over the training rows.
            gain = sum(y - f[2] for f, y in train) / len(train)
            base = [y - f[2] - gain for f, y in held]
            key = evaluate.fit_key(title, first)
            out[key] = tuple(round(x, 4) for x in w)
            print(
                f"{key}: {len(train)} rows fitted, {len(held)} held out; final total around the value "
                f"{_rms(res):.2f} points (bias {sum(res) / len(res):+.2f}), around points so far + mean to come "
                f"{_rms(base):.2f}",
                flush=True,
            )
    return out


def _rms(xs: list[float]) -> float:
    return math.sqrt(sum(x * x for x in xs) / max(1, len(xs)))


def _entry(key: str, value: tuple[float, ...]) -> str:
    """One entry as ruff formats it (one line if it fits, else one number a line)."""
    line = f"    {json.dumps(key)}: {value!r},\n"
    if len(line) <= 121:
        return line
    return f"    {json.dumps(key)}: (\n" + "".join(f"        {x!r},\n" for x in value) + "    ),\n"


def _rewrite(name: str, typ: str, fits: dict[str, Any]) -> None:
    """Replace the dict `name` in core/evaluate_fit.py, keeping the other one."""
    path = Path(__file__).resolve().parents[2] / "core" / "evaluate_fit.py"
    text = path.read_text()
    start = text.index(f"{name}: Final")
    end = (
        text.index("\n}\n", start) + 3
        if "{}" not in text[start : text.index("\n", start)]
        else text.index("\n", start) + 1
    )
    body = "".join(_entry(k, v) for k, v in sorted(fits.items()))
    cmd = " ".join(["tests/bench/fit_evaluator.py", *sys.argv[1:]])
    path.write_text(text[:start] + f"{name}: Final[dict[str, {typ}]] = {{\n    # {cmd}\n{body}}}\n" + text[end:])
    print(f"wrote {name} in {path}")


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
    p.add_argument("--value", action="store_true", help="fit the value at the cut (VALUE_FIT) instead")
    p.add_argument("--every", type=int, default=3, help="--value: plies between two samples of a game")
    a = p.parse_args()
    setups = [s for s in SETUPS if not a.only or f"{s[0]}/{s[1]}" in a.only.split(",")]
    if a.only and a.write:
        raise SystemExit("--write refits every setup: leave out --only")
    if a.value:
        values = fit_values(setups, a.games, a.every, a.jobs)
        if a.write:
            _rewrite("VALUE_FIT", "tuple[float, ...]", values)
        return
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
        _rewrite("WIN_FIT", "tuple[float, float]", fits)


if __name__ == "__main__":
    main()
