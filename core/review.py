"""The coach's engine: what each decision of a finished game cost, from the seat's own view.

For every *real* decision of one seat (more than one legal choice) the review asks
:func:`rank_choices` -- the one "evaluate the top choices from one seat's view"
function, which hints (:func:`hint`) use too -- for the expected final margin of the choice made
and of the greedy policy's best few alternatives:

- **Only the view.** The position is ``state.view(seat)`` at that moment; each world
  is ``game.determinize(view, rng)``, so hidden values the record holds (another
  seat's fish weights, hands, deck order) are drawn, never read.
  ``tests/test_review.py`` poisons them and checks the output is unchanged.
- **Common random numbers.** Every candidate is played in the *same* worlds with
  the same playout seed, and chance inside a playout is keyed by the ply, so the
  difference between two candidates is the choice, not the luck. Loss is measured
  on the paired differences.
- **To the end, in points.** Each playout is the greedy policy for every seat to
  the end of the game; its worth is the seat's total minus the best rival row (a
  solo game with one row: the seat's own total), in the game's own points.
- **Only clear losses.** An alternative counts as better only when it beats the
  choice made by more than ``confidence`` standard errors of the paired difference:
  the best of a few noisy means is always a little above the rest, and without
  this every good move would show a small "loss" made of noise.

Pure: no I/O, no clock; the budget is a number of worlds, so a seed and a budget
give the same review on every machine. Progress comes from iterating
:func:`review_seat`, one decision at a time, so a caller can show it and stop.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from .clock import START, Clock, advance
from .errors import ColdwaterError
from .notation import Action
from .record import GameRecord, initial_state, replay_iter
from .rng import Rng
from .search import FastRng, Policy, SearchBot, argmax, draw_chance
from .state import CHANCE, Game, Scores, State


class ReviewError(ColdwaterError, ValueError):
    """A review that cannot be made (a seat out of range, a game without a search)."""


class ReviewBudget(msgspec.Struct, frozen=True, kw_only=True):
    worlds: int = 16
    """Determinized worlds per decision; every candidate is played out in each."""
    width: int = 4
    """The greedy policy's best few alternatives evaluated beside the choice made."""
    confidence: float = 2.0
    """Standard errors of the paired difference an alternative must win by to count: at
    one, about one decision in three of a greedy seat showed a "loss" made of noise
    (one Crown game: greedy 0.89 points a decision, random 1.21; at two, 0.21 and 0.77)."""
    max_plies: int = 100_000
    """A playout that has not ended by then is scored where it stands (a safety net)."""

    def deeper(self, depth: int) -> ReviewBudget:
        """`depth` times the worlds (``--depth``): a finer estimate, `depth` times the time."""
        if depth < 1:
            raise ReviewError("the depth is a whole number from 1 up")
        return msgspec.structs.replace(self, worlds=self.worlds * depth)


DEFAULT_BUDGET: dict[str, ReviewBudget] = {
    # Worlds per decision so that a whole 2-player game reviews within a minute on
    # one core of a 2-core machine (tests/bench/coach.py measures it, docs/benchmarks.md).
    "crown": ReviewBudget(worlds=24),
    "fisheries": ReviewBudget(worlds=8),
    "aquatica": ReviewBudget(worlds=24),
}


def default_budget(game: Game[Any, Any]) -> ReviewBudget:
    return DEFAULT_BUDGET.get(game.name, ReviewBudget())


class ChoiceValue(msgspec.Struct, frozen=True):
    action: str
    """Notation (``cast red y``); the screens word it with the game's own labels."""
    value: float
    """Expected final margin in points (own total minus the best rival row)."""
    gain: float
    """Mean paired difference from the first choice of the list it is in."""
    error: float
    """Standard error of `gain` (0 for the first, or with a single world)."""


class DecisionReview(msgspec.Struct, frozen=True, kw_only=True):
    ply: int
    """Entries played before the decision: the replay opens at this position."""
    round: int
    turn: int
    chosen: str
    best: str
    """The choice made, unless an alternative beat it clearly (then that one)."""
    chosen_text: str
    best_text: str
    """Both in the engine's words (``State.describe``), for people reading the CLI."""
    loss: float
    """Expected points the choice made gave up against `best` (0 when none was clearly better)."""
    choices: tuple[ChoiceValue, ...]
    """Every candidate evaluated, the choice made first, `gain` measured from it."""


class SeatReview(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    seat: int
    """0-based (screens and JSON show it 1-based)."""
    decisions: int
    total_loss: float
    mean_loss: float
    worst: tuple[DecisionReview, ...]
    """The costliest decisions with a loss, costliest first."""
    reviewed: tuple[DecisionReview, ...]
    """Every real decision, in order."""


class Decision(msgspec.Struct, frozen=True):
    """One real decision of a seat: the position it saw and what it did."""

    ply: int
    clock: Clock
    view: Any
    """``State.view(seat)`` before the choice (a State; Any because msgspec cannot type it)."""
    chosen: Action


def search_policy(game: Game[Any, Any]) -> Policy:
    """The game's greedy policy, as its hard bot searches with it."""
    bot = game.bot("hard")
    if not isinstance(bot, SearchBot):
        raise ReviewError(f"{game.title} has no search to review with")
    return bot.policy


def decisions(record: GameRecord, game: Game[Any, Any], seat: int) -> Iterator[Decision]:
    """Each real decision of `seat` in a verified replay of `record`, as that seat saw it.

    The full position is used only to take the seat's view and is dropped at once.
    Round and turn are the record's clock of the position (counted afresh if the
    record predates clocks).
    """
    if not 0 <= seat < record.players:
        raise ReviewError(f"seat {seat + 1} is not in this game (it has {record.players} seat(s))")
    _, state = initial_state(record, game)
    clock = START
    for i, entry, after in replay_iter(record, game):
        if entry.seat == seat and len(state.legal()) > 1:
            view = state.view(seat)
            yield Decision(i - 1, clock, view, game.parse_action(entry.action))
        clock = entry.clock if entry.clock is not None else advance(clock, after)
        state = after.clone()


def margin(totals: Sequence[float], seat: int) -> float:
    """The seat's total minus the best rival row; with one row, its own total."""
    others = [t for j, t in enumerate(totals) if j != seat]
    return float(totals[seat] - max(others)) if others else float(totals[seat])


def _playout(st: State[Any, Any], policy: Policy, rng: FastRng, max_plies: int) -> None:
    """The greedy policy for every seat to the end; chance keyed by the ply."""
    limit = st.ply + max_plies
    while st.ply < limit:
        cur = st.current
        if cur is None:
            return
        if cur == CHANCE:
            st.apply_legal(draw_chance(st, rng))
            continue
        legal = st.legal()
        st.apply_legal(legal[0] if len(legal) == 1 else argmax(legal, policy.values(st, legal), rng))


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
    """The top choices at `view` (its seat to act) with their expected final margins.

    `include` is evaluated whatever the policy thinks of it and comes first; `gain`
    and `error` of every entry are its paired difference from the first entry.
    Reads nothing but `view`: each world is ``game.determinize(view, ...)``.
    `pause` is called before each world (a worker holds or cancels there, as
    ``SearchBot.pause``); it never changes the result.
    """
    me = _chooser(view)
    pol = policy if policy is not None else search_policy(game)
    cands = candidates(view, pol, budget.width, include)
    sheets = _play_out(game, view, rng, budget, pol, cands, pause)
    results = [[margin(s.totals, me) for s in column] for column in sheets]
    return [ChoiceValue(str(a), _mean(res), *_paired(res, results[0])) for a, res in zip(cands, results)]


def _chooser(view: State[Any, Any]) -> int:
    me = view.current
    if me is None or me == CHANCE:
        raise ReviewError("nobody is choosing at this position")
    return me


def _play_out(
    game: Game[Any, Any],
    view: State[Any, Any],
    rng: Rng,
    budget: ReviewBudget,
    pol: Policy,
    cands: Sequence[Action],
    pause: Callable[[], None] | None,
) -> list[list[Scores]]:
    """Each candidate's final score sheets, one per world: the same worlds and playout
    seeds for every candidate (common random numbers)."""
    sheets: list[list[Scores]] = [[] for _ in cands]
    for j in range(max(1, budget.worlds)):
        if pause is not None:
            pause()
        it = rng.fork(j)
        world = game.determinize(view, it.fork("world"))
        seed = it.fork("playout")
        for i, a in enumerate(cands):
            st = world.clone() if i < len(cands) - 1 else world
            st.apply(a)  # checked: a choice from the view must be legal in every world
            _playout(st, pol, FastRng(seed), budget.max_plies)
            sheets[i].append(st.scores())
    return sheets


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _paired(res: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the paired differences ``res - base``."""
    diffs = [x - y for x, y in zip(res, base)]
    n = len(diffs)
    gain = sum(diffs) / n
    err = math.sqrt(sum((d - gain) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else 0.0
    return gain, err


# ---- hints at the table (issue 31 item 2) -----------------------------------------
HINT_SHOWN = 3
"""Choices a hint shows: the best and the two after it."""

DEFAULT_HINT_BUDGET: dict[str, ReviewBudget] = {
    # Twice the review's worlds and one candidate more to choose the three shown from: a
    # hint is one decision, and at the review's budget it took 0.2-0.6 s; twice that
    # still answers within about a second (tests/bench/coach.py prints its latency).
    "crown": ReviewBudget(worlds=48, width=5),
    "fisheries": ReviewBudget(worlds=16, width=5),
    "aquatica": ReviewBudget(worlds=48, width=5),
}


def hint_budget(game: Game[Any, Any]) -> ReviewBudget:
    return DEFAULT_HINT_BUDGET.get(game.name, ReviewBudget(worlds=32, width=5))


class HintChoice(msgspec.Struct, frozen=True):
    action: str
    """Notation; the table words it with the game's own labels."""
    value: float
    """Expected final margin in points (own total minus the best rival row)."""
    behind: float
    """Expected points below the hint's best choice (paired difference; 0 for the best)."""
    error: float
    """Standard error of `behind` (0 for the best, or with a single world)."""
    own: tuple[float, ...]
    """The seat's expected final points in each of :attr:`Hint.categories`."""
    rival: float
    """The best rival row's expected final total (0 in a game with one row)."""


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
    choices: tuple[HintChoice, ...]
    """Best first; at most :data:`HINT_SHOWN`."""


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
    """The hard bot's policy's best choices at `view`, ranked by playouts to the end.

    The same evaluation as the review (:func:`rank_choices`: determinized worlds,
    common random numbers), so a hint and a review of the same position agree. The
    Rng is keyed by the position's digest and `seed`: the same position gives the
    same hint. Besides the margins, each choice carries the seat's expected points
    per score category and the best rival's expected total, so the table can say in
    the game's words what it gains. `include` (a choice just made, for Learn to play's
    gentle word) is evaluated too and always listed, wherever it ranks.
    """
    me = _chooser(view)
    bud = budget if budget is not None else hint_budget(game)
    pol = search_policy(game)
    cands = candidates(view, pol, bud.width, include)
    digest = view.digest()
    sheets = _play_out(game, view, Rng(f"hint/{seed}/{digest}"), bud, pol, cands, pause)
    margins = [[margin(s.totals, me) for s in column] for column in sheets]
    ranked = sorted(range(len(cands)), key=lambda i: (-_mean(margins[i]), i))
    order = ranked[: max(1, shown)]
    if include is not None and 0 not in order:  # (the included choice is candidate 0)
        order.append(0)
    best = margins[order[0]]
    first = sheets[order[0]][0]
    rivals = {_rival_row(s.totals, me) for column in sheets for s in column}
    rival = "" if len(first.totals) < 2 else (first.labels[rivals.pop()] if len(rivals) == 1 else "the leader")
    out = []
    for i in order:
        behind, err = _paired(best, margins[i])
        column = sheets[i]
        own = tuple(_mean([s.rows[me][c] for s in column]) for c in range(len(first.categories)))
        rival_total = _mean([_rival_total(s.totals, me) for s in column])
        out.append(HintChoice(str(cands[i]), _mean(margins[i]), behind, err, own, rival_total))
    return Hint(
        game=game.name,
        seat=me,
        ply=view.ply,
        digest=digest,
        categories=first.categories,
        rival=rival,
        worlds=max(1, bud.worlds),
        choices=tuple(out),
    )


def _rival_row(totals: Sequence[float], seat: int) -> int:
    others = [j for j in range(len(totals)) if j != seat]
    return max(others, key=lambda j: (totals[j], -j)) if others else seat


def _rival_total(totals: Sequence[float], seat: int) -> float:
    j = _rival_row(totals, seat)
    return float(totals[j]) if j != seat else 0.0


def review_decision(
    game: Game[Any, Any],
    d: Decision,
    rng: Rng,
    budget: ReviewBudget,
    policy: Policy | None = None,
    pause: Callable[[], None] | None = None,
) -> DecisionReview:
    """What the choice made at `d` cost, against the clearly better alternatives."""
    choices = rank_choices(game, d.view, rng.fork(d.ply), budget, policy=policy, include=d.chosen, pause=pause)
    best, loss = choices[0], 0.0
    for c in choices[1:]:
        if c.gain > budget.confidence * c.error and c.gain > loss:
            best, loss = c, c.gain
    return DecisionReview(
        ply=d.ply,
        round=d.clock.round,
        turn=d.clock.turn,
        chosen=choices[0].action,
        best=best.action,
        chosen_text=_said(d.view, game, choices[0].action),
        best_text=_said(d.view, game, best.action),
        loss=round(loss, 6),
        choices=tuple(choices),
    )


def _said(view: State[Any, Any], game: Game[Any, Any], text: str) -> str:
    return str(view.describe(game.parse_action(text)))


def review_seat(
    record: GameRecord,
    game: Game[Any, Any],
    seat: int,
    *,
    budget: ReviewBudget | None = None,
    seed: int | str = 0,
    pause: Callable[[], None] | None = None,
) -> Iterator[tuple[int, int, DecisionReview]]:
    """Review `seat`'s decisions one by one: yields (done, of, the decision's review).

    Iterate it to the end and pass the reviews to :func:`summarize`; stop iterating
    to cancel. The Rng is the review's own (`seed`), never the game's seed.
    """
    bud = budget if budget is not None else default_budget(game)
    policy = search_policy(game)
    todo = list(decisions(record, game, seat))
    rng = Rng(f"review/{seed}")
    for k, d in enumerate(todo, start=1):
        yield k, len(todo), review_decision(game, d, rng, bud, policy, pause)


def summarize(game: str, seat: int, reviewed: Sequence[DecisionReview], worst: int = 10) -> SeatReview:
    total = sum(r.loss for r in reviewed)
    costly = sorted((r for r in reviewed if r.loss > 0), key=lambda r: (-r.loss, r.ply))
    return SeatReview(
        game=game,
        seat=seat,
        decisions=len(reviewed),
        total_loss=round(total, 6),
        mean_loss=round(total / len(reviewed), 6) if reviewed else 0.0,
        worst=tuple(costly[:worst]),
        reviewed=tuple(reviewed),
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
