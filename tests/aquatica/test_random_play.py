"""Random play at every player count and module, with the per-step checks."""

from __future__ import annotations

import pytest

from .helpers import play_random


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("module", ["goals", "tribes"])
def test_random_games_keep_every_invariant(players: int, module: str) -> None:
    i = players % 2  # alternate the options across player counts
    play_random(players, f"rp{players}{module}", {"module": module, "kings": "advanced" if i else "basic",
                                                   "variable_goals": bool(i)})


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
def test_tribes_solo_levels_play_to_the_end(level: int) -> None:
    play_random(1, f"ts{level}", {"module": "tribes", "solo_level": level})


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("module", ["goals", "tribes"])
def test_many_random_games(players: int, module: str) -> None:
    for i in range(10):
        play_random(players, f"slow{players}{module}{i}",
                    {"module": module, "kings": "advanced" if i % 2 else "basic", "variable_goals": i % 3 == 0},
                    deep=i == 0, every=1)


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("module", ["goals", "tribes"])
def test_many_greedy_games(players: int, module: str) -> None:
    from coldwater.core.aquatica.game import GAME
    from coldwater.core.simulate import simulate

    results = list(simulate(GAME, players, 40, f"sg{module}", bot="greedy",
                            options={"module": module, "kings": "advanced", "variable_goals": True}))
    assert len(results) == 40 and all(len(r.totals) == players for r in results)
