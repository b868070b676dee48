"""The engine contract's hooks for views that advance themselves (core/state.py).

Each game with sealed values has its own whole-game test (tests/core/<game>/test_self_views.py);
here: the defaults for a game with none, and that no game hides values without saying so.
"""

from __future__ import annotations

from typing import Any

import pytest

from coldwater.core import games
from coldwater.core.errors import IllegalAction
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, Openings

from ..toygame import GAME as TOY
from ..toygame import ToyState


def test_a_game_with_nothing_sealed_advances_a_view_as_the_full_state() -> None:
    g = games.get("fisheries")
    s = g.new(2, seed="plain")
    assert not s.SEALED
    v = s.view(0)
    rng = Rng("plain")
    for _ in range(60):
        if s.current is None:
            break
        if s.current == CHANCE:
            a = s.sample_chance()
            assert s.seen_outcome(a, 1) == a
        else:
            a = rng.choice(s.legal())
            assert v.opens(a, 0) == Openings()
        v.apply_seen(a, 0)
        s.apply(a)
        assert v == s.view(0)
    with pytest.raises(IllegalAction, match="no sealed values"):
        v.reveal(("anything",), 1)
    with pytest.raises(IllegalAction, match="no sealed values"):
        v.sealed_value(("anything",))


@pytest.mark.parametrize("name", games.names())
def test_a_game_that_hides_values_says_so_and_has_the_hooks(name: str) -> None:
    g = games.get(name)
    s: Any = g.new(2, seed="hides")
    rng = Rng("hides")
    hides = False
    for _ in range(300):
        if s.current is None:
            break
        hides = hides or any(s.view(seat).encode() != s.encode() for seat in (None, 0, 1))
        s.apply(s.sample_chance() if s.current == CHANCE else rng.choice(s.legal()))
    assert hides is s.SEALED
    if hides:  # the hooks are the game's own, not the base class's refusals
        for hook in ("seen_outcome", "apply_seen", "reveal", "opens", "sealed_value"):
            assert getattr(type(s), hook) is not getattr(ToyState, hook), hook


def test_a_sealed_game_without_the_hooks_refuses_rather_than_guess() -> None:
    class Sealed(ToyState):
        __slots__ = ()
        SEALED = True

    s = TOY.new(2, seed="toy")
    t = Sealed(s.data)
    with pytest.raises(NotImplementedError, match="cannot advance a view by itself"):
        t.apply_seen(t.legal()[0], 0)
    with pytest.raises(NotImplementedError):
        t.seen_outcome(t.legal()[0], 0)
    with pytest.raises(NotImplementedError):
        t.opens(t.legal()[0], 0)
    with pytest.raises(NotImplementedError):
        t.reveal(("x",), 1)
    with pytest.raises(NotImplementedError):
        t.sealed_value(("x",))
