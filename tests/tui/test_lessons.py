"""Learn to play, the pure part: every kind of decision has a lesson, a fixed-seed game
through the tutor teaches each kind once (before or at its first occurrence), lessons
fit the panel, quote the position's own numbers, and the gentle word speaks only
after a clearly weak choice."""

from __future__ import annotations

from typing import Any

import pytest

from coldwater.core import games
from coldwater.core.crown.model import COLOUR_LOCATION, LOCATION_TITLES, CrownData
from coldwater.core.notation import Action, _tag_of
from coldwater.core.review import Hint, HintChoice, ReviewBudget, hint
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, State
from coldwater.tui import tutor


def _options(name: str) -> dict[str, Any]:
    """The book's first options: a lesson game's rules."""
    return dict(tutor.book(name).FIRST_OPTIONS)


GENTLE_BUDGET = ReviewBudget(worlds=8, width=3)
"""A small hint budget: 30 decisions of a whole game are evaluated here, in the test's process."""


def play(name: str) -> list[tuple[State[Any, Any], list[Action], list[tutor.Lesson]]]:
    """A 2-player fixed-seed game, both seats the easy bot; the tutor watches seat 0.

    Returns each of seat 0's decisions: its view, the legal actions and the lessons due."""
    g = games.get(name)
    bk = tutor.book(name)
    state = g.new(2, seed=tutor.book(name).SEED, options=_options(name))
    bots = [g.bot("easy"), g.bot("easy")]
    rng = Rng("test-lessons")
    taught: set[str] = set()
    out = []
    while state.current is not None:
        cur = state.current
        if cur == CHANCE:
            state.apply(state.sample_chance())
            continue
        view = state.view(cur)
        legal = view.legal()
        if cur == 0:
            lessons = tutor.due(bk, view, 0, legal, taught)
            for lesson in lessons:
                taught.update(lesson.keys)
            out.append((view, legal, lessons))
        state.apply(bots[cur].choose(view, rng.fork(state.ply)))
    out.append((state.view(0), [], [bk.closing(state.view(0), 0)]))
    return out


GAMES = pytest.mark.parametrize("name", tutor.games())


@GAMES
def test_every_decision_kind_has_a_lesson_that_fits(name: str) -> None:
    g = games.get(name)
    bk = tutor.book(name)
    codec = g.new(2, seed="k", options=_options(name)).CODEC
    every = {_tag_of(t) for t in codec.types}
    # The kinds are the decision tags: none of them is a chance outcome of a played game.
    chance_tags: set[str] = set()
    state = g.new(2, seed="kinds", options=_options(name))
    bot, rng = g.bot("greedy"), Rng("kinds")
    while state.current is not None:
        if state.current == CHANCE:
            a = state.sample_chance()
            chance_tags.add(tutor.tag(a))
            state.apply(a)
        else:
            state.apply(bot.choose(state.view(state.current), rng.fork(state.ply)))
    assert set(bk.KINDS) <= every and not chance_tags & set(bk.KINDS)
    assert set(bk.KINDS) | chance_tags == every  # every type is one or the other
    view = g.new(2, seed="k", options=_options(name)).view(0)
    for kind in bk.KINDS:
        lesson = bk.teach(bk.SAME.get(kind, kind), view, [])
        assert lesson.key == bk.SAME.get(kind, kind)
        assert tutor.fits(lesson), (kind, lesson.lines())
    with pytest.raises(KeyError):
        bk.teach("no-such-kind", view, [])


@GAMES
def test_a_fixed_seed_game_teaches_each_kind_once_before_or_at_its_first_occurrence(name: str) -> None:
    bk = tutor.book(name)
    shown: list[str] = []
    occurred: set[str] = set()
    for _view, legal, lessons in play(name):
        for lesson in lessons:
            shown.extend(lesson.keys)
            assert tutor.fits(lesson), (lesson.key, lesson.lines())
            for value in lesson.facts.values():
                assert str(value) in lesson.text, (lesson.key, value)
        kinds = {tutor.tag(a) for a in legal} & set(bk.KINDS)
        occurred |= kinds
        assert kinds <= set(shown), f"{kinds - set(shown)} came before their lesson"
    assert len(shown) == len(set(shown)), "a lesson was shown twice"
    assert occurred, "the game asked seat 0 nothing"
    # Each flow lesson and the closing one came too, and only the kinds that occurred were taught.
    assert set(bk.FLOW) | {"flow.closing"} <= set(shown)
    assert {k for k in shown if not k.startswith("flow.")} == occurred


def test_crown_lessons_quote_the_position() -> None:
    checked = set()
    for view, legal, lessons in play("crown"):
        d: CrownData = view.data
        for lesson in lessons:
            if lesson.key == "catch":
                pend = d.pending[0]
                assert lesson.facts["zone"] == pend.zone
                assert lesson.facts["location"] == LOCATION_TITLES[COLOUR_LOCATION[pend.colour]]
                assert f"Zone {pend.zone} is empty now" in lesson.text
                checked.add("catch")
            if lesson.key == "fill":
                p = d.parties[0]
                for z in (3, 4, 5, 6):
                    assert f"Zone {z}: {sum(p.zones[z - 3])}" in lesson.text
                checked.add("fill")
            if lesson.key == "place":
                assert lesson.facts["side"] == d.parties[0].token
                assert lesson.facts["open"] == len(legal) - sum(1 for a in legal if tutor.tag(a) != "place")
                checked.add("place")
    assert checked == {"catch", "fill", "place"}


def test_fisheries_and_aquatica_lessons_quote_the_position() -> None:
    seen = set()
    for view, _legal, lessons in play("fisheries"):
        for lesson in lessons:
            if "hours" in lesson.facts:
                assert lesson.facts["hours"] == view.data.time[0]
                seen.add(lesson.key)
    assert {"flow.day", "sail"} <= seen
    seen = set()
    for view, _legal, lessons in play("aquatica"):
        for lesson in lessons:
            if lesson.key == "play":
                assert lesson.facts["hand"] == len(view.data.ps[0].hand)
                seen.add("play")
            if "coins" in lesson.facts:
                assert lesson.facts["coins"] == view.data.coins
                seen.add(lesson.key)
    assert {"play", "buy"} <= seen


@GAMES
def test_the_closing_lesson_quotes_the_final_score(name: str) -> None:
    view, _legal, lessons = play(name)[-1]
    (closing,) = lessons
    assert closing.key == "flow.closing" and tutor.fits(closing)
    assert closing.facts["points"] == view.scores().totals[0]
    assert f"You scored {view.scores().totals[0]}" in closing.text


def test_no_lessons_for_an_unknown_game() -> None:
    with pytest.raises(KeyError, match="no lessons"):
        tutor.book("chess")


def test_the_gentle_word_speaks_only_when_the_loss_is_clearly_large() -> None:
    g = games.get("crown")
    a, b, c = g.new(2, seed="g").CODEC.parse("place red"), g.new(2, seed="g").CODEC.parse("place port"), None
    assert c is None
    ranked = [(a, 3.0), (b, 0.5)]
    assert tutor.gentle_word(a, ranked) is None  # the best choice
    assert tutor.gentle_word(b, [(a, 1.0), (b, 0.5)]) is None  # a close call
    word = tutor.gentle_word(b, ranked)
    assert word is not None and "place red" in word and "2.5" in word
    assert tutor.gentle_word(b, [(b, 0.0)]) is None  # nothing else to choose
    assert tutor.gentle_word(b, [(a, 3.0)]) is None  # chosen not in the ranking: no guess


def _hint(*choices: tuple[str, float, float, float]) -> Hint:
    return Hint(
        game="crown",
        seat=0,
        ply=0,
        digest="",
        categories=(),
        rival="",
        worlds=8,
        choices=tuple(HintChoice(a, v, b, e, (), 0.0) for a, v, b, e in choices),
    )


def test_the_hint_ranking_keeps_the_best_only_when_it_beat_the_choice_clearly() -> None:
    g = games.get("crown")
    a, b = g.parse_action("end"), g.parse_action("skip")
    clear = _hint(("end", 9.0, 0.0, 0.0), ("skip", 4.0, 5.0, 1.0))
    assert tutor.hint_ranking(clear, b, g.parse_action) == [(a, 9.0), (b, 4.0)]
    word = tutor.gentle_word(b, tutor.hint_ranking(clear, b, g.parse_action), threshold=3.0)
    assert word is not None and "5.0" in word
    noisy = _hint(("end", 9.0, 0.0, 0.0), ("skip", 4.0, 5.0, 3.0))  # 5 points behind, but within 2 errors
    assert tutor.hint_ranking(noisy, b, g.parse_action) == [(b, 4.0)]
    assert tutor.gentle_word(b, tutor.hint_ranking(noisy, b, g.parse_action), threshold=3.0) is None
    assert tutor.hint_ranking(clear, a, g.parse_action) == [(a, 9.0)]  # the best itself: no word
    assert tutor.hint_ranking(clear, g.parse_action("taketop"), g.parse_action) == []  # not evaluated: no guess


@GAMES
def test_the_greedy_ranking_gives_a_word_for_its_worst_choice_and_none_for_its_best(name: str) -> None:
    g = games.get(name)
    bk = tutor.book(name)
    spoke = False
    for view, legal, _lessons in play(name):
        if len(legal) < 2:
            continue
        ranked = tutor.greedy_ranking(g, view, legal)
        assert [a for a, _ in ranked] == legal
        best = max(ranked, key=lambda av: av[1])[0]
        worst, low = min(ranked, key=lambda av: av[1])
        assert tutor.gentle_word(best, ranked, threshold=bk.GENTLE_LOSS) is None
        top = max(v for _, v in ranked)
        word = tutor.gentle_word(worst, ranked, threshold=bk.GENTLE_LOSS)
        assert (word is not None) == (top - low >= bk.GENTLE_LOSS)
        spoke = spoke or word is not None
    assert spoke, "no decision of the whole game had a clearly weak choice"


@GAMES
def test_the_coach_keeps_what_was_shown_in_the_meta_and_a_new_coach_does_not_repeat_it(name: str) -> None:
    from coldwater.tui.coach import OFF_META, SHOWN_META, Coach

    g = games.get(name)
    state = g.new(2, seed=tutor.book(name).SEED, options=_options(name))
    bots = [g.bot("greedy"), g.bot("easy")]  # the learner plays well: few words
    worst = g.bot("random")
    rng = Rng("coach")
    meta: dict[str, str] = {}
    saves: list[str] = []
    coach = Coach(name, meta, lambda: saves.append(meta.get(SHOWN_META, "")))
    shown: list[str] = []
    words = 0
    decisions = 0
    while state.current is not None and decisions < 60:
        cur = state.current
        if cur == CHANCE:
            state.apply(state.sample_chance())
            continue
        view = state.view(cur)
        if cur == 0:
            decisions += 1
            if decisions == 30:  # leave and come back: a new coach from the saved meta
                meta = dict(meta)
                coach = Coach(name, meta, None)
                assert coach.taught == set(shown) - {"word"}
            coach.see(view, 0, view.legal())
            while coach.shown is not None:  # read every lesson: "got it"
                shown.extend(coach.shown.keys)
                words += coach.shown.key == "word"
                coach.dismiss()
            # Every other choice random: weak ones earn a gentle word.
            bot = worst if decisions % 2 else bots[0]
            action = bot.choose(view, rng.fork(state.ply))
            coach.chose(g, view, action, str)
            # The word comes from the hint engine (the coached table runs it off the UI thread).
            found = hint(g, view, budget=GENTLE_BUDGET, include=action)
            coach.word(name, action, tutor.hint_ranking(found, action, g.parse_action), str)
            while coach.shown is not None:
                shown.extend(coach.shown.keys)
                words += coach.shown.key == "word"
                coach.dismiss()
        else:
            action = bots[1].choose(view, rng.fork(state.ply))
        state.apply(action)
    lessons = [k for k in shown if k != "word"]
    assert len(lessons) == len(set(lessons)) and lessons
    assert saves and set(meta[SHOWN_META].split(",")) == set(lessons)
    coach.skip_all()
    assert coach.off and meta[OFF_META] == "1" and coach.shown is None
    coach.see(state.view(0), 0, state.view(0).legal())
    assert coach.shown is None and Coach(name, dict(meta)).off
    if name != "fisheries":  # Fisheries' random choices are rarely far enough below its pick in 30 tries
        assert words > 0


def _applies(lesson: tutor.Lesson | None, legal: list[Action]) -> bool:
    """A lesson on the panel fits the decision asked: a word or a flow lesson fits any."""
    if lesson is None or lesson.key == "word" or lesson.key.startswith("flow."):
        return True
    return bool({tutor.tag(a) for a in legal} & set(lesson.keys))


@GAMES
@pytest.mark.parametrize("reader", ["hasty", "reads some"])
def test_the_lesson_on_the_panel_is_about_the_decision_on_screen(name: str, reader: str) -> None:
    """A learner who chooses while a lesson is up (choosing is "got it"), or reads one lesson
    and then chooses: the panel never explains a step that is not the one asked (it did: the
    lesson queued for Crown's step 1 came up while step 2 was asked)."""
    from coldwater.tui.coach import Coach

    g = games.get(name)
    state = g.new(2, seed=tutor.book(name).SEED, options=_options(name))
    bot = g.bot("easy")
    rng = Rng("panel")
    coach = Coach(name, {})
    decisions = 0
    seen_kinds: list[str] = []
    while state.current is not None and decisions < 120:
        cur = state.current
        if cur == CHANCE:
            state.apply(state.sample_chance())
            continue
        view = state.view(cur)
        action = bot.choose(view, rng.fork(state.ply))
        if cur == 0:
            decisions += 1
            legal = view.legal()
            coach.see(view, 0, legal)
            assert _applies(coach.shown, legal), (decisions, coach.shown, [tutor.tag(a) for a in legal])
            if reader == "reads some" and coach.shown is not None:
                coach.dismiss()  # one G: the next lesson waiting, if it fits
                assert _applies(coach.shown, legal), (decisions, coach.shown, [tutor.tag(a) for a in legal])
            if coach.shown is not None and not coach.shown.key.startswith(("flow.", "word")):
                seen_kinds.append(coach.shown.key)
            coach.chose(g, view, action, str)
            assert coach.shown is None or coach.shown.key == "word" or coach.shown.key.startswith("flow.")
        state.apply(action)
    # Decisions' lessons still come, each at its own decision.
    assert len(seen_kinds) >= 2 and len(seen_kinds) == len(set(seen_kinds))


def test_an_undo_back_past_a_decision_takes_its_lesson_off_and_it_comes_again() -> None:
    """Crown: at step 2 the remove lesson is up; undo goes back to step 1. The panel does not
    explain step 2 while step 1 is asked, and the remove lesson comes again at step 2."""
    from coldwater.tui.coach import Coach

    g = games.get("crown")
    state = g.new(2, seed=tutor.book("crown").SEED)
    while state.current == CHANCE:
        state.apply(state.sample_chance())
    meta: dict[str, str] = {}
    coach = Coach("crown", meta)
    step1 = state.view(0)
    coach.see(step1, 0, step1.legal())
    while coach.shown is not None and coach.shown.key != "place":
        coach.dismiss()
    assert coach.shown is not None and coach.shown.key == "place"
    place = next(a for a in step1.legal() if tutor.tag(a) == "place")
    coach.chose(g, step1, place, str)
    state.apply(place)
    while state.current == CHANCE:
        state.apply(state.sample_chance())
    step2 = state.view(0)
    assert "remove" in {tutor.tag(a) for a in step2.legal()}
    coach.see(step2, 0, step2.legal())
    assert coach.shown is not None and coach.shown.key == "remove" and "remove" in coach.taught
    coach.see(step1, 0, step1.legal())  # undone: step 1 is asked again
    assert coach.shown is None or coach.shown.key != "remove"
    assert "remove" not in coach.taught and "remove" not in meta.get("lessons_shown", "")
    coach.see(step2, 0, step2.legal())
    while coach.shown is not None and coach.shown.key != "remove":
        coach.dismiss()
    assert coach.shown is not None and coach.shown.key == "remove"


@GAMES
def test_the_closing_lesson_names_the_line_of_the_score_sheet_that_made_the_difference(name: str) -> None:
    view, _legal, lessons = play(name)[-1]
    (closing,) = lessons
    sc = view.scores()
    winner = sc.ranking[0]
    if winner == 0:
        c = max(range(len(sc.categories)), key=lambda i: sc.rows[0][i])
        assert f"most from {sc.categories[c]}: {sc.rows[0][c]}" in closing.text
    else:
        gaps = [sc.rows[winner][i] - sc.rows[0][i] for i in range(len(sc.categories))]
        c = gaps.index(max(gaps))
        assert f"{sc.categories[c]}: {sc.rows[0][c]} against {sc.rows[winner][c]}" in closing.text
    assert closing.facts["where"] in closing.text and tutor.fits(closing)


@pytest.mark.parametrize("seed", ["end-a", "end-b", "end-c"])
def test_the_crown_end_lesson_comes_on_the_learners_last_turn_not_after_it(seed: str) -> None:
    # Whoever triggers the end, seat 0 still has a decision of a regular turn left when the
    # lesson first becomes due: its own turn reaching 12 fish (before it presses e), or its
    # final turn after a rival triggered it. The old rule waited for the contests.
    g = games.get("crown")
    bk = tutor.book("crown")
    state = g.new(2, seed=seed)
    bots = [g.bot("greedy"), g.bot("greedy")]
    rng = Rng("end-lesson")
    first_due: CrownData | None = None
    while state.current is not None:
        cur = state.current
        if cur == CHANCE:
            state.apply(state.sample_chance())
            continue
        view = state.view(0)
        if cur == 0 and first_due is None and "flow.end" in bk.flow_due(view, 0):
            first_due = view.data
            text = bk.flow("flow.end", view, 0).text
            mine = not view.data.end_triggered
            assert ("When you end this turn" in text) == mine, text
        state.apply(bots[cur].choose(state.view(cur), rng))
    assert first_due is not None and first_due.phase != "submit"


def test_paying_lessons_say_mantas_and_depths_pay_the_rest_and_the_contest_lesson_gives_the_rulebooks_tip() -> None:
    # A learner with too few coins or too little power must hear that a ready Manta or a
    # resource Depth makes up the difference; and the Crown rulebook's own contest advice.
    seen = set()
    for _view, _legal, lessons in play("aquatica"):
        for lesson in lessons:
            if lesson.key in ("buy", "conq", "rc"):
                assert "Mantas and" in lesson.text and "Depths pay the rest" in lesson.text, lesson.text
                assert tutor.fits(lesson)
                seen.add(lesson.key)
    assert seen == {"buy", "conq", "rc"}
    submits = [x for _v, _l, ls in play("crown") for x in ls if x.key == "submit"]
    assert submits and all("heaviest fish of each species" in x.text and tutor.fits(x) for x in submits)
