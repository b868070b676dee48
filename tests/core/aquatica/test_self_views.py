"""Every seat advances its own Aquatica view, with no full state (core/aquatica/sealing.py).

Whole games under the referee of tests/core/self_views.py: every seat's self-advanced
view equals ``full.view(seat)`` at every ply and never holds a card not yet shown to it.
"""

from __future__ import annotations

from typing import Any

import pytest

from coldwater.core.aquatica.actions import Deal
from coldwater.core.aquatica.game import GAME
from coldwater.core.aquatica.model import AqData
from coldwater.core.errors import IllegalAction
from coldwater.core.state import Slot

from ..self_views import play
from .helpers import ready_state


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


@pytest.mark.parametrize("players", [3, 5])
def test_more_seeds_and_the_cheap_bots(players: int) -> None:
    for seed in ("b", "c"):
        counts = play("aquatica", players, f"aquatica/{players}/{seed}", visible, bots=("random", "easy", "greedy"))
        assert counts["plies"] > 100


@pytest.mark.parametrize("players", [2, 3, 5])
def test_with_advanced_kings(players: int) -> None:
    counts = play("aquatica", players, f"aquatica/{players}/kings", visible, options={"kings": "advanced"})
    assert counts["private_draws"] > 0 and counts["named"] > 0


def test_a_view_refuses_what_its_seat_may_not_know_and_changes_nothing() -> None:
    s = GAME.new(3, seed="refuse", options={"kings": "advanced"})
    assert s.data.draws[0].deck == "cd_disc"
    outcome = s.sample_chance()
    assert s.seen_outcome(outcome, 0) == Deal(-1)
    v = s.view(0)
    before = v.encode()
    with pytest.raises(IllegalAction, match="face down"):
        v.apply_seen(outcome, 0)  # a card boxed face down is nobody's
    assert v.encode() == before
    # To the first King draw: only the first drafter may take the King drawn.
    while s.data.draws[0].deck != "king":
        v.apply_seen(s.seen_outcome(o := s.sample_chance(), 0), 0)
        s.apply(o)
    king = s.sample_chance()
    drafter = s.data.draft_order[0]
    other = s.view((drafter + 1) % 3)
    with pytest.raises(IllegalAction, match="first drafter"):
        other.apply_seen(king, (drafter + 1) % 3)
    mine = s.view(drafter)
    mine.apply_seen(s.seen_outcome(king, drafter), drafter)
    s.apply(king)
    assert mine == s.view(drafter)


def test_reveal_refuses_bad_slots_and_values() -> None:
    s = ready_state(3)
    v = s.view(0)
    before = v.encode()
    king = v.data.ps[1].hand.index(-2)  # its King: in hand, blank to others
    bad: list[tuple[Slot, object, str]] = [
        (("hand", 7, 0), 40, "no seat"),
        (("hand", 1, 99), 40, "no card"),
        (("draft", 0), 60, "no King"),
        (("deck", 0), 40, "not an Aquatica slot"),
        ((), 40, "not a slot"),
        (("hand", 1, king), "x", "not a card"),
        (("hand", 1, king), 40, "not a King"),
        (("hand", 1, king), v.data.ps[0].hand[-1], "elsewhere already"),  # seat 1's own King
    ]
    for slot, value, why in bad:
        with pytest.raises(IllegalAction, match=why):
            v.reveal(slot, value)
        assert v.encode() == before
