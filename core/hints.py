"""Hints at the table (issue 31 item 2, issue 43 item 3): the evaluator's best few choices at one position.

The judging is :mod:`.evaluate`'s, as for the review (``core.review`` re-exports these
names, which the app imports from there): determinized worlds of the asking seat's
view, racing candidates with common random numbers, the mode's own goal, a win chance.
The first listed is the evaluator's own choice, chosen as the hard bot chooses; a
choice within the noise of the first is marked "about as good", and so is the first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from . import evaluate
from .evaluate import EvalBudget as ReviewBudget
from .evaluate import candidates, chooser, own_choice, paired, prior_first, search_policy
from .notation import Action
from .rng import Rng
from .state import Game, State

HINT_SHOWN = 3
"""Choices a hint shows: the best and the two after it."""

CLOSE = 2.0
"""Paired standard errors within which a choice is "about as good" as the hint's first."""


def hint_budget(game: Game[Any, Any]) -> ReviewBudget:
    """The hint's budget the game declares (``game.eval_spec().hint``)."""
    return evaluate.spec_of(game).hint


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
    top = own_choice(cols, prior_first(view, pol, cands))
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
