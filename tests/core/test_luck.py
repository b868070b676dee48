"""Luck (core/luck.py, issue 48 item 3): measured from each seat's view, zero on average over
the outcomes, and a game won on the draws is said to be."""

from __future__ import annotations

from typing import Any

from coldwater.core import games
from coldwater.core.luck import (
    LuckBudget,
    event_luck,
    final_result,
    luck_events,
    luck_line,
    seat_luck,
)
from coldwater.core.record import GameRecord, initial_state, replay_iter
from coldwater.core.review import search_policy
from coldwater.core.rng import Rng
from coldwater.core.simulate import simulate
from coldwater.core.state import CHANCE, State


def _record(name: str, seed: str, bots: str = "random", entries: int | None = None) -> GameRecord:
    rec = next(simulate(games.get(name), 2, 1, seed, bot=bots, records=True)).record
    assert rec is not None
    if entries is not None:
        rec.entries = rec.entries[:entries]
    return rec


def _chance_nodes(rec: GameRecord, name: str) -> list[State[Any, Any]]:
    game = games.get(name)
    _, st = initial_state(rec, game)
    out = []
    for _, entry, after in replay_iter(rec, game):
        if entry.seat == CHANCE:
            out.append(st)
        st = after.clone()
    return out


def test_the_luck_of_every_outcome_averages_zero() -> None:
    # With every outcome group valued (in the same worlds), the luck of each outcome weighted
    # by its chance sums to 0: the measure takes nothing from a seat on average.
    game = games.get("fisheries")
    rec = _record("fisheries", "avg", entries=60)
    budget = LuckBudget(worlds=2, outcomes=8, max_plies=60, graph_worlds=0)
    pol = search_policy(game)
    mattered = False
    for node in [n for n in _chance_nodes(rec, "fisheries") if len(n.chance_weights()) >= 3][:4]:
        weights = node.chance_weights()
        lucks = [event_luck(game, node, a, Rng("t"), budget, pol) for a, _ in weights]
        total = sum(w for _, w in weights)
        for s in range(2):
            assert any(ev.seen[s] for ev in lucks)
            assert abs(sum(w * ev.luck[s] for (_, w), ev in zip(weights, lucks)) / total) < 1e-4
        mattered = mattered or any(abs(ev.luck[0]) > 0.01 for ev in lucks)
    assert mattered, "some outcome mattered"


def test_a_draw_the_seat_cannot_see_is_no_luck_to_it() -> None:
    # Aquatica deals cards into hands: another seat's hidden card looks the same to you
    # whichever it was, so it is exactly 0 luck to you and measured for the drawer.
    game = games.get("aquatica")
    rec = _record("aquatica", "hid", entries=80)
    pol = search_policy(game)
    budget = LuckBudget(worlds=1, outcomes=3, max_plies=10, graph_worlds=0)
    hidden = 0
    for node in _chance_nodes(rec, "aquatica")[:40]:
        outcome = node.chance_weights()[0][0]
        ev = event_luck(game, node, outcome, Rng("h"), budget, pol)
        for s in range(2):
            if not ev.seen[s]:
                hidden += 1
                assert ev.luck[s] == 0.0 and ev.se[s] == 0.0
    assert hidden, "the opening deals hide cards from the other seat"


def _first_decision(rec: GameRecord, name: str) -> State[Any, Any]:
    game = games.get(name)
    _, st = initial_state(rec, game)
    for _, entry, after in replay_iter(rec, game):
        if entry.seat != CHANCE:
            break
        st = after
    return st


def test_each_seat_values_the_start_as_the_other_does() -> None:
    # Aquatica's basic Kings are dealt in the open, so both seats see the same start: valued in
    # the same worlds, one seat's margin is the other's, negated. A view used to hand the other
    # seat a random King instead of its own (one in five a Fancelot or Herbert, kept as a
    # card), so each seat valued the start ahead for itself (+2.2 ± 0.5 PP summed over 150 starts).
    from coldwater.core.luck import _value

    game = games.get("aquatica")
    pol = search_policy(game)
    for i in range(3):
        start = _first_decision(_record("aquatica", f"start-{i}", entries=80), "aquatica")
        for s in range(2):
            king = start.data.ps[1 - s].king
            world = game.determinize(start.view(s), Rng("w"))
            assert world.data.ps[1 - s].king == king
            assert game.deck.king_id(king) in world.data.ps[1 - s].hand
        v0, v1 = (_value(game, start.view(s), s, Rng("start").fork(i), pol, 2, 30) for s in range(2))
        assert [round(a + b, 9) for a, b in zip(v0, v1, strict=True)] == [0.0, 0.0]


def test_a_cut_playout_is_worth_the_fitted_value() -> None:
    # Cut at the horizon, a playout is worth the game's fitted value (its expected final
    # margin) where the game has one, not the sheet where it stands.
    from coldwater.core import evaluate
    from coldwater.core.luck import _value

    game = games.get("aquatica")
    pol = search_policy(game)
    start = _first_decision(_record("aquatica", "cut", entries=80), "aquatica")
    cut = evaluate.spec_of(game).value
    assert cut is not None
    sheet = _value(game, start.view(0), 0, Rng("c"), pol, 2, 30)
    fitted = _value(game, start.view(0), 0, Rng("c"), pol, 2, 30, cut)
    assert sheet != fitted
    ended = _value(game, start.view(0), 0, Rng("c"), pol, 1, 100_000, cut)
    assert ended == _value(game, start.view(0), 0, Rng("c"), pol, 1, 100_000)


def test_the_same_record_and_seed_give_the_same_luck() -> None:
    game = games.get("crown")
    rec = _record("crown", "same", entries=60)
    budget = LuckBudget(worlds=1, outcomes=2, max_plies=10, graph_worlds=1)
    a = [e for _, _, e in luck_events(rec, game, budget=budget, seed=3)]
    b = [e for _, _, e in luck_events(rec, game, budget=budget, seed=3)]
    assert a == b and len(a) == sum(1 for e in rec.entries if e.seat == CHANCE)


def test_a_game_won_on_the_draws_says_so() -> None:
    # Found among greedy-against-greedy Fisheries games (tests/bench/luck.py --bots greedy,greedy
    # --seed won): seat 1 won, but the draws gave it more than its margin.
    game = games.get("fisheries")
    rec = _record("fisheries", "won-0", bots="greedy,greedy")
    events = [e for _, _, e in luck_events(rec, game)]
    result = final_result(rec, game)
    sl = seat_luck(0, result[0], events)
    assert sl.result > 0, "seat 1 won this game"
    assert sl.luck > 2 * sl.luck_se and sl.luck > sl.result, "its draws were worth more than its margin"
    assert sl.luck_adjusted < 0
    line = luck_line(sl, "points")
    assert line.startswith("You won by ") and "the draws gave you" in line and "on skill you lost by" in line
    other = seat_luck(1, result[1], events)
    assert other.luck_adjusted > 0 and "on skill Bea won by" in luck_line(other, "points", "Bea")


def test_luck_line_words_each_case() -> None:
    from coldwater.core.luck import SeatLuck

    even = SeatLuck(seat=0, result=-6.0, luck=-1.0, luck_se=2.0, luck_adjusted=-5.0, events=3)
    assert luck_line(even, "points") == (
        "You lost by 6.0 points; the draws were about even (-1.0 ± 2.0): on skill you lost by 5.0 points."
    )
    none = SeatLuck(seat=0, result=0.0, luck=0.0, luck_se=0.0, luck_adjusted=0.0, events=0)
    assert "no luck either way" in luck_line(none, "PP")
