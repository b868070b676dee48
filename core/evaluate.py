"""The one evaluator: what a position, or each choice at it, is worth to one seat.

The review (core/review.py), the hints (``review.hint``) and the luck of a choice all
ask this module, so a player never meets two opinions of one position. It answers in
the game's points (the expected final margin, or a solo mode's own goal) **and** as a
chance of winning, each with its standard error.

- **Only the view.** Every world is ``game.determinize(view, rng)``: hidden values
  the caller holds (another seat's fish weights, hands, the deck order) are drawn,
  never read. ``tests/core/test_review.py`` poisons a record and checks nothing changes.
- **Common random numbers.** Every candidate is played out in the *same* worlds with
  the same playout seed, and chance inside a playout is keyed by the ply
  (``search.draw_chance``), so the difference between two choices is the choice,
  not the luck. Gains and errors are paired differences.
- **Adaptive worlds (racing).** Worlds are added in batches. After ``min_worlds``, a
  candidate trailing the leader by more than ``drop`` standard errors stops being
  played out (it will not be the best), and the evaluation stops once every
  remaining comparison is settled: clearly apart, or known to within ``settle``
  points. Close calls get the worlds, clear ones do not.
- **The goal of the mode.** A playout's worth is :func:`goal`: the margin over the
  best rival row (a solo mode's automated rival is such a row), and in a game with
  one row the goal that game declares on its State (``solo_goal``: a title band, a
  condition such as recruiting every Tribe). Like net/, this module names no game.
- **A win chance.** Points map to a chance of winning by a logistic curve fitted per
  game and player count on self-play (``WIN_FIT`` in :mod:`.evaluate_fit`, made by
  ``tests/bench/fit_evaluator.py``; docs/coach.md says how), as lichess maps
  centipawns to a win chance.

Pure: no I/O, no clock, no ``random``; the budget is a number of worlds, so a seed
and a budget give the same answer on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from . import search
from .errors import ColdwaterError
from .evaluate_fit import VALUE_FIT, WIN_FIT
from .notation import Action
from .rng import Rng
from .search import FastRng, Policy, SearchBot
from .state import CHANCE, Game, GameBase, Scores, State

__all__ = [
    "CONFIDENCE",
    "Column",
    "CutValue",
    "EvalBudget",
    "EvalSpec",
    "LinearCut",
    "ReviewError",
    "compare",
    "fit_key",
    "goal",
    "margin",
    "own_choice",
    "playout",
    "prior_first",
    "race",
    "search_policy",
    "spec_of",
    "win_chance",
]


class ReviewError(ColdwaterError, ValueError):
    """A review that cannot be made (a seat out of range, a game without a search)."""


CONFIDENCE = 1.0
"""Paired standard errors by which an alternative must beat the greedy policy's first to
be the evaluator's choice: the hard bot's own rule (``SearchBot.confidence``), so the
review, the hints and the hard bot choose alike."""


class EvalBudget(msgspec.Struct, frozen=True, kw_only=True):
    """How hard the evaluator looks at one position (every count is in worlds, not seconds)."""

    worlds: int = 16
    """Most worlds a choice is played out in while the best is sought (the race)."""
    min_worlds: int = 8
    """Worlds every candidate gets before any is dropped or the race stops."""
    batch: int = 4
    """Worlds added between two looks at the standings."""
    width: int = 4
    """The greedy policy's best few alternatives evaluated beside an included choice."""
    drop: float = 2.5
    """Standard errors by which a candidate trailing the leader is dropped from the race."""
    settle: float = 0.6
    """Points: a comparison whose standard error is below this is known well enough."""
    measure: int = 16
    """Fresh worlds on which the review measures the best against the choice made."""
    confirm: int = 32
    """Fresh worlds on which a costliest decision is confirmed before it is shown."""
    confirm_top: int = 8
    """Decisions confirmed (the costliest by their measure) for the costliest list."""
    max_plies: int = 100_000
    """A playout that has not ended by then is scored where it stands (a safety net)."""
    horizon: int = 0
    """Decisions a playout plays before the game's value at the cut (:attr:`EvalSpec.value`)
    stands in for the rest of the game; 0 plays every playout to the end. A setup the game
    has no value for (a solo mode, a player count without a fit) is played to the end."""

    def deeper(self, depth: int) -> EvalBudget:
        """`depth` times the worlds (``--depth``): a finer estimate, about `depth` times the time."""
        if depth < 1:
            raise ReviewError("the depth is a whole number from 1 up")
        return msgspec.structs.replace(
            self,
            worlds=self.worlds * depth,
            min_worlds=self.min_worlds * depth,
            measure=self.measure * depth,
            confirm=self.confirm * depth,
        )


CutValue = Callable[[State[Any, Any], int], float | None]
"""A game's estimate of a seat's final worth (:func:`goal`'s points) from an unfinished full
position; None where it has none for that setup (the playout then goes on to the end)."""


class EvalSpec:
    """What a game declares for the evaluator (``bot_spec().coach``, beside its bots), so
    this module and the review name no game: the review's and the hints' budgets, and the
    value that stands in for the rest of a playout cut at the budget's ``horizon``."""

    def __init__(
        self,
        *,
        review: EvalBudget | None = None,
        hint: EvalBudget | None = None,
        value: CutValue | None = None,
    ) -> None:
        self.review = review if review is not None else EvalBudget()
        self.hint = hint if hint is not None else EvalBudget(worlds=24, width=4)
        self.value = value


def spec_of(game: Game[Any, Any]) -> EvalSpec:
    """The game's declaration (``bot_spec().coach``, beside its bots), or the defaults."""
    return game.bot_spec().coach if isinstance(game, GameBase) else EvalSpec()


class LinearCut:
    """A value at the cut fitted on self-play: each row's expected final total is a weighted
    sum of features the game computes for that row (`features`); the worth is the seat's
    expected total minus the best rival's, as :func:`goal` counts a finished game.

    The weights are data (``VALUE_FIT`` in :mod:`.evaluate_fit`, per :func:`fit_key`, made by
    ``tests/bench/fit_evaluator.py --value``). A setup with one row (a solo mode, whose goal
    is a threshold) or without weights gets None: its playouts go on to the end.
    """

    def __init__(self, game: str, features: Callable[[State[Any, Any], int], Sequence[float]]) -> None:
        self.game = game
        self.features = features

    def totals(self, st: State[Any, Any]) -> list[float] | None:
        """Each row's expected final total, or None where there are no weights for this setup."""
        w = VALUE_FIT.get(fit_key(self.game, st))
        rows = len(st.scores().totals)
        if w is None or rows < 2:
            return None
        return [sum(a * b for a, b in zip(w, self.features(st, i), strict=True)) for i in range(rows)]

    def __call__(self, st: State[Any, Any], seat: int) -> float | None:
        t = self.totals(st)
        return None if t is None else margin(t, seat)


# ---- what a finished playout is worth -------------------------------------------------
def margin(totals: Sequence[float], seat: int) -> float:
    """The seat's total minus the best rival row; with one row, its own total."""
    others = [t for j, t in enumerate(totals) if j != seat]
    return float(totals[seat] - max(others)) if others else float(totals[seat])


def goal(st: State[Any, Any], seat: int, sc: Scores | None = None) -> tuple[float, float]:
    """(worth in the game's points, won 1/0) of a position, for `seat`, by its mode's goal.

    With a rival row (other seats, or Practice Pond's silent player): the margin over
    the best rival, and the win (first in the ranking, or ahead where it stands). Alone:
    the game's own solo goal (:meth:`State.solo_goal`: a title band, a condition to meet),
    so this module names no game.
    """
    if sc is None:
        sc = st.scores()
    totals = sc.totals
    m = margin(totals, seat)
    if len(totals) > 1:
        won = (sc.ranking[0] == seat) if sc.final else m > 0
        return m, 1.0 if won else 0.0
    worth, reached = st.solo_goal(seat, sc)
    return worth, 1.0 if reached else 0.0


def fit_key(game: str, st: State[Any, Any]) -> str:
    """Which fitted curve a position's game and mode use: ``crown/2``, ``aquatica/1/tribes``
    (the mode from the game's own :meth:`State.fit_mode`)."""
    mode = st.fit_mode()
    return f"{game}/{st.players}" + (f"/{mode}" if mode else "")


def win_chance(key: str, points: float) -> float:
    """The chance of winning a position worth `points` (:func:`goal`'s), by the curve fitted
    for `key` (:func:`fit_key`); an unfitted setup gets a gentle default slope."""
    a, b = WIN_FIT.get(key, (0.0, 0.25))
    x = a + b * points
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


# ---- playing out --------------------------------------------------------------------
_ALL = 1 << 62
"""A horizon no game reaches."""


def playout(st: State[Any, Any], policy: Policy, rng: FastRng, max_plies: int, horizon: int = 0) -> None:
    """The greedy policy for every seat to the end (or `horizon` decisions, if above 0); chance
    keyed by the ply. The loop is the search's own (:func:`.search.playout`)."""
    search.playout(st, policy, rng, horizon if horizon > 0 else _ALL, max_plies=max_plies)


def worth(
    game: str,
    st: State[Any, Any],
    seat: int,
    policy: Policy,
    rng: FastRng,
    max_plies: int,
    horizon: int = 0,
    value: CutValue | None = None,
) -> tuple[float, float, Scores]:
    """Play `st` on (in place) and say what it is worth to `seat`: (points, win, score sheet).

    With a `horizon` and the game's `value`, the playout stops after `horizon` decisions and
    the value stands in for the rest (points; the win is then the fitted chance of that
    worth, and the sheet is the one at the cut); else, or where the value has nothing to
    say, it goes on to the end and :func:`goal` judges.
    """
    start = st.ply
    if horizon > 0 and value is not None:
        search.playout(st, policy, rng, horizon, max_plies=max_plies)
        if st.current is not None:
            v = value(st, seat)
            if v is not None:
                return v, win_chance(fit_key(game, st), v), st.scores()
    search.playout(st, policy, rng, _ALL, max_plies=max(1, max_plies - (st.ply - start)))
    sc = st.scores()
    pts, won = goal(st, seat, sc)
    return pts, won, sc


def candidates(view: State[Any, Any], policy: Policy, width: int, include: Action | None = None) -> list[Action]:
    """`include` (if given) first, then the greedy policy's best `width` others."""
    legal: list[Action] = view.legal()
    vals = policy.values(view, legal)
    order = sorted(range(len(legal)), key=lambda i: (-vals[i], i))
    out = [include] if include is not None else []
    for i in order:
        if len(out) >= width + (include is not None):
            break
        if legal[i] != include:
            out.append(legal[i])
    return out


class Column:
    """One candidate's playouts: its worth and win in each world it was played in, in order."""

    __slots__ = ("action", "points", "sheets", "wins")

    def __init__(self, action: Action) -> None:
        self.action = action
        self.points: list[float] = []
        self.wins: list[float] = []
        self.sheets: list[Scores] = []

    @property
    def n(self) -> int:
        return len(self.points)

    def mean(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0

    def win_rate(self) -> float:
        return sum(self.wins) / len(self.wins) if self.wins else 0.0


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over the worlds both were played in."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, math.inf
    diffs = [a[j] - b[j] for j in range(n)]
    mean = sum(diffs) / n
    err = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else math.inf
    return mean, err


def _world(
    game: Game[Any, Any],
    view: State[Any, Any],
    rng: Rng,
    j: int,
    cols: Sequence[Column],
    policy: Policy,
    max_plies: int,
    seat: int,
    horizon: int = 0,
    value: CutValue | None = None,
) -> None:
    """World `j`: every column's action played out in the same world with the same seed."""
    it = rng.fork(j)
    world = game.determinize(view, it.fork("world"))
    seed = it.fork("playout")
    for i, c in enumerate(cols):
        st = world.clone() if i < len(cols) - 1 else world
        st.apply(c.action)  # checked: a choice from the view must be legal in every world
        pts, won, sc = worth(game.name, st, seat, policy, FastRng(seed), max_plies, horizon, value)
        c.points.append(pts)
        c.wins.append(won)
        c.sheets.append(sc)


def chooser(view: State[Any, Any]) -> int:
    me = view.current
    if me is None or me == CHANCE:
        raise ReviewError("nobody is choosing at this position")
    return me


def race(
    game: Game[Any, Any],
    view: State[Any, Any],
    rng: Rng,
    budget: EvalBudget,
    policy: Policy,
    cands: Sequence[Action],
    *,
    keep: int | None = None,
    pause: Callable[[], None] | None = None,
) -> tuple[list[Column], int]:
    """Each candidate's playouts, with worlds spent where the choice is close; and the leader.

    Worlds come in batches; after ``min_worlds`` a candidate trailing the leader by
    more than ``drop`` paired standard errors is no longer played (candidate `keep`,
    the choice a review judges, always is), and the race ends when every comparison
    with the leader is settled (clearly apart, or within ``settle`` points' error).
    Returns the columns (a dropped one holds the worlds it was played in) and the
    leader's index: the evaluator's own choice.
    """
    me = chooser(view)
    value = spec_of(game).value if budget.horizon > 0 else None
    cols = [Column(a) for a in cands]
    alive = list(range(len(cols)))
    j = 0
    most = max(1, budget.worlds)
    while j < most:
        for _ in range(min(max(1, budget.batch), most - j)):
            if pause is not None:
                pause()
            _world(game, view, rng, j, [cols[i] for i in alive], policy, budget.max_plies, me, budget.horizon, value)
            j += 1
        leader = max(alive, key=lambda i: (cols[i].mean(), -i))
        if j < budget.min_worlds or len(alive) == 1:
            if len(alive) == 1:
                break
            continue
        settled = True
        still = []
        for i in alive:
            if i == leader:
                still.append(i)
                continue
            gap, err = paired(cols[leader].points, cols[i].points)
            apart = gap > budget.drop * err
            if not (apart or err <= budget.settle):
                settled = False
            if not apart or i == keep:
                still.append(i)
        alive = still
        if settled:
            break
    leader = max(alive, key=lambda i: (cols[i].mean(), -i))
    return cols, leader


def compare(
    game: Game[Any, Any],
    view: State[Any, Any],
    rng: Rng,
    policy: Policy,
    better: Action,
    worse: Action,
    worlds: int,
    max_plies: int = 100_000,
    pause: Callable[[], None] | None = None,
    horizon: int = 0,
) -> tuple[Column, Column]:
    """`better` and `worse` played out in `worlds` worlds of `rng` (fresh ones, to measure a
    choice a race selected without its selection's luck: no winner's curse); cut at
    `horizon` decisions where the game has a value for it (0: to the end)."""
    me = chooser(view)
    value = spec_of(game).value if horizon > 0 else None
    cols = [Column(better), Column(worse)]
    for j in range(max(1, worlds)):
        if pause is not None:
            pause()
        _world(game, view, rng, j, cols, policy, max_plies, me, horizon, value)
    return cols[0], cols[1]


def position(
    game: Game[Any, Any],
    view: State[Any, Any],
    seat: int,
    rng: Rng,
    policy: Policy,
    worlds: int,
    max_plies: int = 100_000,
) -> Column:
    """The position itself, from `seat`'s view (``view`` is ``state.view(seat)``), played on
    by the greedy policy in `worlds` worlds: its worth and win in each (no choice applied)."""
    col = Column(Action())
    for j in range(max(1, worlds)):
        it = rng.fork(j)
        st = game.determinize(view, it.fork("world"))
        playout(st, policy, FastRng(it.fork("playout")), max_plies)
        sc = st.scores()
        pts, won = goal(st, seat, sc)
        col.points.append(pts)
        col.wins.append(won)
        col.sheets.append(sc)
    return col


def search_policy(game: Game[Any, Any]) -> Policy:
    """The game's greedy policy, as its hard bot searches with it."""
    bot = game.bot("hard")
    if not isinstance(bot, SearchBot):
        raise ReviewError(f"{game.title} has no search to review with")
    return bot.policy


def prior_first(view: State[Any, Any], policy: Policy, cands: Sequence[Action]) -> int:
    """The index in `cands` of the greedy policy's first choice (the hard bot's default)."""
    vals = policy.values(view, list(cands))
    return max(range(len(cands)), key=lambda i: (vals[i], -i))


def own_choice(cols: Sequence[Column], first: int, confidence: float = CONFIDENCE) -> int:
    """The evaluator's choice among raced columns: `first` (the greedy policy's), unless
    another beats it by more than `confidence` paired standard errors; then the best of those."""
    best, best_gain = first, 0.0
    for i, c in enumerate(cols):
        if i == first:
            continue
        gain, err = paired(c.points, cols[first].points)
        if gain > confidence * err and gain > best_gain:
            best, best_gain = i, gain
    return best
