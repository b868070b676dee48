"""OpenSpiel-style random simulation: every invariant checked at every step.

The default run plays a few hundred games (full checks on some, the cheap ones
on all); ``-m slow`` adds thousands of seeds.
"""

from __future__ import annotations

import pytest

from coldwater.core.crown.game import GAME
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE

from .invariants import conservation, play_checked


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(2))
def test_random_play_full_checks(players: int, seed: int) -> None:
    s = play_checked(players, f"full/{seed}", full=True)
    assert s.is_over and s.scores().final


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_greedy_play_full_checks(players: int) -> None:
    s = play_checked(players, "greedy-full", full=True, bot="greedy")
    assert s.is_over


@pytest.mark.parametrize("players", [2, 4])
def test_no_tags_variant_full_checks(players: int) -> None:
    s = play_checked(players, "notags", full=True, options={"no_tags": True})
    assert s.scores().rows[0][-1] == 0


def _light(players: int, seed: str, bot: str = "random") -> None:
    """Cheap checks every step: conservation, sorted non-empty legal, view legality on turn."""
    s = GAME.new(players, seed=seed)
    rng = Rng(seed)
    b = GAME.bot(bot)
    while not s.is_over:
        conservation(s.data)
        legal = s.legal()
        assert legal
        if s.current == CHANCE:
            s.apply(s.sample_chance())
        else:
            v = s.view(s.current)
            assert v.legal() == legal
            s.apply(b.choose(v, rng.fork(s.ply)))
    conservation(s.data)
    assert s.scores().final


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_play_many_seeds_light(players: int) -> None:
    for seed in range({1: 80, 2: 40, 3: 20, 4: 15}[players]):
        _light(players, f"light/{players}/{seed}", "random" if seed % 2 else "greedy")


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_play_thousands_of_seeds(players: int) -> None:
    n = {1: 1000, 2: 400, 3: 200, 4: 150}[players]
    for seed in range(n):
        _light(players, f"slow/{players}/{seed}", "random" if seed % 3 else "greedy")


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_full_checks_more_seeds(players: int) -> None:
    for seed in range(6):
        play_checked(players, f"slowfull/{seed}", full=True, bot="random" if seed % 2 else "greedy")
