"""One contract test for every game in the registry, after OpenSpiel's random_sim_test.

Seeded random play (chance from the state's seed, choices from a seeded
generator) checks at every step, for every game in ``games.names()``:

- ``legal()`` sorted, without repeats, non-empty until the end and empty after;
  at a chance node the weighted outcomes are exactly ``legal()``;
- the text form and every legal action's notation (and binary form) round-trip;
- actions that are not legal (junk, and actions legal at earlier positions) are
  refused with a reason and change nothing;
- every seat's view hides what it must (the game's ``secrets`` hook), is
  idempotent, and offers the seat to act the same choices;
- ``determinize(view)`` is a full state that agrees with the view;
- clone-then-apply equals apply;
- the game's own ``conservation`` (and ``transition``) hooks hold.

Each game's hooks live in ``tests/core/<game>/hooks.py``: ``CASES`` (player counts and
options), ``conservation(data)``, ``secrets(state, view, seat)`` and optionally
``transition(before, after)``. The normal tier plays one game per case with
every check; ``-m slow`` plays many seeds with the cheap checks.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pytest

from coldwater.core import games
from coldwater.core.errors import IllegalAction
from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, Game, State

MAX_PLIES = 20_000
JUNK: list[Any] = [None, 42, "end", 3.5, b"x", object(), ("place", "port")]


def hooks(name: str) -> ModuleType:
    return importlib.import_module(f"tests.core.{name}.hooks")


def cases() -> list[Any]:
    return [
        pytest.param(name, players, options, id=f"{name}-{players}-{i}")
        for name in games.names()
        for i, (players, options) in enumerate(hooks(name).CASES)
    ]


def check_position(game: Game, h: ModuleType, s: State[Any, Any], rng: Rng, seen: list[Action]) -> None:
    """Every check of the contract at one position (all but clone-then-apply)."""
    legal = s.legal()
    h.conservation(s.data)
    if s.current is None:
        assert legal == [] and s.scores().final
        return
    assert legal, "legal() is empty before the end"
    texts = [str(a) for a in legal]
    assert texts == sorted(texts) and len(set(legal)) == len(legal)
    if s.current == CHANCE:
        outcomes = s.chance_outcomes()
        assert [a for a, _ in outcomes] == legal and all(w > 0 for _, w in outcomes)
    # Text form and notation.
    text = s.to_text()
    again = game.from_text(text)
    assert again == s and again.to_text() == text and again.digest() == s.digest()
    for a, t in zip(legal, texts):
        assert game.parse_action(t) == a
        assert game.codec.decode_bin(game.codec.encode_bin(a)) == a
    # Illegal actions: refused with a reason, nothing changed.
    before = s.encode()
    tried = JUNK + [seen[rng.below(len(seen))] for _ in range(min(6, len(seen)))]
    for x in tried:
        if s.is_legal(x):
            continue
        with pytest.raises(IllegalAction) as e:
            s.apply(x)
        assert str(e.value)
        assert s.encode() == before
    # Views.
    public = s.view(None)
    for seat in [None, *range(s.players)]:
        v = s.view(seat)
        assert v.seed is None and v.ply == s.ply and v.current == s.current
        assert v.view(seat).encode() == v.encode(), f"view({seat}) is not idempotent"
        assert v.view(None).encode() == public.encode(), f"view({seat}) projects to another public view"
        h.secrets(s, v, seat)
        if seat == s.current:
            assert v.legal() == legal, "a seat's choices depend on what it cannot see"
    # Determinize for the seat to act (or a seat in turn at chance nodes).
    seat = s.current if s.current >= 0 else s.ply % s.players
    v = s.view(seat)
    full = game.determinize(v, rng.fork("det"))
    h.conservation(full.data)
    assert full.view(seat).encode() == v.encode(), "determinize disagrees with the view"
    assert full.current == s.current
    if s.current == seat:
        assert full.legal() == legal


def play_checked(name: str, players: int, options: Any, seed: str, *, every: int = 1) -> State[Any, Any]:
    """A whole seeded random game with every check at every `every`-th position."""
    game = games.get(name)
    h = hooks(name)
    transition = getattr(h, "transition", None)
    s = game.new(players, seed=seed, options=options)
    rng = Rng(seed).fork("contract")
    seen: list[Action] = []
    while True:
        r = rng.fork(s.ply)
        if s.ply % every == 0 or s.current is None:
            check_position(game, h, s, r, seen)
        else:
            h.conservation(s.data)
        if s.current is None:
            break
        assert s.ply < MAX_PLIES
        legal = s.legal()
        seen += legal[:: max(1, len(legal) // 3)]
        a = s.sample_chance() if s.current == CHANCE else r.choice(legal)
        assert isinstance(s.describe(a), str)
        c = s.clone()
        before = s.data if transition is None else s.clone().data
        s.apply(a)
        c.apply(a)
        assert c == s and c.digest() == s.digest(), "clone then apply differs from apply"
        if transition is not None:
            transition(before, s.data)
    sc = s.scores()
    assert sc.final and sc.outcome and sorted(sc.ranking) == list(range(len(sc.totals)))
    assert len(sc.totals) >= players
    return s


@pytest.mark.parametrize(("name", "players", "options"), cases())
def test_random_play_keeps_the_contract(name: str, players: int, options: Any) -> None:
    play_checked(name, players, options, f"contract/{name}/{players}", every=3)


def test_every_game_has_hooks() -> None:
    for name in games.names():
        h = hooks(name)
        assert h.CASES and callable(h.conservation) and callable(h.secrets)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), cases())
def test_random_play_many_seeds(name: str, players: int, options: Any) -> None:
    for seed in range(4):
        play_checked(name, players, options, f"slow/{name}/{players}/{seed}", every=1 if seed == 0 else 7)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), cases())
def test_many_games_with_the_cheap_bots(name: str, players: int, options: Any) -> None:
    """Many more whole games with the cheap checks and the game's own cheap bots (a test
    of its own beside the checked seeds, so two workers can share a case's run)."""
    game = games.get(name)
    h = hooks(name)
    for seed in range(40):
        s = game.new(players, seed=f"light/{seed}", options=options)
        rng = Rng(f"light/{seed}")
        # The cheap bots only: the search levels (normal, hard) have their own tests.
        bots = [game.bot(("random", "greedy")[(seed + i) % 2]) for i in range(players)]
        while s.current is not None:
            assert s.legal() and s.ply < MAX_PLIES
            h.conservation(s.data)
            cur = s.current
            s.apply(s.sample_chance() if cur == CHANCE else bots[cur].choose(s.view(cur), rng.fork(s.ply)))
        h.conservation(s.data)
        assert s.scores().final
