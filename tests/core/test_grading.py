"""The review's grades (core/grading.py, issue 48): labels by win chance beyond the noise,
lichess's accuracy, one numbering, why in the score sheet's words, and the --json object."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from coldwater.core import games, grading
from coldwater.core.luck import LuckBudget, luck_events
from coldwater.core.review import DecisionReview, ReviewBudget, review_seat, summarize
from coldwater.core.reviewjson import seat_json
from coldwater.core.simulate import simulate


def _dr(before: float, after: float, loss: float, se: float, **kw: Any) -> DecisionReview:
    return DecisionReview(
        ply=kw.pop("ply", 10),
        round=2,
        turn=3,
        chosen="a",
        best="b",
        chosen_text="",
        best_text="",
        loss=loss,
        loss_se=se,
        behind=loss,
        behind_se=se,
        choices=(),
        confirmed=True,
        win_before=before,
        win_after=after,
        **kw,
    )


@pytest.mark.parametrize(
    ("drop", "want"),
    [(0.02, ""), (grading.INACCURACY, "inaccuracy"), (grading.MISTAKE, "mistake"), (grading.BLUNDER + 0.2, "blunder")],
)
def test_labels_follow_the_win_chance_drop(drop: float, want: str) -> None:
    assert grading.label(_dr(0.6, 0.6 - drop - 1e-9, 5.0, 1.0)) == want


def test_a_choice_within_the_noise_is_never_labelled() -> None:
    # A big drop in win chance, but the points behind are within two standard errors of 0.
    assert grading.label(_dr(0.8, 0.3, 3.0, 2.0)) == ""
    assert grading.label(_dr(0.8, 0.3, 3.0, 1.4)) == "blunder"


def test_accuracy_is_lichess_s_on_the_win_chance() -> None:
    assert grading.move_accuracy(0) == 100.0
    steps = [grading.move_accuracy(x) for x in (1, 5, 10, 20, 40, 100)]
    assert steps == sorted(steps, reverse=True) and 0 <= steps[-1] < steps[0] < 100
    perfect = [_dr(0.5, 0.5, 0.0, 0.0, ply=p) for p in range(10)]
    assert grading.accuracy(perfect) == 100.0
    one_blunder = [*perfect[:9], _dr(0.5, 0.2, 8.0, 1.0, ply=9)]
    worse = grading.accuracy(one_blunder)
    assert 0 < worse < 100
    # The harmonic mean weighs a blunder more than the plain mean of the moves would.
    plain = sum(grading.move_accuracy(100 * grading.drop(d)) for d in one_blunder) / 10
    assert worse < plain


def test_the_numbering_is_the_replay_s() -> None:
    from coldwater.tui.screens.timeline import Timeline

    game = games.get("crown")
    rec = next(simulate(game, 2, 1, "num", bot="random", records=True)).record
    assert rec is not None
    rec.entries = rec.entries[:120]
    moves = grading.Moves(rec)
    tl = Timeline(rec, game)
    for p in range(len(rec.entries) + 1):
        assert moves.before[p] == tl.decisions_before(p)
    first = tl.decision_pos[0]
    assert moves.move(first) == 1 and moves.where(1, 1, first) == "round 1, turn 1, move 1"
    assert tl.where(first) == f"{tl.when(first)}, move 1"


def test_why_says_what_the_better_choice_gains_in_second_person() -> None:
    d = _dr(0.6, 0.4, 4.0, 1.0, categories=("lake", "shore", "tags"), gains=(3.2, -0.6, 0.1), rival_gain=1.5)
    text = grading.why(d, "points", {"lake": "the Lake contest", "shore": "the Shore contest"}.get, "Bea")
    assert text == (
        "You would have scored 3.2 points more from the Lake contest, Bea would have ended 1.5 lower, "
        "for 0.6 points less from the Shore contest."
    )
    assert grading.why(_dr(0.6, 0.4, 4.0, 1.0), "points") == ""


def test_the_json_of_every_seat() -> None:
    game = games.get("crown")
    rec = next(simulate(game, 2, 1, "js", bot="random,greedy", records=True)).record
    assert rec is not None
    rec.entries = rec.entries[:90]
    budget = ReviewBudget(worlds=3, min_worlds=3, width=2, measure=3, confirm=4, confirm_top=3)
    done = [r for _, _, r in review_seat(rec, game, [0, 1], budget=budget)]
    events = [e for _, _, e in luck_events(rec, game, budget=LuckBudget(worlds=1, outcomes=2, graph_worlds=1))]
    for s in range(2):
        sr = summarize("crown", s, done)
        out = json.loads(json.dumps(seat_json(sr, f"S{s}", rec, game, events)))
        assert out["seat"] == s + 1 and 0 <= out["accuracy"] <= 100
        for key in ("points_behind", "luck", "luck_adjusted", "result", "luck_se"):
            assert isinstance(out[key], float | int)
        assert out["luck_adjusted"] == pytest.approx(out["result"] - out["luck"], abs=0.02)
        pairs = out["win_chance"]
        assert pairs and all(len(p) == 2 and 0 <= p[1] <= 1 for p in pairs)
        assert [p[0] for p in pairs] == sorted(p[0] for p in pairs)
        for w in out["worst"]:
            assert w["label"] in ("", *grading.LABELS)
            assert w["where"] == f"round {w['round']}, turn {w['turn']}, move {w['move']}"
            assert "choices" not in w
        mine = [d for d in done if d.seat == s]
        assert len({d.ply for d in mine}) == out["decisions"]
    assert msgspec.json.encode(events)  # the events cross a boundary as msgspec Structs
