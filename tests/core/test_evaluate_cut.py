"""The evaluator's value at the cut, as the hard bots search with it (issue 43).

Crown's and Aquatica's hard bots cut a playout after ``horizon`` decisions and score it
with the review's fitted value; a solo Aquatica game has no such value (its goal is a
title or a condition), so the search plays it on to the end.
"""

from __future__ import annotations

import math
from typing import Any

from coldwater.core import evaluate, games
from coldwater.core.rng import Rng
from coldwater.core.search import SearchBot
from coldwater.core.state import CHANCE, State


def _mid(name: str, players: int, seed: str, min_ply: int = 40) -> State[Any, Any]:
    g = games.get(name)
    s = g.new(players, seed=seed)
    greedy = g.bot("greedy")
    r = Rng(seed)
    while (cur := s.current) is not None:
        if cur != CHANCE and s.ply >= min_ply and len(s.legal()) >= 3:
            return s
        s.apply(s.sample_chance() if cur == CHANCE else greedy.choose(s.view(cur), r.fork(s.ply)))
    raise AssertionError("no choice found")


def test_aquatica_hard_searches_on_the_reviews_cut() -> None:
    """The hard bot's horizon is the review's, and an unfinished 2-player position is worth
    what the fitted value says (each seat in [0, 1], the leader on the value ahead)."""
    g = games.get("aquatica")
    spec = evaluate.spec_of(g)
    bot = g.bot("hard")
    assert isinstance(bot, SearchBot) and isinstance(spec.value, evaluate.LinearCut)
    assert bot.horizon == spec.review.horizon > 0
    s = _mid("aquatica", 2, "cut/aq")
    worth = bot.evaluate(s, tuple(s.scores().totals))
    totals = spec.value.totals(s)
    assert worth is not None and totals is not None and all(0.0 <= w <= 1.0 for w in worth)
    assert (worth[0] > worth[1]) == (totals[0] > totals[1])


def test_an_aquatica_solo_search_plays_to_its_goal() -> None:
    """Alone there is no value at the cut: the evaluation declines an unfinished position
    (None) and the search plays every playout to the end, whatever its horizon, so the same
    seed chooses the same move as a search with no cut at all."""
    g = games.get("aquatica")
    s = _mid("aquatica", 1, "cut/solo")
    bot = g.bot("hard")
    assert isinstance(bot, SearchBot)
    assert bot.evaluate(s, (0,)) is None
    view = s.view(s.current)
    moves = []
    for horizon in (3, 10_000):
        b = g.bot("hard")
        assert isinstance(b, SearchBot)
        b.iterations, b.horizon, b.max_plies, b.max_seconds = 12, horizon, None, math.inf
        moves.append((b.choose(view, Rng("solo")), b.last_plies))
    assert moves[0] == moves[1]
