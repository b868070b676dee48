"""Luck, as backgammon players measure it: what each chance event gave or took from each seat.

For a chance event (a bait drawn, a fish's weight revealed, a card or Location turned, a
chart drawn) at the full position ``S`` and a seat ``s``:

    luck(s) = V_s(S + outcome) − Σ_o w_o · V_s(S + o) / Σ_o w_o

where ``V_s`` is the evaluator's worth of a position from ``s``'s view (the mode's goal in
points, :func:`.evaluate.goal`, played on by the greedy policy in determinized worlds of
``(S + o).view(s)`` to a horizon, where the game's fitted value at the cut stands in for the
rest). So it is measured only on what the seat could see: outcomes that
look the same to ``s`` (another seat's hidden draw) are one group, and a draw the seat
cannot tell apart from any other is worth exactly 0 luck to it.

- **Common random numbers.** Every outcome group is valued in the same numbered worlds with
  the same playout seeds, so the difference between two outcomes is the outcome, not the
  playouts' own luck; the standard error is over those worlds.
- **Unbiased.** With at most ``outcomes`` groups every group is valued (the exact average);
  with more, ``outcomes`` groups are drawn by weight (with replacement) and their plain mean
  is the average's unbiased estimate. Either way, with outcomes drawn as the rules draw them
  the expected luck is 0, so a seat's luck-adjusted result (final margin minus its luck)
  keeps what skill earned (``tests/bench/luck.py`` checks it over random games).

Pure: no I/O, no clock, no ``random``; the Rng is the review's own, keyed by the ply, so a
record and a seed give the same figures everywhere. Iterating :func:`luck_events` shows
progress and stops when the caller stops.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from . import evaluate
from .evaluate import ReviewError
from .record import GameRecord, initial_state, replay_iter
from .rng import Rng
from .search import FastRng, Policy
from .state import CHANCE, Game, State

__all__ = [
    "DEFAULT_LUCK",
    "ChanceLuck",
    "LuckBudget",
    "SeatLuck",
    "luck_events",
    "luck_line",
    "seat_luck",
]


class LuckBudget(msgspec.Struct, frozen=True, kw_only=True):
    """How hard each chance event is looked at (counted in worlds, never seconds)."""

    worlds: int = 2
    """Worlds each outcome group is valued in (the same worlds for every group)."""
    outcomes: int = 6
    """Outcome groups valued exactly; an event with more has this many drawn by weight."""
    max_plies: int = 40
    """The horizon: each valuation plays on this many plies, then takes the game's fitted value
    at the cut (:attr:`.evaluate.EvalSpec.value`), or the sheet where it stands if the game has
    none. The average over outcomes is still exact, so the luck still averages 0; the horizon
    only cuts the noise later draws would add to each figure."""
    graph_worlds: int = 4
    """Worlds the outcome that came is played to the end in, for the win-chance graph (0: none)."""


DEFAULT_LUCK: dict[str, LuckBudget] = {
    # A whole game's luck in seconds (tests/bench/luck.py): Crown has ~200 chance events a
    # game, Aquatica ~80, Fisheries ~40 with slow playouts. Played to the game's end, a
    # Crown event's luck had a standard error of ~4.5 points on 2 worlds, ±60 summed over
    # a game; a horizon of a few turns keeps what a draw changes soon, at a fraction of it.
    "crown": LuckBudget(worlds=6, outcomes=5, max_plies=40),
    "fisheries": LuckBudget(worlds=4, outcomes=6, max_plies=30),
    "aquatica": LuckBudget(worlds=4, outcomes=6, max_plies=40),
}


def default_luck(game: Game[Any, Any]) -> LuckBudget:
    return DEFAULT_LUCK.get(game.name, LuckBudget())


class ChanceLuck(msgspec.Struct, frozen=True, kw_only=True):
    """One chance event's luck for every seat."""

    ply: int
    """Record entries before the event (the replay's position of it)."""
    outcome: str
    """The outcome's notation."""
    luck: tuple[float, ...]
    """Per seat (0-based): worth after the outcome minus the average over the outcomes, in points."""
    se: tuple[float, ...]
    """Each seat's standard error of `luck` (0 where the seat could not tell the outcomes apart)."""
    before: tuple[float, ...]
    """Per seat: the average worth over the outcomes (what the seat could expect)."""
    after: tuple[float, ...]
    """Per seat: the worth after the outcome that came."""
    seen: tuple[bool, ...]
    """Per seat: whether the outcomes looked different to it (else its luck is exactly 0 and
    `before`, `after` and `worth` are 0, unmeasured)."""
    worth: tuple[float, ...] = ()
    """Per seat: the worth after the outcome played to the game's end (the graph's point;
    `after` is on the horizon's scale)."""


class SeatLuck(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's luck over a game."""

    seat: int
    result: float
    """The final margin by the mode's goal (:func:`.evaluate.goal` of the last position)."""
    luck: float
    """The sum of its luck over every chance event, in points."""
    luck_se: float
    luck_adjusted: float
    """`result` − `luck`: what the seat's play earned, the draws taken out (backgammon's
    luck-adjusted result; the edge of a seat's place at the table stays in it)."""
    luckiest: int = -1
    """Ply of the event that helped it most (-1: none helped)."""
    unluckiest: int = -1
    """Ply of the event that cost it most (-1: none cost)."""
    events: int = 0
    """Chance events whose outcomes the seat could tell apart."""


def _value(
    game: Game[Any, Any],
    view: State[Any, Any],
    seat: int,
    rng: Rng,
    policy: Policy,
    worlds: int,
    max_plies: int,
    cut: evaluate.CutValue | None = None,
) -> list[float]:
    """The seat's worth of `view` in each numbered world (the same worlds for any view).

    A playout the horizon stops is worth the game's fitted value at the cut (`cut`: its
    expected final margin) where it has one, else its provisional sheet: on the sheet alone
    an Aquatica event's luck was mostly the horizon's noise (docs/benchmarks.md)."""
    out = []
    for j in range(max(1, worlds)):
        it = rng.fork(j)
        st = game.determinize(view, it.fork("world"))
        evaluate.playout(st, policy, FastRng(it.fork("playout")), max_plies)
        v = cut(st, seat) if cut is not None and st.current is not None else None
        out.append(v if v is not None else evaluate.goal(st, seat)[0])
    return out


def event_luck(
    game: Game[Any, Any],
    state: State[Any, Any],
    outcome: Any,
    rng: Rng,
    budget: LuckBudget,
    policy: Policy,
    pause: Callable[[], None] | None = None,
) -> ChanceLuck:
    """The luck of `outcome` at the chance node `state` (the full position) for every seat."""
    weights = state.chance_weights()
    if not weights:
        raise ReviewError("no chance event is pending here")
    cut = evaluate.spec_of(game).value
    lucks, ses, befores, afters, seen, worth = [], [], [], [], [], []
    for s in range(state.players):
        groups: dict[str, list[Any]] = {}
        """View digest -> [weight, a view]: outcomes seat `s` cannot tell apart are one group."""
        actual = ""
        for a, w in weights:
            st = state.clone()
            st.apply_legal(a)
            v = st.view(s)
            d = v.digest()
            g = groups.setdefault(d, [0, v])
            g[0] += w
            if a == outcome:
                actual = d
        if not actual:
            raise ReviewError(f"{outcome} is not an outcome of this chance event")
        if len(groups) == 1:
            lucks.append(0.0)
            ses.append(0.0)
            befores.append(0.0)
            afters.append(0.0)
            worth.append(0.0)
            seen.append(False)
            continue
        here = rng.fork(s)
        keys = sorted(groups)
        if len(keys) <= budget.outcomes:
            picks, exact = keys, True
        else:  # drawn by weight, with replacement: the plain mean is unbiased
            draw = here.fork("draw")
            picks = [keys[draw.weighted([groups[k][0] for k in keys])] for _ in range(budget.outcomes)]
            exact = False
        vals: dict[str, list[float]] = {}
        for k in {*picks, actual}:
            if pause is not None:
                pause()
            vals[k] = _value(game, groups[k][1], s, here.fork("worlds"), policy, budget.worlds, budget.max_plies, cut)
        n = len(vals[actual])
        if exact:
            total = sum(groups[k][0] for k in picks)
            expect = [sum(groups[k][0] * vals[k][j] for k in picks) / total for j in range(n)]
        else:
            expect = [sum(vals[k][j] for k in picks) / len(picks) for j in range(n)]
        diffs = [vals[actual][j] - expect[j] for j in range(n)]
        mean = sum(diffs) / n
        se = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1) / n) if n > 1 else 0.0
        lucks.append(round(mean, 6))
        ses.append(round(se, 6))
        befores.append(round(sum(expect) / n, 6))
        afters.append(round(sum(vals[actual]) / n, 6))
        seen.append(True)
        if budget.graph_worlds > 0:
            full = _value(game, groups[actual][1], s, here.fork("graph"), policy, budget.graph_worlds, 100_000)
            worth.append(round(sum(full) / len(full), 6))
        else:
            worth.append(0.0)
    return ChanceLuck(
        ply=state.ply,
        outcome=str(outcome),
        luck=tuple(lucks),
        se=tuple(ses),
        before=tuple(befores),
        after=tuple(afters),
        seen=tuple(seen),
        worth=tuple(worth),
    )


def chance_count(record: GameRecord) -> int:
    return sum(1 for e in record.entries if e.seat == CHANCE)


def luck_events(
    record: GameRecord,
    game: Game[Any, Any],
    *,
    budget: LuckBudget | None = None,
    seed: int | str = 0,
    policy: Policy | None = None,
    pause: Callable[[], None] | None = None,
) -> Iterator[tuple[int, int, ChanceLuck]]:
    """Every chance event of `record` with its luck for every seat: yields (done, of, event).

    The Rng is the review's own (`seed`), keyed by each event's ply; stop iterating to cancel."""
    bud = budget if budget is not None else default_luck(game)
    pol = policy if policy is not None else evaluate.search_policy(game)
    rng = Rng(f"luck/{seed}")
    of = chance_count(record)
    done = 0
    _, state = initial_state(record, game)
    for _, entry, after in replay_iter(record, game):
        if entry.seat == CHANCE:
            outcome = game.parse_action(entry.action)
            ev = event_luck(game, state, outcome, rng.fork(state.ply), bud, pol, pause)
            done += 1
            yield done, of, ev
        state = after.clone()


def _last(record: GameRecord, game: Game[Any, Any]) -> State[Any, Any]:
    last: State[Any, Any] | None = None
    for _, _, after in replay_iter(record, game):
        last = after
    if last is None:
        _, last = initial_state(record, game)
    return last


def final_result(record: GameRecord, game: Game[Any, Any]) -> list[float]:
    """Each seat's final worth by the mode's goal (the margin over the best rival row)."""
    last = _last(record, game)
    sc = last.scores()
    return [evaluate.goal(last, s, sc)[0] for s in range(record.players)]


def one_row(record: GameRecord, game: Game[Any, Any]) -> bool:
    """The score sheet has one row (a solo mode without a rival row): its result is a worth, no margin."""
    return len(_last(record, game).scores().totals) == 1


def seat_luck(seat: int, result: float, events: Sequence[ChanceLuck]) -> SeatLuck:
    """One seat's totals from every event's luck (its standard error: the events' worlds are their own)."""
    mine = [(e.ply, e.luck[seat], e.se[seat]) for e in events if seat < len(e.luck) and e.seen[seat]]
    total = sum(x for _, x, _ in mine)
    se = math.sqrt(sum(s * s for _, _, s in mine))
    best = max(mine, key=lambda t: (t[1], -t[0]), default=None)
    worst = min(mine, key=lambda t: (t[1], t[0]), default=None)
    return SeatLuck(
        seat=seat,
        result=round(result, 6),
        luck=round(total, 6),
        luck_se=round(se, 6),
        luck_adjusted=round(result - total, 6),
        luckiest=best[0] if best is not None and best[1] > 0 else -1,
        unluckiest=worst[0] if worst is not None and worst[1] < 0 else -1,
        events=len(mine),
    )


def _by(x: float, unit: str) -> str:
    return f"{abs(x):.1f} {unit}"


def luck_line(sl: SeatLuck, unit: str, who: str = "you", solo: bool = False) -> str:
    """'You lost by 6.0 points; the draws cost you 9.0 ± 2.1: on skill you won by 3.0.'

    `who` is "you" (second person) or a name; `solo` words a one-row game's worth, which
    is no margin."""
    you = who == "you"
    subj = "You" if you else who
    obj = "you" if you else who
    if solo:
        res = f"{subj} scored {sl.result:.1f} {unit}"
        adj = f"on skill {sl.luck_adjusted:.1f}"
    else:
        verb = "won" if sl.result > 0 else "lost" if sl.result < 0 else "tied"
        res = f"{subj} {verb}" + (f" by {_by(sl.result, unit)}" if sl.result else "")
        skill = "won" if sl.luck_adjusted > 0 else "lost" if sl.luck_adjusted < 0 else "tied"
        adj = f"on skill {'you' if you else who} {skill}" + (
            f" by {_by(sl.luck_adjusted, unit)}" if sl.luck_adjusted else ""
        )
    if sl.events == 0:
        return f"{res}; no draw looked different to {obj}: no luck either way."
    luck = f"{_by(sl.luck, '')}± {sl.luck_se:.1f}"
    if abs(sl.luck) <= 2 * sl.luck_se:
        draws = f"the draws were about even ({sl.luck:+.1f} ± {sl.luck_se:.1f})"
    elif sl.luck > 0:
        draws = f"the draws gave {obj} {luck}"
    else:
        draws = f"the draws cost {obj} {luck}"
    return f"{res}; {draws}: {adj}."
