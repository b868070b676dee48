"""Bots every game shares. Game-specific bots live beside their engine."""

from __future__ import annotations

from typing import Any

from .notation import Action
from .rng import Rng
from .state import State


class RandomBot:
    """Picks uniformly among the legal actions: the baseline and the fuzzer."""

    name = "random"

    def choose(self, view: State[Any, Any], rng: Rng) -> Action:
        legal: list[Action] = view.legal()
        return rng.choice(legal)
