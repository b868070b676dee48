"""The review (core/review.py, `coldwater review`): views only, repeatable, a clear error for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coldwater.core import games, record
from coldwater.core.errors import RecordError
from coldwater.core.record import GameRecord
from coldwater.core.review import (
    DecisionReview,
    ReviewBudget,
    ReviewError,
    decisions,
    rank_choices,
    review,
    review_seat,
    search_policy,
    standing,
    summarize,
)
from coldwater.core.rng import Rng
from coldwater.core.simulate import simulate
from coldwater.core.state import CHANCE, Game
from coldwater.net.play import records
from coldwater.tui.cli import main

SMALL = ReviewBudget(worlds=3, min_worlds=3, width=2, measure=3, confirm=4, confirm_top=3)


def _record(name: str, bots: str = "greedy", seed: str = "rv", entries: int | None = 80) -> GameRecord:
    """A simulated game's record, cut to its first `entries` (a game in progress reviews too)."""
    res = next(simulate(games.get(name), 2, 1, seed, bot=bots, records=True))
    assert res.record is not None
    rec = res.record
    if entries is not None:
        rec.entries = rec.entries[:entries]
    return rec


def _views(rec: GameRecord, game: Game[Any, Any], seat: int) -> list[bytes]:
    return [d.view.encode() for d in decisions(rec, game, seat)]


def _poisoned(rec: GameRecord, game: Game[Any, Any], seat: int) -> tuple[GameRecord, int]:
    """The same game with chance outcomes `seat` never saw replaced by others it cannot tell apart.

    Each substitution is kept only if every later action stays legal and every view
    `seat` had at its decisions stays the same, so the seat knew exactly what it knew;
    the full positions (what the record holds beyond the views) differ.
    """
    actions = [(e.seat, e.action) for e in rec.entries]
    want = _views(rec, game, seat)
    changed = 0
    _, st = record.initial_state(rec, game)
    for i, (who, text) in enumerate(actions):
        if who == CHANCE and changed < 6:
            a = game.parse_action(text)
            seen = st.seen_outcome(a, seat)
            for alt, _ in st.chance_outcomes():
                if alt == a or st.seen_outcome(alt, seat) != seen:
                    continue
                trial = [*actions[:i], (CHANCE, str(alt)), *actions[i + 1 :]]
                cand = _rebuild(rec, game, trial)
                if cand is not None and _views(cand, game, seat) == want:
                    actions, changed = trial, changed + 1
                    break
        st.apply(game.parse_action(actions[i][1]))
    out = _rebuild(rec, game, actions)
    assert out is not None
    return out, changed


def _rebuild(rec: GameRecord, game: Game[Any, Any], actions: list[tuple[int, str]]) -> GameRecord | None:
    _, st = record.initial_state(rec, game)
    new = record.start(game, st, rec.options, meta=dict(rec.meta))
    for who, text in actions:
        if st.current != who:
            return None
        a = game.parse_action(text)
        if not st.is_legal(a):
            return None
        st.apply(a)
        record.append(new, who, a, st)
    return new


@pytest.mark.parametrize("name", ["crown", "aquatica"])
def test_poisoned_hidden_values_change_nothing(name: str) -> None:
    game = games.get(name)
    rec = _record(name, entries=70)
    bad, changed = _poisoned(rec, game, 0)
    assert changed >= 1, "the test must really change a hidden value"
    full_a = record.replay(rec, game)
    full_b = record.replay(bad, game)
    assert full_a.digest() != full_b.digest()  # the record's hidden values differ...
    assert full_a.view(0) == full_b.view(0)  # ...and seat 1 cannot tell
    assert review(bad, game, 0, budget=SMALL) == review(rec, game, 0, budget=SMALL)


def test_fisheries_has_nothing_hidden_to_poison() -> None:
    # Fisheries is a game of open information: a seat's view is the full position,
    # so there is no hidden value a review could read; its views are checked as equal.
    game = games.get("fisheries")
    _, st = record.initial_state(_record("fisheries", entries=5), game)
    assert st.view(0) == st


@pytest.mark.parametrize("name", games.names())
def test_deterministic_for_a_seed_and_budget(name: str) -> None:
    game = games.get(name)
    rec = _record(name, bots="random,greedy", entries=90)
    a = review(rec, game, 0, budget=SMALL, seed=7)
    assert a == review(rec, game, 0, budget=SMALL, seed=7)
    assert a.decisions == len(list(decisions(rec, game, 0))) > 0
    for d in a.reviewed:
        assert d.choices[0].action == d.chosen and d.loss >= 0 and d.seat == 0
        if d.best == d.chosen:  # the evaluator chose the same: exactly nothing behind
            assert d.behind == d.charged == d.loss == 0 and d.value_before == d.value_after
        else:
            assert d.behind_se >= 0 and 0 <= d.win_after <= 1 and 0 <= d.win_before <= 1
            assert d.charged in (0.0, d.behind)
            if not d.confirmed:
                assert d.loss == pytest.approx(max(0.0, d.behind), abs=1e-5)
            # Before and after are measured on the same worlds as the loss shown.
            shown = d.behind if not d.confirmed else d.loss
            assert max(0.0, d.value_before - d.value_after) == pytest.approx(max(0.0, shown), abs=1e-4)
    assert a.total_loss == a.points_behind == pytest.approx(sum(d.charged for d in a.reviewed), abs=1e-4)
    assert a.points_behind_se >= 0
    assert all(d.confirmed and d.loss > 0 for d in a.worst)
    assert list(a.worst) == sorted(a.worst, key=lambda d: -d.loss)


def _dr(ply: int, chosen: str, best: str, behind: float) -> DecisionReview:
    return DecisionReview(
        ply=ply,
        round=1,
        turn=1,
        chosen=chosen,
        best=best,
        chosen_text=chosen,
        best_text=best,
        loss=max(0.0, behind),
        choices=(),
        behind=behind,
        behind_se=1.0,
        charged=behind,
    )


def test_a_standing_opportunity_is_charged_once_at_the_first() -> None:
    # A Lure held over several decisions: the evaluator wants one played each time (which
    # bait it swaps may differ), the seat never plays it until ply 30.
    seq = [
        _dr(3, "place red", "place red", 0.0),
        _dr(7, "remove red", "lure a", 4.0),
        _dr(9, "end", "lure b", 3.5),
        _dr(12, "place blue", "place port", 2.0),  # another opportunity meanwhile
        _dr(14, "place green", "place port", 2.5),  # ... the same one, at the next decision
        _dr(18, "end", "lure a", 3.0),  # still the Lure it held at ply 7
        _dr(30, "lure c", "lure c", 0.0),  # played at last
        _dr(33, "end", "lure d", 5.0),  # a new Lure: a new opportunity
        _dr(36, "place blue", "place port", 1.0),  # not the decision right after ply 14: charged
    ]
    out = standing(seq)
    assert [r.charged for r in out] == [0.0, 4.0, 0.0, 2.0, 0.0, 0.0, 0.0, 5.0, 1.0]
    assert [r.standing for r in out] == [-1, -1, 7, -1, 12, 7, -1, -1, -1]
    assert summarize("crown", 0, out).points_behind == pytest.approx(12.0)


def test_several_seats_in_one_pass_match_one_seat_at_a_time() -> None:
    game = games.get("fisheries")
    rec = _record("fisheries", bots="random,greedy", entries=60)
    both = list(review_seat(rec, game, [0, 1], budget=SMALL, seed=3))
    assert {r.seat for _, _, r in both} == {0, 1}
    ks = [k for k, _, _ in both]
    assert ks == sorted(ks) and both[-1][0] == both[-1][1]  # progress only rises, to 100%
    for seat in (0, 1):
        alone = review(rec, game, seat, budget=SMALL, seed=3)
        assert summarize("fisheries", seat, [r for _, _, r in both]) == alone
        assert all(d.seat == seat for d in alone.reviewed)


def test_only_real_decisions_are_counted() -> None:
    game = games.get("aquatica")
    rec = _record("aquatica", entries=None)
    _, st = record.initial_state(rec, game)
    real = 0
    for e in rec.entries:
        if e.seat == 1 and len(st.legal()) > 1:
            real += 1
        st.apply(game.parse_action(e.action))
    forced = sum(1 for e in rec.entries if e.seat == 1) - real
    assert forced > 0  # the record has forced steps the review must skip
    assert len(list(decisions(rec, game, 1))) == real


def test_rank_choices_reads_the_view_and_puts_include_first() -> None:
    game = games.get("aquatica")
    rec = _record("aquatica", entries=90)
    d = next(decisions(rec, game, 0))
    top = rank_choices(game, d.view, Rng(1), SMALL)
    assert len(top) == min(SMALL.width, len(d.view.legal())) and top[0].gain == 0.0
    legal = [str(a) for a in d.view.legal()]
    last = legal[-1] if legal[-1] != top[0].action else legal[0]
    with_it = rank_choices(game, d.view, Rng(1), SMALL, include=game.parse_action(last))
    assert with_it[0].action == last
    policy = search_policy(game)
    assert rank_choices(game, d.view, Rng(1), SMALL, policy=policy) == top


def test_a_clearly_bad_choice_costs_more_than_the_greedy_one() -> None:
    # Crown's first decisions: a random seat's choices against the greedy policy's,
    # over the same opening, with a budget fine enough to tell them apart.
    game = games.get("crown")
    budget = ReviewBudget(worlds=10, width=3)
    rnd = review(_record("crown", bots="random,greedy", seed="bad", entries=120), game, 0, budget=budget)
    good = review(_record("crown", bots="greedy", seed="bad", entries=120), game, 0, budget=budget)
    assert rnd.mean_loss > good.mean_loss


def test_errors_are_clear() -> None:
    game = games.get("crown")
    rec = _record("crown", entries=10)
    with pytest.raises(ReviewError, match="seat 3 is not in this game"):
        list(decisions(rec, game, 2))
    with pytest.raises(ReviewError, match="depth"):
        SMALL.deeper(0)
    other = _record("crown", entries=10)
    other.entries[3] = record.Entry(other.entries[3].seat, other.entries[3].action, "0" * 64)
    with pytest.raises(RecordError, match="entry 4"):
        review(other, game, 0, budget=SMALL)


# ---- the command line -------------------------------------------------------------------


@pytest.fixture(scope="module")
def short_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    records.save(_record("fisheries", bots="random,greedy", entries=38), path)
    return path


def test_cli_json_has_the_promised_shape(short_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(short_record), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2  # one object per seat
    for n, line in enumerate(lines, start=1):
        obj = json.loads(line)
        assert obj["seat"] == n
        assert isinstance(obj["decisions"], int) and obj["decisions"] > 0
        assert obj["mean_loss"] == pytest.approx(obj["total_loss"] / obj["decisions"], abs=0.01)
        assert obj["points_behind"] == obj["total_loss"] and obj["points_behind_se"] >= 0
        # Issue 48: the grades, the luck and the win-chance series of every seat.
        assert 0 <= obj["accuracy"] <= 100
        assert obj["luck_adjusted"] == pytest.approx(obj["result"] - obj["luck"], abs=0.02)
        assert obj["win_chance"] and all(0 <= c <= 1 for _, c in obj["win_chance"])
        for w in obj["worst"]:
            assert {"ply", "round", "turn", "chosen", "best", "loss", "loss_se", "win_before", "win_after"} <= set(w)
            assert w["label"] in ("", "inaccuracy", "mistake", "blunder") and w["move"] >= 1
            assert w["loss"] > 0 and w["chosen"] != w["best"] and w["confirmed"]
    assert main(["review", str(short_record), "--json", "--seat", "2"]) == 0
    again = capsys.readouterr().out.splitlines()
    assert again == [lines[1]]  # the same seed and depth: the same figures


def test_cli_text(short_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(short_record), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Seat 1 (random): ") and "decisions" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "3"], "seat 3 is not in this game"),
        (["--seat", "0"], "seat 0 is not in this game"),
        (["--depth", "0"], "depth"),
    ],
)
def test_cli_refuses_bad_arguments(
    short_record: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(short_record), *args]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_refuses_corrupt_and_unknown_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not a record")
    assert main(["review", str(bad)]) == 1
    assert "not a coldwater record" in capsys.readouterr().err
    rec = _record("crown", entries=4)
    rec.game = "chess"
    odd = tmp_path / "odd.json"
    records.save(rec, odd)
    assert main(["review", str(odd)]) == 1
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_simulate_writes_records_replays_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "recs"
    assert main(["simulate", "fisheries", "--games", "2", "--seed", "s", "--bot", "random", "--records", str(out)]) == 0
    files = sorted(out.glob("*.json"))
    assert len(files) == 2
    printed = capsys.readouterr().out.splitlines()
    for f, line in zip(files, printed):
        rec = records.load(f)
        final = record.replay(rec)
        assert final.is_over and final.digest()[:16] in line
        assert rec.meta["seats"] == "random, random" and rec.meta.get("winner")
    assert main(["replay", str(files[0])]) == 0


def test_the_costliest_list_holds_only_losses_clear_of_their_noise() -> None:
    # A confirmed 0.6 ± 1.4 is a coin toss; 6.0 ± 1.9 is a mistake. Only the second is listed,
    # though both count toward points behind.
    from coldwater.core.review import DecisionReview, summarize

    def d(ply: int, loss: float, se: float) -> DecisionReview:
        return DecisionReview(
            ply=ply,
            round=1,
            turn=1,
            chosen="a",
            best="b",
            chosen_text="a",
            best_text="b",
            loss=loss,
            loss_se=se,
            choices=(),
            confirmed=True,
            behind=loss,
            behind_se=se,
            charged=loss,
        )

    r = summarize("aquatica", 0, [d(3, 0.6, 1.4), d(7, 6.0, 1.9), d(9, 3.9, 1.9)])
    assert [x.ply for x in r.worst] == [7, 9]
    assert r.points_behind == pytest.approx(10.5)


def test_the_evaluator_takes_a_solo_goal_from_the_game_not_from_its_name() -> None:
    # Tribes Solo is won only with every Tribe recruited (none in play yet is no win), the base
    # solo at The Leviathan; core/evaluate.py asks the State (solo_goal, fit_mode) and names no game.
    from coldwater.core import evaluate

    g = games.get("aquatica")
    tribes = g.new(1, seed="t", options={"module": "tribes", "solo_level": 2})
    base = g.new(1, seed="t", options={"module": "goals"})
    assert evaluate.fit_key("aquatica", tribes) == "aquatica/1/tribes"
    assert evaluate.fit_key("aquatica", base) == "aquatica/1"
    assert evaluate.goal(base, 0)[1] == 0.0 and evaluate.goal(tribes, 0)[1] == 0.0
    source = (Path(evaluate.__file__)).read_text().lower()
    assert not any(name in source.split('"""', 2)[2] for name in ("tribes solo", "leviathan", "getattr("))


def _mid_game(name: str, players: int = 2, plies: int = 60) -> Any:
    """A position `plies` entries into a greedy game (full: every hidden value in it)."""
    g = games.get(name)
    st = g.new(players, seed="cut")
    bots = [g.bot("greedy") for _ in range(players)]
    rng = Rng("cut")
    while st.ply < plies and st.current is not None:
        cur = st.current
        st.apply(st.sample_chance() if cur == CHANCE else bots[cur].choose(st.view(cur), rng.fork(st.ply)))
    return st


@pytest.mark.parametrize("name", ["crown", "aquatica"])
def test_a_review_playout_stops_at_its_horizon_and_the_fitted_value_judges_it(name: str) -> None:
    from coldwater.core import evaluate
    from coldwater.core.search import FastRng

    g = games.get(name)
    spec = evaluate.spec_of(g)
    assert spec.review.horizon > 0 and isinstance(spec.value, evaluate.LinearCut)
    st = _mid_game(name)
    me = 0
    cut = st.clone()
    pts, win, sheet = evaluate.worth(
        name, cut, me, search_policy(g), FastRng(Rng("w")), 100_000, horizon=5, value=spec.value
    )
    assert cut.current is not None, "five decisions do not end the game"
    assert pts == pytest.approx(spec.value(cut, me))
    assert 0.0 < win < 1.0 and sheet == cut.scores()
    # Without the horizon the same playout goes on to the end and the mode's goal judges it.
    whole = st.clone()
    pts_end, won, _ = evaluate.worth(name, whole, me, search_policy(g), FastRng(Rng("w")), 100_000)
    assert whole.current is None and (pts_end, won) == evaluate.goal(whole, me)


def test_the_playout_loop_counts_decisions_not_chance_draws() -> None:
    from coldwater.core.search import FastRng, playout

    g = games.get("crown")
    st = _mid_game("crown")
    before = st.clone()
    playout(st, search_policy(g), FastRng(Rng("p")), 7)
    assert st.current is not None and st.ply >= before.ply + 7
    again = before.clone()
    playout(again, search_policy(g), FastRng(Rng("p")), 7)
    assert again == st, "the same seed plays the same playout"


def test_a_solo_mode_has_no_value_at_the_cut_and_plays_to_the_end() -> None:
    from coldwater.core import evaluate

    g = games.get("aquatica")
    solo = g.new(1, seed="s", options={"module": "goals"})
    value = evaluate.spec_of(g).value
    assert value is not None and value(solo, 0) is None


def test_the_budgets_are_declared_by_each_game_and_the_review_names_none() -> None:
    from coldwater.core import evaluate, hints, review
    from coldwater.core.review import default_budget, hint_budget

    for name in games.names():
        g = games.get(name)
        assert default_budget(g) == g.bot_spec().coach.review == evaluate.spec_of(g).review
        assert hint_budget(g) == g.bot_spec().coach.hint
    for mod in (review, hints, evaluate):
        source = Path(mod.__file__ or "").read_text().lower()
        body = source.split('"""', 2)[2]
        assert not any(f'"{n}"' in body for n in games.names()), mod.__name__
