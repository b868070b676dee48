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
from .evaluate import CONFIDENCE as CONFIDENCE
from .evaluate import Column, EvalBudget, candidates, own_choice, paired, prior_first
from .evaluate import ReviewError as ReviewError
from .evaluate import search_policy as search_policy
from .hints import Hint as Hint
from .hints import HintChoice as HintChoice
from .hints import hint as hint
from .hints import hint_budget as hint_budget
from .notation import Action
from .record import GameRecord, initial_state, replay_iter
from .rng import Rng
from .search import Policy
from .state import Game, State

ReviewBudget = EvalBudget
"""The review's and the hints' budget is the evaluator's (:class:`.evaluate.EvalBudget`)."""


def default_budget(game: Game[Any, Any]) -> ReviewBudget:
    """The review's budget the game declares (``game.eval_spec().review``)."""
    return evaluate.spec_of(game).review


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
    categories: tuple[str, ...] = ()
    """The score sheet's categories (confirmed decisions only: what `gains` are in)."""
    gains: tuple[float, ...] = ()
    """Per category, the seat's expected final points with `best` minus with the choice made,
    on the confirming worlds: what the better choice gains, in the score sheet's words."""
    rival_gain: float = 0.0
    """How much lower the best rival row ends with `best` than with the choice made (0 alone)."""


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
    pick = own_choice(cols, prior_first(d.view, pol, cands))
    key = evaluate.fit_key(game.name, d.view)
    if pick == 0:
        v = cols[0].mean()
        behind, err, before, after, pooled = 0.0, 0.0, v, v, 0.0
    else:
        best, made = evaluate.compare(
            game,
            d.view,
            here.fork("measure"),
            pol,
            cands[pick],
            d.chosen,
            budget.measure,
            budget.max_plies,
            pause,
            budget.horizon,
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
    The two steps are also :func:`review_decisions` and :func:`finish`, so a caller
    can share the decisions out between processes (each decision's worlds are its own).
    """
    bud = budget if budget is not None else default_budget(game)
    todo = list(decisions(record, game, seat))
    of = steps(todo, bud)
    done: list[tuple[Decision, DecisionReview]] = []
    for k, (d, r) in enumerate(zip(todo, review_decisions(game, todo, budget=bud, seed=seed, pause=pause)), start=1):
        done.append((d, r))
        yield k, of, r
    yield from finish(game, done, budget=bud, seed=seed, pause=pause)


def steps(todo: Sequence[Decision], budget: ReviewBudget) -> int:
    """The progress count of a review of `todo`: each decision, then each seat's confirmations."""
    return len(todo) + max(0, budget.confirm_top) * len({d.seat for d in todo})


def review_decisions(
    game: Game[Any, Any],
    todo: Sequence[Decision],
    *,
    budget: ReviewBudget,
    seed: int | str = 0,
    pause: Callable[[], None] | None = None,
) -> Iterator[DecisionReview]:
    """Each decision of `todo` judged (steps 1-2), in order: any share of a review's decisions."""
    policy = search_policy(game)
    rng = Rng(f"review/{seed}")
    for d in todo:
        yield review_decision(game, d, rng, budget, policy, pause)


def finish(
    game: Game[Any, Any],
    done: Sequence[tuple[Decision, DecisionReview]],
    *,
    budget: ReviewBudget,
    seed: int | str = 0,
    pause: Callable[[], None] | None = None,
) -> Iterator[tuple[int, int, DecisionReview]]:
    """Steps 3 and 5 on every decision judged (in order of ply): the standing opportunities,
    then the costliest of each seat confirmed; yields (done, of, review) going on from the
    decisions' count."""
    policy = search_policy(game)
    rng = Rng(f"review/{seed}")
    done = sorted(done, key=lambda dr: dr[0].ply)
    of = steps([d for d, _ in done], budget)
    k = len(done)
    for s in sorted({d.seat for d, _ in done}):
        mine = [(d, r) for d, r in done if d.seat == s]
        adjusted = standing([r for _, r in mine])
        last = adjusted[-1]
        for (_, old), new in zip(mine, adjusted):
            if new is not old:
                yield k, of, new
        costly = sorted(
            ((d, r) for (d, _), r in zip(mine, adjusted) if r.charged > 0),
            key=lambda dr: (-dr[1].pooled, dr[1].ply),
        )[: max(0, budget.confirm_top)]
        for d, r in costly:
            k += 1
            last = confirm(game, d, r, rng, budget, policy, pause)
            yield k, of, last
        if len(costly) < budget.confirm_top:  # fewer to confirm than planned: the bar jumps
            k += budget.confirm_top - len(costly)
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
        budget.horizon,
    )
    gain, err = paired(best.points, made.points)
    # The values before and after, and their win chances, from the same confirming worlds,
    # so the list's figures agree with each other.
    key = evaluate.fit_key(game.name, d.view)
    before, after = best.mean(), made.mean()
    seat = d.seat
    return msgspec.structs.replace(
        r,
        categories=tuple(best.sheets[0].categories) if best.sheets else (),
        gains=tuple(round(x, 6) for x in _category_gap(best, made, seat)),
        rival_gain=round(_rival_mean(made, seat) - _rival_mean(best, seat), 6),
        loss=round(max(0.0, gain), 6),
        loss_se=round(err, 6),
        confirmed=True,
        value_before=round(before, 6),
        value_after=round(after, 6),
        win_before=round(evaluate.win_chance(key, before), 6),
        win_after=round(evaluate.win_chance(key, after), 6),
    )


def _category_gap(a: Column, b: Column, seat: int) -> list[float]:
    """Per score category, the seat's mean points over `a`'s worlds minus over `b`'s."""
    if not a.sheets or not b.sheets:
        return []
    k = len(a.sheets[0].categories)
    mean = [sum(sc.rows[seat][c] for sc in col.sheets) / len(col.sheets) for col in (a, b) for c in range(k)]
    return [mean[c] - mean[k + c] for c in range(k)]


def _rival_mean(col: Column, seat: int) -> float:
    """The best rival row's mean final total over `col`'s worlds (0 in a one-row game)."""
    tot = [max((t for j, t in enumerate(sc.totals) if j != seat), default=0.0) for sc in col.sheets]
    return sum(tot) / len(tot) if tot else 0.0


LIST_CLEAR = 2.0
"""Standard errors by which a confirmed loss must stand above zero to be on the costliest list:
a loss of 0.6 ± 1.4 is a coin toss, and a list of mistakes must not hold one."""


def listed(r: DecisionReview) -> bool:
    """A decision the costliest list may show: confirmed on fresh worlds, and clearly a loss there."""
    return r.confirmed and r.loss > 0 and r.loss > LIST_CLEAR * r.loss_se


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
    costly = sorted((r for r in mine if listed(r)), key=lambda r: (-r.loss, r.ply))
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
