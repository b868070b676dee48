"""The review's own figures (issue 31, "Measured"): does it tell good play from bad, is its advice right, how long.

    .venv/bin/python tests/bench/coach.py [--titles crown,fisheries,aquatica] [--seeds 0-5]
        [--levels random,greedy,hard] [--depth 1] [--continuations 16] [--advice 3] [--jobs 2]
    .venv/bin/python tests/bench/coach.py --report FILE
    .venv/bin/python tests/bench/coach.py --hints 12 [--titles ...] [--seeds 0-1]

For each title and seed, a 2-player game is played with seat 1 by the level and seat 2
by ``greedy`` (the same opponent for every level); seat 1's decisions are reviewed at
the default budget (``--depth``). Printed:

- **mean loss per decision** of each level (all its reviewed decisions pooled; a
  decision is one with more than one legal choice), and the ratios random/greedy and
  hard/greedy: the review tells good play from bad if random's is >= 3x greedy's and
  hard's is the smallest;
- **advice gain**: at the ``--advice`` costliest decisions of each greedy game, the
  true position (hidden values included: this is the referee, not the review) is
  played on from the suggested choice and from the choice made, ``--continuations``
  times each with the same chance seeds for both, every seat by its own bot; the gain
  is the seat's final margin (own total minus the best rival's) with the suggestion
  minus without it. Mean and 95% interval over the decisions (each the mean of its
  continuations, so continuations of one decision are not counted as independent);
- **speed**: wall and CPU seconds to review one seat's whole game (median, max), and
  per decision (what a hint at the same budget would take: median, 95th percentile).

Each game writes one JSON line to stderr as it ends; ``--report FILE`` prints the
figures from a file of such lines.

``--hints N`` measures hints instead (``h`` at the table): for each title and seed, a
greedy 2-player game's seat-1 decisions, N of them spread over the game, are asked of
the bots' worker process (``Thinker.hint``, the app's way, round trip included) at the
default hint budget; printed: **hint latency** per title (median, max seconds), and the
**gentle word's** share of decisions (Learn to play: a greedy and a random seat's
decisions whose hint-engine loss reaches ``tutor.HINT_GENTLE_LOSS``).

Figures only; nothing here fails.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from coldwater.core import games, record
from coldwater.core.review import default_budget, margin, review_seat, summarize
from coldwater.core.rng import Rng
from coldwater.core.simulate import play_out
from coldwater.core.state import CHANCE, Bot, State


def _bots(game: Any, names: list[str]) -> list[Bot]:
    bots = [game.bot(n) for n in names]
    for b in bots:
        if hasattr(b, "max_seconds"):
            b.max_seconds = math.inf  # the budget alone decides: figures repeat for the same seeds
    return bots


def _continue(st: State[Any, Any], bots: list[Bot], seed: str) -> None:
    """Play `st` to the end: every seat by its bot, chance from `seed` by ply."""
    chance, moves = Rng(seed).fork("chance"), Rng(seed).fork("bots")
    while (cur := st.current) is not None:
        if cur == CHANCE:
            st.apply(st.sample_chance(chance.fork(st.ply)))
        else:
            st.apply(bots[cur].choose(st.view(cur), moves.fork(st.ply)))


def one(title: str, seed: str, level: str, depth: int, advice: int, conts: int) -> dict[str, Any]:
    game = games.get(title)
    names = [level, "greedy"]
    state = game.new(2, seed=f"coach/{seed}")
    rec = record.start(game, state, None, meta={"seats": ", ".join(names)})
    play_out(state, _bots(game, names), Rng(f"coach/{seed}"), record=rec)
    budget = default_budget(game).deeper(depth)
    done, per = [], []
    w0, c0 = time.perf_counter(), time.process_time()
    for _, _, r in review_seat(rec, game, 0, budget=budget):
        w1 = time.perf_counter()
        per.append(w1 - w0)
        done.append(r)
        w0 = w1
    wall = sum(per)
    cpu = time.process_time() - c0
    sr = summarize(title, 0, done, worst=advice)
    gains: list[float] = []
    if level == "greedy":
        bots = _bots(game, names)
        for d in sr.worst:
            _, st = record.initial_state(rec, game)
            for e in rec.entries[: d.ply]:
                st.apply(game.parse_action(e.action))
            diffs = []
            for m in range(conts):
                out = []
                for text in (d.best, d.chosen):
                    s = st.clone()
                    s.apply(game.parse_action(text))
                    _continue(s, bots, f"cont/{seed}/{d.ply}/{m}")
                    out.append(margin(s.scores().totals, 0))
                diffs.append(out[0] - out[1])
            gains.append(statistics.fmean(diffs))
    return {
        "title": title,
        "seed": seed,
        "level": level,
        "decisions": sr.decisions,
        "total_loss": sr.total_loss,
        "wall": wall,
        "cpu": cpu,
        "per_decision": per,
        "worst": [(d.ply, d.loss) for d in sr.worst],
        "gains": gains,
        "final": list(state.scores().totals),
    }


def _interval(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{xs[0]:+.2f} (one decision)" if xs else "none"
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+.2f} points, 95% interval {m - h:+.2f} to {m + h:+.2f} ({len(xs)} decisions)"


def report(rows: list[dict[str, Any]]) -> None:
    for title in dict.fromkeys(r["title"] for r in rows):
        mine = [r for r in rows if r["title"] == title]
        print(f"{title}: {len({r['seed'] for r in mine})} seeds, seat 1 by the level against greedy")
        loss: dict[str, float] = {}
        for level in dict.fromkeys(r["level"] for r in mine):
            lv = [r for r in mine if r["level"] == level]
            dec = sum(r["decisions"] for r in lv)
            loss[level] = sum(r["total_loss"] for r in lv) / max(1, dec)
            games_ = ", ".join(f"{r['total_loss'] / max(1, r['decisions']):.2f}" for r in lv)
            print(f"  {level:7} mean loss {loss[level]:.3f} a decision over {dec} decisions (games: {games_})")
        if loss.get("greedy"):
            for level in ("random", "hard"):
                if level in loss:
                    print(f"  {level}/greedy loss ratio {loss[level] / loss['greedy']:.2f}")
        gains = [g for r in mine for g in r["gains"]]
        print(f"  advice gain at greedy's costliest decisions: {_interval(gains)}")
        walls = sorted(r["wall"] for r in mine)
        cpus = sorted(r["cpu"] for r in mine)
        per = sorted(x for r in mine for x in r["per_decision"])
        if walls:
            print(
                f"  one seat's whole game: wall median {statistics.median(walls):.1f} s, max {walls[-1]:.1f} s; "
                f"CPU median {statistics.median(cpus):.1f} s, max {cpus[-1]:.1f} s"
            )
        if per:
            p95 = per[min(len(per) - 1, int(0.95 * len(per)))]
            print(f"  per decision (a hint at this budget): median {statistics.median(per):.2f} s, p95 {p95:.2f} s")


def _hint_positions(title: str, seed: str, level: str, n: int) -> list[Any]:
    """`n` of seat 1's decision views, spread over a 2-player game (seat 1 by `level`, seat 2 greedy)."""
    from coldwater.core.review import decisions
    from coldwater.core.simulate import simulate

    game = games.get(title)
    res = next(simulate(game, 2, 1, f"hints/{seed}", bot=f"{level},greedy", records=True))
    assert res.record is not None
    ds = list(decisions(res.record, game, 0))
    step = max(1, len(ds) // max(1, n))
    return ds[::step][:n]


async def _hints(titles: list[str], seeds: list[str], n: int) -> None:
    from coldwater.core.review import hint_budget
    from coldwater.net.play.thinker import Thinker
    from coldwater.tui import tutor

    thinker = Thinker()
    try:
        for title in titles:
            game = games.get(title)
            took: list[float] = []
            losses: dict[str, list[float]] = {"greedy": [], "random": []}
            threshold = tutor.HINT_GENTLE_LOSS[title]
            for seed in seeds:
                for level in ("greedy", "random"):
                    for d in _hint_positions(title, seed, level, n):
                        t0 = time.perf_counter()
                        await thinker.hint(game, None, d.view)
                        took.append(time.perf_counter() - t0)
                        # The gentle word's question: how far below the best was the choice made?
                        h = await thinker.hint(game, None, d.view, include=d.chosen)
                        ranked = tutor.hint_ranking(h, d.chosen, game.parse_action)
                        losses[level].append(max(v for _, v in ranked) - ranked[-1][1] if ranked else 0.0)
            took.sort()
            b = hint_budget(game)
            print(
                f"{title}: hint latency over {len(took)} positions ({b.worlds} worlds, {b.width} candidates): "
                f"median {statistics.median(took):.2f} s, max {took[-1]:.2f} s"
            )
            unit = "PP" if title == "aquatica" else "points"
            for level, lost in losses.items():
                share = sum(x >= threshold for x in lost) / max(1, len(lost))
                cuts = ", ".join(f">= {t}: {sum(x >= t for x in lost) / max(1, len(lost)):.0%}" for t in (2, 3, 4, 5))
                print(
                    f"  gentle word (>= {threshold} {unit}) after {share:.0%} of a {level} seat's "
                    f"{len(lost)} decisions (clear losses {cuts})"
                )
    finally:
        await thinker.close()
        assert not thinker.notices, list(thinker.notices)


def _seeds(text: str) -> list[str]:
    if "-" in text and text.replace("-", "").isdigit():
        a, b = text.split("-")
        return [str(i) for i in range(int(a), int(b) + 1)]
    return text.split(",")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--titles", default="crown,fisheries,aquatica")
    p.add_argument("--seeds", default="0-3")
    p.add_argument("--levels", default="random,greedy,hard")
    p.add_argument("--depth", type=int, default=1)
    p.add_argument("--advice", type=int, default=3)
    p.add_argument("--continuations", type=int, default=16)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--report")
    p.add_argument("--hints", type=int, default=0, help="measure hints at N positions per game instead")
    a = p.parse_args()
    if a.hints:
        import asyncio

        asyncio.run(_hints(a.titles.split(","), _seeds(a.seeds), a.hints))
        return
    if a.report:
        with open(a.report) as f:
            report([json.loads(line) for line in f if line.startswith("{")])
        return
    tasks = [
        (t, s, lv, a.depth, a.advice, a.continuations)
        for t in a.titles.split(",")
        for s in _seeds(a.seeds)
        for lv in a.levels.split(",")
    ]
    rows = []
    with ProcessPoolExecutor(a.jobs) as ex:
        for row in ex.map(one, *zip(*tasks)):
            print(json.dumps(row), file=sys.stderr, flush=True)
            rows.append(row)
    report(rows)


if __name__ == "__main__":
    main()
