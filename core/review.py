"""The coach's engine: what each decision of a finished game cost, from the seat's own view.

Every judgement comes from the one evaluator (:mod:`.evaluate`: determinized worlds of
the seat's view, common random numbers, adaptive worlds, the mode's own goal, a win
chance); this module says what a review and a hint do with it.

For every *real* decision of a seat (more than one legal choice):

1. **The evaluator's own choice.** The choice made and the greedy policy's best few
   others race (:func:`.evaluate.race`); the evaluator chooses as the hard bot does:
   the greedy policy's first, unless another beats it by ``confidence`` paired
   standard errors (then the best of those). If that is the choice made, the seat is
   0 points behind, exactly.
2. **Measured on fresh worlds.** Otherwise the evaluator's choice and the choice made
   are played out in ``measure`` new worlds (independent of the race, so the
   selection's luck does not inflate the gap: no winner's curse). The decision's
   ``behind`` is that paired mean with its standard error, signed: noise pulls it
   both ways and the sum stays unbiased.
3. **A standing opportunity is charged once.** When the evaluator's choice at a seat's
   decision is the same one it already wanted at the seat's previous decision (a Lure
   still held), the later decision is not charged again (``charged`` 0, ``standing``
   names the first).
4. **The headline** (:attr:`SeatReview.points_behind`) is the sum of what is charged,
   with no threshold, and its standard error (decisions use independent worlds).
5. **The costliest list is confirmed.** The ``confirm_top`` decisions that measured
   costliest are played out again in ``confirm`` fresh worlds; the list is ordered by,
   and shows, those confirmed figures (with their error).

Each decision also carries its value before (the evaluator's choice) and after (the
choice made), in points and as a win chance. Pure: no I/O, no clock; the budget is a
number of worlds, so a seed and a budget give the same review on every machine.
Progress comes from iterating :func:`review_seat`, so a caller can show it and stop.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from . import evaluate
from .clock import START, Clock, advance
from .errors import ColdwaterError
from .evaluate import Column, EvalBudget, candidates, chooser, paired
from .notation import Action
from .record import GameRecord, initial_state, replay_iter
from .rng import Rng
from .search import Policy, SearchBot
from .state import Game, State


class ReviewError(ColdwaterError, ValueError):
    """A review that cannot be made (a seat out of range, a game without a search)."""


ReviewBudget = EvalBudget
"""The review's and the hints' budget is the evaluator's (:class:`.evaluate.EvalBudget`)."""

CONFIDENCE = 1.0
"""Paired standard errors by which an alternative must beat the greedy policy's first to
be the evaluator's choice: the hard bot's own rule (``SearchBot.confidence``), so the
review, the hints and the hard bot choose alike."""

DEFAULT_BUDGET: dict[str, ReviewBudget] = {
    # Worlds so that a whole 2-player seat reviews in tens of seconds of one core
    # (tests/bench/coach.py measures it, docs/benchmarks.md); Fisheries' differences vary
    # least (little is random there), Crown's most (a playout's margin varies by ~8 points).
    "crown": ReviewBudget(worlds=16, min_worlds=8, measure=16, confirm=48),
    "fisheries": ReviewBudget(worlds=8, min_worlds=4, batch=2, measure=8, confirm=16),
    "aquatica": ReviewBudget(worlds=16, min_worlds=8, measure=16, confirm=48),
}


def default_budget(game: Game[Any, Any]) -> ReviewBudget:
    return DEFAULT_BUDGET.get(game.name, ReviewBudget())


class ChoiceValue(msgspec.Struct, frozen=True):
    action: str
    """Notation (``cast red y``); the screens word it with the game's own labels."""
    value: float
    """Expected final worth in points (own total minus the best rival row; a solo mode's goal)."""
    gain: float
    """Mean paired difference from the first choice of the list it is in."""
    error: float
    """Standard error of `gain` (0 for the first, or with a single world)."""
    worlds: int = 0
    """Worlds it was played out in (a candidate dropped from the race has fewer)."""
    win: float = 0.0
    """Win chance of `value` (the fitted curve, :func:`.evaluate.win_chance`)."""


class DecisionReview(msgspec.Struct, frozen=True, kw_only=True):
    ply: int
    """Entries played before the decision: the replay opens at this position."""
    seat: int = 0
    """The seat that decided (0-based)."""
    round: int
    turn: int
    chosen: str
    best: str
    """The evaluator's own choice (the choice made when it agrees)."""
    chosen_text: str
    best_text: str
    """Both in the engine's words (``State.describe``), for people reading the CLI."""
    loss: float
    """Points the choice made gave up against `best`, never below 0: the confirmed figure
    for a decision on the costliest list, else `behind` (0 where it is negative)."""
    choices: tuple[ChoiceValue, ...]
    """Every candidate raced, the choice made first, `gain` measured from it."""
    behind: float = 0.0
    """Points behind the evaluator's choice, measured on fresh worlds (signed; 0 exactly
    where the evaluator chose the same)."""
    behind_se: float = 0.0
    charged: float = 0.0
    """What the headline counts: `behind`, or 0 for a standing opportunity charged before."""
    standing: int = -1
    """Ply of the seat's earlier decision where the same better choice was charged (-1: none)."""
    loss_se: float = 0.0
    """Standard error of `loss`."""
    confirmed: bool = False
    """`loss` was confirmed on fresh worlds (the costliest list shows only these)."""
    value_before: float = 0.0
    """Expected final worth with the evaluator's choice, in points."""
    value_after: float = 0.0
    """Expected final worth with the choice made, in points."""
    win_before: float = 0.0
    win_after: float = 0.0
    """The same two as win chances (or, alone, the chance of the mode's goal)."""
    pooled: float = 0.0
    """The gap over the race's and the measure's worlds together: it only chooses which
    decisions are confirmed (more worlds, so fewer costly ones missed)."""


class SeatReview(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    seat: int
    """0-based (screens and JSON show it 1-based)."""
    decisions: int
    total_loss: float
    """Equal to `points_behind` (kept for readers of the older JSON)."""
    mean_loss: float
    """`points_behind` per decision."""
    worst: tuple[DecisionReview, ...]
    """The costliest decisions, confirmed on fresh worlds, costliest first."""
    reviewed: tuple[DecisionReview, ...]
    """Every real decision, in order."""
    points_behind: float = 0.0
    """Points behind the evaluator's own choices, summed over the decisions, no threshold."""
    points_behind_se: float = 0.0
    """Its standard error."""


class Decision(msgspec.Struct, frozen=True):
    """One real decision of a seat: the position it saw and what it did."""

    ply: int
    clock: Clock
    view: Any
    """``State.view(seat)`` before the choice (a State; Any because msgspec cannot type it)."""
    chosen: Action
    seat: int = 0


def search_policy(game: Game[Any, Any]) -> Policy:
    """The game's greedy policy, as its hard bot searches with it."""
    bot = game.bot("hard")
    if not isinstance(bot, SearchBot):
        raise ReviewError(f"{game.title} has no search to review with")
    return bot.policy


def decisions(record: GameRecord, game: Game[Any, Any], seat: int | Sequence[int]) -> Iterator[Decision]:
    """Each real decision of `seat` (or of each of several seats) in one verified replay of
    `record`, as that seat saw it.

    The full position is used only to take the seat's view and is dropped at once.
    Round and turn are the record's clock of the position (counted afresh if the
    record predates clocks).
    """
    seats = {seat} if isinstance(seat, int) else set(seat)
    for s in sorted(seats):
        if not 0 <= s < record.players:
            raise ReviewError(f"seat {s + 1} is not in this game (it has {record.players} seat(s))")
    _, state = initial_state(record, game)
    clock = START
    for i, entry, after in replay_iter(record, game):
        if entry.seat in seats and len(state.legal()) > 1:
            view = state.view(entry.seat)
            yield Decision(i - 1, clock, view, game.parse_action(entry.action), entry.seat)
        clock = entry.clock if entry.clock is not None else advance(clock, after)
        state = after.clone()


def _prior_first(view: State[Any, Any], policy: Policy, cands: Sequence[Action]) -> int:
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


def rank_choices(
    game: Game[Any, Any],
    view: State[Any, Any],
    rng: Rng,
    budget: ReviewBudget,
    *,
    policy: Policy | None = None,
    include: Action | None = None,
    pause: Callable[[], None] | None = None,
) -> list[ChoiceValue]:
    """The top choices at `view` (its seat to act) with their expected final worth.

    `include` is evaluated whatever the policy thinks of it and comes first; `gain`
    and `error` of every entry are its paired difference from the first entry (over
    the worlds both were played in). Reads nothing but `view`.
    `pause` is called before each world (a worker holds or cancels there, as
    ``SearchBot.pause``); it never changes the result.
    """
    pol = policy if policy is not None else search_policy(game)
    cands = candidates(view, pol, budget.width, include)
    cols, _ = evaluate.race(game, view, rng, budget, pol, cands, keep=0 if include is not None else None, pause=pause)
    return _values(game, view, cols)


def _values(game: Game[Any, Any], view: State[Any, Any], cols: Sequence[Column]) -> list[ChoiceValue]:
    key = evaluate.fit_key(game.name, view)
    out = []
    for c in cols:
        gain, err = paired(c.points, cols[0].points) if c is not cols[0] else (0.0, 0.0)
        out.append(ChoiceValue(str(c.action), c.mean(), gain, err, c.n, evaluate.win_chance(key, c.mean())))
    return out


def review_decision(
    game: Game[Any, Any],
    d: Decision,
    rng: Rng,
    budget: ReviewBudget,
    policy: Policy | None = None,
    pause: Callable[[], None] | None = None,
) -> DecisionReview:
    """What the choice made at `d` cost against the evaluator's own choice (steps 1-2 of the
    module docstring); `rng` is the review's, forked here by the decision's ply."""
    pol = policy if policy is not None else search_policy(game)
    here = rng.fork(d.ply)
    cands = candidates(d.view, pol, budget.width, d.chosen)
    cols, _ = evaluate.race(game, d.view, here.fork("race"), budget, pol, cands, keep=0, pause=pause)
    choices = _values(game, d.view, cols)
    pick = own_choice(cols, _prior_first(d.view, pol, cands))
    key = evaluate.fit_key(game.name, d.view)
    if pick == 0:
        v = cols[0].mean()
        behind, err, before, after, pooled = 0.0, 0.0, v, v, 0.0
    else:
        best, made = evaluate.compare(
            game, d.view, here.fork("measure"), pol, cands[pick], d.chosen, budget.measure, budget.max_plies, pause
        )
        behind, err = paired(best.points, made.points)
        before, after = best.mean(), made.mean()
        # Only to choose which decisions to confirm: the race's worlds and the measure's
        # together (the race's favour to its pick is alike at every decision).
        n = min(cols[pick].n, cols[0].n)
        pooled = paired(cols[pick].points[:n] + best.points, cols[0].points[:n] + made.points)[0]
    return DecisionReview(
        ply=d.ply,
        seat=d.seat,
        round=d.clock.round,
        turn=d.clock.turn,
        chosen=choices[0].action,
        best=choices[pick].action,
        chosen_text=_said(d.view, game, choices[0].action),
        best_text=_said(d.view, game, choices[pick].action),
        loss=round(max(0.0, behind), 6),
        loss_se=round(err, 6),
        choices=tuple(choices),
        behind=round(behind, 6),
        behind_se=round(err, 6),
        charged=round(behind, 6),
        value_before=round(before, 6),
        value_after=round(after, 6),
        win_before=round(evaluate.win_chance(key, before), 6),
        win_after=round(evaluate.win_chance(key, after), 6),
        pooled=round(pooled, 6),
    )


def _said(view: State[Any, Any], game: Game[Any, Any], text: str) -> str:
    return str(view.describe(game.parse_action(text)))


def _kind(notation: str) -> str:
    return notation.split(" ", 1)[0]


def standing(reviewed: Sequence[DecisionReview]) -> list[DecisionReview]:
    """One seat's decisions (in order) with a standing opportunity charged once (step 3).

    What the evaluator wanted instead is an *opportunity*: a kind of action other than
    the one made (its notation's first word: ``lure``, whichever bait it swaps), which
    stays open until the seat plays that kind; or, when it wanted another action of the
    same kind (another space to place on), that very action at the seat's next decision.
    An opportunity is charged where it first appeared; later decisions that only
    repeat it are charged 0 and name that first decision.
    """
    out: list[DecisionReview] = []
    kinds: dict[str, int] = {}
    """Kinds of action the evaluator wanted and the seat has not played since: where charged."""
    prev: tuple[str, int] | None = None
    """The exact better action of the seat's previous decision, and where it was charged."""
    for r in reviewed:
        kinds.pop(_kind(r.chosen), None)  # played that kind: the opportunity was taken
        if r.best == r.chosen:
            out.append(r)
            prev = None
            continue
        if _kind(r.best) != _kind(r.chosen):
            since = kinds.setdefault(_kind(r.best), r.ply)
            now = None
        else:
            since = prev[1] if prev is not None and prev[0] == r.best else r.ply
            now = (r.best, since)
        prev = now
        out.append(r if since == r.ply else msgspec.structs.replace(r, charged=0.0, standing=since))
    return out


def review_seat(
    record: GameRecord,
    game: Game[Any, Any],
    seat: int | Sequence[int],
    *,
    budget: ReviewBudget | None = None,
    seed: int | str = 0,
    pause: Callable[[], None] | None = None,
) -> Iterator[tuple[int, int, DecisionReview]]:
    """Review `seat`'s decisions (or several seats', in one pass): yields (done, of, review).

    First each decision in order, then the costliest ones again, confirmed, and the
    standing opportunities with their charge: pass everything yielded to
    :func:`summarize` (per seat), which keeps the last word on each decision. Stop
    iterating to cancel. The Rng is the review's own (`seed`), never the game's seed.
    """
    bud = budget if budget is not None else default_budget(game)
    policy = search_policy(game)
    todo = list(decisions(record, game, seat))
    rng = Rng(f"review/{seed}")
    seats = sorted({d.seat for d in todo})
    of = len(todo) + max(0, bud.confirm_top) * len(seats)
    done: list[tuple[Decision, DecisionReview]] = []
    for k, d in enumerate(todo, start=1):
        r = review_decision(game, d, rng, bud, policy, pause)
        done.append((d, r))
        yield k, of, r
    k = len(todo)
    for s in seats:
        mine = [(d, r) for d, r in done if d.seat == s]
        adjusted = standing([r for _, r in mine])
        last = adjusted[-1]
        for (_, old), new in zip(mine, adjusted):
            if new is not old:
                yield k, of, new
        costly = sorted(
            ((d, r) for (d, _), r in zip(mine, adjusted) if r.charged > 0),
            key=lambda dr: (-dr[1].pooled, dr[1].ply),
        )[: max(0, bud.confirm_top)]
        for d, r in costly:
            k += 1
            last = confirm(game, d, r, rng, bud, policy, pause)
            yield k, of, last
        if len(costly) < bud.confirm_top:  # fewer to confirm than planned: the bar jumps
            k += bud.confirm_top - len(costly)
            yield k, of, last


def confirm(
    game: Game[Any, Any],
    d: Decision,
    r: DecisionReview,
    rng: Rng,
    budget: ReviewBudget,
    policy: Policy,
    pause: Callable[[], None] | None = None,
) -> DecisionReview:
    """`r` with its loss confirmed on `confirm` fresh worlds (step 5)."""
    best, made = evaluate.compare(
        game,
        d.view,
        rng.fork(d.ply).fork("confirm"),
        policy,
        game.parse_action(r.best),
        d.chosen,
        budget.confirm,
        budget.max_plies,
        pause,
    )
    gain, err = paired(best.points, made.points)
    return msgspec.structs.replace(r, loss=round(max(0.0, gain), 6), loss_se=round(err, 6), confirmed=True)


def summarize(game: str, seat: int, reviewed: Sequence[DecisionReview], worst: int = 10) -> SeatReview:
    """`seat`'s review from what :func:`review_seat` yielded (the last word on each of its plies wins;
    another seat's decisions, from a review of several, are left out)."""
    last: dict[int, DecisionReview] = {}
    for r in reviewed:
        if r.seat == seat:
            last[r.ply] = r
    mine = [last[p] for p in sorted(last)]
    total = sum(r.charged for r in mine)
    se = math.sqrt(sum(r.behind_se**2 for r in mine if r.charged))
    costly = sorted((r for r in mine if r.confirmed and r.loss > 0), key=lambda r: (-r.loss, r.ply))
    return SeatReview(
        game=game,
        seat=seat,
        decisions=len(mine),
        total_loss=round(total, 6),
        mean_loss=round(total / len(mine), 6) if mine else 0.0,
        worst=tuple(costly[:worst]),
        reviewed=tuple(mine),
        points_behind=round(total, 6),
        points_behind_se=round(se, 6),
    )


def review(
    record: GameRecord,
    game: Game[Any, Any],
    seat: int,
    *,
    budget: ReviewBudget | None = None,
    seed: int | str = 0,
    worst: int = 10,
) -> SeatReview:
    """The whole review of one seat (see :func:`review_seat` to follow progress)."""
    done = [r for _, _, r in review_seat(record, game, seat, budget=budget, seed=seed)]
    return summarize(game.name, seat, done, worst)


# ---- hints at the table (issue 31 item 2) -----------------------------------------
HINT_SHOWN = 3
"""Choices a hint shows: the best and the two after it."""

DEFAULT_HINT_BUDGET: dict[str, ReviewBudget] = {
    # A hint answers while a person waits (aim: median 0.5 s, at most 1.5 s, on a
    # quiet 2-core machine; tests/bench/coach.py --hints): the race gives close calls
    # up to `worlds` and stops at `min_worlds` where the choice is clear.
    "crown": ReviewBudget(worlds=24, min_worlds=8, width=4),
    "fisheries": ReviewBudget(worlds=12, min_worlds=4, batch=2, width=4),
    "aquatica": ReviewBudget(worlds=24, min_worlds=8, width=4),
}

CLOSE = 2.0
"""Paired standard errors within which a choice is "about as good" as the hint's first."""


def hint_budget(game: Game[Any, Any]) -> ReviewBudget:
    return DEFAULT_HINT_BUDGET.get(game.name, ReviewBudget(worlds=24, width=4))


class HintChoice(msgspec.Struct, frozen=True):
    action: str
    """Notation; the table words it with the game's own labels."""
    value: float
    """Expected final worth in points (own total minus the best rival row; alone, the mode's goal)."""
    behind: float
    """Expected points below the hint's first choice (paired difference; 0 for the first)."""
    error: float
    """Standard error of `behind` (0 for the first, or with a single world)."""
    own: tuple[float, ...]
    """The seat's expected final points in each of :attr:`Hint.categories`."""
    rival: float
    """The best rival row's expected final total (0 in a game with one row)."""
    win: float = 0.0
    """Chance of winning (alone: of the mode's goal) after this choice, by the fitted curve."""
    close: bool = False
    """Within the evaluator's noise of the first (`behind` at most :data:`CLOSE` errors):
    "about as good". The first is close too when any other shown choice is."""
    worlds: int = 0
    """Worlds this choice was played out in (the race drops clearly worse ones early)."""


class Hint(msgspec.Struct, frozen=True, kw_only=True):
    """The best few choices at one position, from the choosing seat's view."""

    game: str
    seat: int
    ply: int
    digest: str
    """``view.digest()`` of the position: a table shows a hint only at that position."""
    categories: tuple[str, ...]
    """The score sheet's categories, as the engine names them."""
    rival: str
    """The rival row's label when there is one (``Silent player``, ``Seat 2``); "" for
    none, "the leader" when the best rival row differs between playouts."""
    worlds: int
    """The most worlds a choice was played out in."""
    choices: tuple[HintChoice, ...]
    """The evaluator's choice first (as the hard bot chooses), then by expected worth;
    at most :data:`HINT_SHOWN` (and the included choice)."""
    clear: bool = True
    """The first is clearly the best (no other shown choice is "about as good"); when
    False the table should not call it "best"."""


def hint(
    game: Game[Any, Any],
    view: State[Any, Any],
    *,
    budget: ReviewBudget | None = None,
    seed: int | str = 0,
    pause: Callable[[], None] | None = None,
    shown: int = HINT_SHOWN,
    include: Action | None = None,
) -> Hint:
    """The evaluator's best choices at `view` (:mod:`.evaluate`, as the review judges).

    The candidates race in determinized worlds of the view with common random
    numbers; the first listed is the evaluator's own choice (the greedy policy's
    first unless another beats it clearly: the hard bot's rule), then the rest by
    expected worth; each says whether it is within noise of the first. The Rng is
    keyed by the position's digest and `seed`: the same position gives the same
    hint. Each choice carries the seat's expected points per score category and the
    best rival's expected total, so the table can say in the game's words what it
    gains. `include` (a choice just made, for Learn to play's gentle word) is
    evaluated too and always listed, wherever it ranks.
    """
    me = chooser(view)
    bud = budget if budget is not None else hint_budget(game)
    pol = search_policy(game)
    cands = candidates(view, pol, bud.width, include)
    digest = view.digest()
    cols, _ = evaluate.race(
        game, view, Rng(f"hint/{seed}/{digest}"), bud, pol, cands, keep=0 if include is not None else None, pause=pause
    )
    top = own_choice(cols, _prior_first(view, pol, cands))
    rest = sorted((i for i in range(len(cols)) if i != top), key=lambda i: (-cols[i].mean(), i))
    order = [top, *rest][: max(1, shown)]
    if include is not None and 0 not in order:  # (the included choice is candidate 0)
        order.append(0)
    best = cols[top]
    first = best.sheets[0]
    rivals = {_rival_row(sc.totals, me) for c in cols for sc in c.sheets}
    rival = "" if len(first.totals) < 2 else (first.labels[rivals.pop()] if len(rivals) == 1 else "the leader")
    key = evaluate.fit_key(game.name, view)
    gaps = {i: paired(best.points, cols[i].points) if i != top else (0.0, 0.0) for i in order}
    near = {i for i in order if i != top and gaps[i][0] <= CLOSE * gaps[i][1]}
    out = []
    for i in order:
        c = cols[i]
        behind, err = gaps[i]
        own = tuple(sum(sc.rows[me][k] for sc in c.sheets) / c.n for k in range(len(first.categories)))
        rival_total = sum(_rival_total(sc.totals, me) for sc in c.sheets) / c.n
        close = i in near or (i == top and bool(near))
        out.append(
            HintChoice(
                str(c.action), c.mean(), behind, err, own, rival_total, evaluate.win_chance(key, c.mean()), close, c.n
            )
        )
    return Hint(
        game=game.name,
        seat=me,
        ply=view.ply,
        digest=digest,
        categories=first.categories,
        rival=rival,
        worlds=max(c.n for c in cols),
        choices=tuple(out),
        clear=not near,
    )


def _rival_row(totals: Sequence[float], seat: int) -> int:
    others = [j for j in range(len(totals)) if j != seat]
    return max(others, key=lambda j: (totals[j], -j)) if others else seat


def _rival_total(totals: Sequence[float], seat: int) -> float:
    j = _rival_row(totals, seat)
    return float(totals[j]) if j != seat else 0.0
