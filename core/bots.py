"""Bots every game shares, and the one factory behind ``game.bot(name)``.

A bot is anything with ``name`` and ``choose(view, rng)`` (the :class:`Bot`
protocol): it sees only the view of its seat and draws every random choice from
the Rng it is handed, so the same view and Rng give the same action anywhere.

Names every game offers (``BOT_NAMES``):

- ``random``: uniform among the legal actions (the baseline and the fuzzer);
- ``greedy``: the game's one-ply heuristic;
- ``easy``: the greedy bot that makes a mistake now and then;
- ``normal``: a small search over the greedy bot's best few moves;
- ``hard``: the full search budget (about a second a decision).

The levels are what a person picks for a seat; ``greedy`` stays for old saves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, NotRequired, Protocol, TypedDict

from .errors import ColdwaterError
from .evaluate import EvalSpec
from .notation import Action
from .rng import Rng
from .search import Evaluate, Policy, SearchBot, argmax
from .state import Bot, Game, State

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "BotError",
    "Budget",
    "EasyBot",
    "GreedyBase",
    "RandomBot",
    "SearchSpec",
    "make_bot",
]

LEVELS: Final = ("easy", "normal", "hard")
BOT_NAMES: Final = ("random", *LEVELS, "greedy")
"""Every game's ``bots``. Greedy stays last: screens offer the last one as the default
opponent, and it answers at once (a search level is a choice a person makes)."""


class BotError(ColdwaterError, ValueError):
    """An unknown bot name (the message lists the known ones)."""


class RandomBot:
    """Picks uniformly among the legal actions: the baseline and the fuzzer."""

    name = "random"

    def choose(self, view: State[Any, Any], rng: Rng) -> Action:
        legal: list[Action] = view.legal()
        return rng.choice(legal)


class GreedyBase:
    """A greedy bot written as a value per action; ``choose`` is the shared argmax."""

    name = "greedy"

    def values(self, view: State[Any, Any], legal: Sequence[Action]) -> list[float]:
        raise NotImplementedError

    def choose(self, view: State[Any, Any], rng: Rng) -> Action:
        legal: list[Action] = view.legal()
        if len(legal) == 1:
            return legal[0]
        return argmax(legal, self.values(view, legal), rng)


class EasyBot:
    """The greedy bot, but one decision in `mistakes` goes to a random legal action."""

    name = "easy"

    def __init__(self, greedy: Bot, mistakes: float = 0.3) -> None:
        self.greedy = greedy
        self.mistakes = mistakes

    def choose(self, view: State[Any, Any], rng: Rng) -> Action:
        legal: list[Action] = view.legal()
        if len(legal) > 1 and rng.fork("slip").below(1000) < self.mistakes * 1000:
            return rng.fork("pick").choice(legal)
        return self.greedy.choose(view, rng)


class Budget(TypedDict):
    """A search level's budget: :class:`SearchBot`'s keyword arguments."""

    iterations: int
    width: NotRequired[int]
    horizon: NotRequired[int]
    explore: NotRequired[float]
    noise: NotRequired[float]
    confidence: NotRequired[float]
    expand_after: NotRequired[int]
    max_seconds: NotRequired[float]
    max_plies: NotRequired[int]


class GreedyPolicy(Policy, Bot, Protocol):
    """A game's greedy bot, which is also the search's prior and playout policy."""


class SearchSpec:
    """What a game gives its bots: its greedy bot (also the search's prior and playout
    policy), its evaluation, the search's budget per level, and the coach's evaluator's
    budgets and value (`coach`), which judge with the same greedy policy."""

    def __init__(
        self,
        policy: Callable[[], GreedyPolicy],
        evaluate: Evaluate,
        *,
        normal: Budget,
        hard: Budget,
        coach: EvalSpec | None = None,
    ) -> None:
        self.policy = policy
        self.evaluate = evaluate
        self.levels = {"normal": normal, "hard": hard}
        self.coach = coach if coach is not None else EvalSpec()
        """What the coach's evaluator uses (core/evaluate.py): the review's and the hints'
        budgets, and the value at a playout's cut."""


def make_bot(game: Game[Any, Any], name: str, spec: SearchSpec) -> Bot:
    """The bot called `name` for `game`; raises BotError naming the known ones."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return spec.policy()
    if name == "easy":
        return EasyBot(spec.policy())
    if name in spec.levels:
        return SearchBot(game, spec.policy(), spec.evaluate, name=name, **spec.levels[name])
    raise BotError(f"unknown bot {name!r}; {game.title} has: {', '.join(game.bots)}")
