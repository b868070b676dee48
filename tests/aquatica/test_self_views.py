"""Every seat advances its own Aquatica view, with no full state (core/aquatica/sealing.py).

Whole games under the referee of tests/self_views.py: every seat's self-advanced
view equals ``full.view(seat)`` at every ply and never holds a card not yet shown to it.
"""

from __future__ import annotations

from typing import Any

import pytest

from coldwater.core.aquatica.model import AqData
from coldwater.core.state import Slot

from ..self_views import play


def visible(s: Any) -> dict[Slot, object]:
    """Every card a position shows in a hand or the King draft, by slot."""
    d: AqData = s.data
    out: dict[Slot, object] = {}
    for i, c in enumerate(d.draft):
        if c >= 0:
            out[("draft", i)] = c
    for seat, p in enumerate(d.ps):
        for i, c in enumerate(p.hand):
            if c >= 30:  # starting Characters are public
                out[("hand", seat, i)] = c
        if p.king and 59 + p.king not in p.hand:  # a King shown in hand is listed there
            out[("king", seat)] = p.king
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("module", ["goals", "tribes"])
def test_every_seat_advances_its_own_view_through_whole_games(players: int, module: str) -> None:
    counts = play(
        "aquatica",
        players,
        f"aquatica/{players}/{module}",
        visible,
        options={"module": module, "variable_goals": module == "goals"},
    )
    assert counts["plies"] > 100


@pytest.mark.parametrize("players", [2, 3, 5])
def test_with_advanced_kings(players: int) -> None:
    counts = play("aquatica", players, f"aquatica/{players}/kings", visible, options={"kings": "advanced"})
    assert counts["private_draws"] > 0 and counts["named"] > 0
