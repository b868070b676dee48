"""Contract checks every registered game must pass, whatever its rules.

A view projected again to the public view must equal the public view of the
full state: LAN peers hold only their own view and compare public digests with
the host after every step, so a projection that is not idempotent desyncs them.
"""

from __future__ import annotations

from typing import Any

import pytest

from coldwater.core import games
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE

CASES: list[tuple[str, int, Any]] = [
    ("crown", 1, None), ("crown", 4, None),
    ("fisheries", 2, None), ("fisheries", 2, {"board": "B", "market": True}),
    ("aquatica", 1, None), ("aquatica", 3, {"kings": "advanced"}), ("aquatica", 5, {"module": "tribes"}),
]


@pytest.mark.parametrize("name,players,options", CASES)
def test_every_views_public_projection_is_the_public_view(name: str, players: int, options: Any) -> None:
    game = games.get(name)
    state = game.new(players, seed=f"views/{name}/{players}", options=options)
    rng = Rng("views")
    checked = 0
    while not state.is_over and state.ply < 1500:
        public = state.view(None)
        for seat in range(players):
            mine = state.view(seat)
            assert mine.view(None).encode() == public.encode(), f"{name}: seat {seat}'s view at ply {state.ply}"
            assert mine.view(seat).encode() == mine.encode(), f"{name}: view({seat}) is not idempotent"
        checked += 1
        state.apply(state.sample_chance() if state.current == CHANCE else rng.choice(state.legal()))
    assert checked > 50
