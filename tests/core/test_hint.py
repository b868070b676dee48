"""The hint engine (core.review.hint): the hard bot's policy's best choices from one view,
ranked by the review's playouts; repeatable, view-only, and clear about bad input."""

from __future__ import annotations

import pytest

from coldwater.core import games, record
from coldwater.core.review import ReviewBudget, ReviewError, decisions, hint, rank_choices
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE
from tests.core.test_review import _poisoned, _record

SMALL = ReviewBudget(worlds=4, min_worlds=4, width=4)


@pytest.mark.parametrize("name", ["crown", "fisheries", "aquatica"])
def test_a_hint_is_the_best_three_in_order_and_repeatable(name: str) -> None:
    game = games.get(name)
    d = next(d for d in decisions(_record(name, entries=60), game, 0) if len(d.view.legal()) >= 4)
    h = hint(game, d.view, budget=SMALL)
    assert h == hint(game, d.view, budget=SMALL)  # the same position, the same hint
    assert h.seat == 0 and h.digest == d.view.digest() and h.worlds <= SMALL.worlds
    assert len(h.choices) == 3
    # The first is the evaluator's own choice (the hard bot's rule), then by expected worth;
    # one worth more than the first is never "clearly" behind it: it is about as good.
    values = [c.value for c in h.choices[1:]]
    assert values == sorted(values, reverse=True)
    assert h.choices[0].behind == 0
    first = h.choices[0]
    for c in h.choices[1:]:
        assert c.close == (c.behind <= 2 * c.error)
        if c.value > first.value:
            assert c.close and not h.clear and first.close
    assert h.clear == (not any(c.close for c in h.choices))
    legal = {str(a) for a in d.view.legal()}
    assert all(c.action in legal for c in h.choices)
    assert all(len(c.own) == len(h.categories) for c in h.choices)
    # The same evaluation as the review's: with the same Rng, the values agree.
    ranked = rank_choices(game, d.view, Rng(f"hint/0/{h.digest}"), SMALL)
    by_action = {c.action: c.value for c in ranked}
    for c in h.choices:
        if c.action in by_action:
            assert c.value == pytest.approx(by_action[c.action])


def test_the_choice_made_is_listed_wherever_it_ranks() -> None:
    game = games.get("crown")
    d = next(d for d in decisions(_record("crown", entries=60), game, 0) if len(d.view.legal()) >= 6)
    plain = hint(game, d.view, budget=SMALL)
    shown = {c.action for c in plain.choices}
    outsider = next(a for a in d.view.legal() if str(a) not in shown)
    h = hint(game, d.view, budget=SMALL, include=outsider)
    assert str(outsider) in {c.action for c in h.choices} and len(h.choices) in (3, 4)


def test_hidden_values_the_seat_cannot_see_change_no_hint() -> None:
    game = games.get("crown")
    rec = _record("crown", entries=70)
    bad, changed = _poisoned(rec, game, 0)
    assert changed >= 1
    good_views = [d.view for d in decisions(rec, game, 0)][-3:]
    bad_views = [d.view for d in decisions(bad, game, 0)][-3:]
    assert record.replay(rec, game).digest() != record.replay(bad, game).digest()
    for a, b in zip(good_views, bad_views, strict=True):
        assert hint(game, a, budget=SMALL) == hint(game, b, budget=SMALL)


def test_the_rival_is_named_and_nobody_choosing_is_an_error() -> None:
    game = games.get("crown")
    pond = game.new(1, seed="pond")
    while pond.current == CHANCE:  # past the opening draws
        pond.apply(pond.sample_chance())
    h = hint(game, pond.view(0), budget=ReviewBudget(worlds=2, width=2))
    assert h.rival == "Silent player" and 1 <= len(h.choices) <= 2
    start = game.new(2, seed="x")
    assert start.current == CHANCE  # a draw is pending: no seat to hint
    with pytest.raises(ReviewError, match="nobody is choosing"):
        hint(game, start.view(0), budget=SMALL)
