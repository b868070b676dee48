"""Hypothesis fuzzing of the shared contract, for every game in the registry.

- ``apply()`` of anything that is not in ``legal()`` raises IllegalAction and
  changes nothing: junk objects, actions of the right class with wrongly typed
  fields (``Place(["x"])``), and well-formed actions with arbitrary values
  (which reach each engine's ``why_illegal``).
- Notation: ``parse(str(a)) == a`` for every well-formed action, and any text
  that parses is the action's one spelling (``str(parse(t)) == t``).

Positions come from seeded random play of each game (a handful per game,
chance included, and the finished game), built once per session.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from typing import Any, Literal, get_args, get_origin

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coldwater.core import games
from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, State

NAMES = games.names()
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def positions(name: str) -> tuple[State[Any, Any], ...]:
    """Positions along one seeded random game per player count, and its end."""
    game = games.get(name)
    out: list[State[Any, Any]] = []
    for players in sorted({game.min_players, game.max_players}):
        s = game.new(players, seed=f"fuzz/{name}/{players}")
        rng = Rng(f"fuzz/{name}/{players}")
        while s.current is not None:
            if s.ply % 37 == 0:
                out.append(s.clone())
            s.apply(s.sample_chance(rng.fork(s.ply)) if s.current == CHANCE else rng.choice(s.legal()))
        out.append(s)
    return tuple(out)


@functools.cache
def vocabulary(name: str) -> tuple[str, ...]:
    """Every text value the game's legal actions use, so fuzzed actions are near misses."""
    words: set[str] = set()
    for s in positions(name):
        for a in s.legal():
            for v in msgspec.structs.astuple(a):
                for x in v if isinstance(v, tuple) else (v,):
                    if isinstance(x, str):
                        words.add(x)
    return tuple(sorted(words))


def value_of(tp: Any, words: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """Well-typed values of a field annotated `tp` (the types notation supports)."""
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([st.none() if a is type(None) else value_of(a, words) for a in get_args(tp)])
    if origin is tuple:
        return st.lists(value_of(get_args(tp)[0], words), max_size=4).map(tuple)
    if origin is Literal:
        return st.sampled_from(get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return st.sampled_from(list(tp))
    if tp is bool:
        return st.booleans()
    if tp is int:
        return st.integers(-2, 120) | st.integers()
    if tp is str:
        notation_safe = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=6)
        return (st.sampled_from(words) if words else notation_safe) | notation_safe
    raise TypeError(f"no strategy for {tp}")


@functools.cache
def actions_of(name: str) -> st.SearchStrategy[Action]:
    """Well-formed actions of a game: every action type, fields of their declared types."""
    game, words = games.get(name), vocabulary(name)
    options = []
    for cls in game.codec.types:
        hints = typing.get_type_hints(cls)
        fields = {f.name: value_of(hints[f.name], words) for f in msgspec.structs.fields(cls)}
        options.append(st.builds(cls, **fields))
    return st.one_of(options)


WRONG = st.one_of(
    st.lists(st.text(max_size=3), max_size=2),
    st.floats(allow_nan=False),
    st.booleans(),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.just(object()),
    st.just(""),
    st.just("two words"),
    st.just(b"bytes"),
    st.integers(2**70, 2**71),
)


@st.composite
def malformed(draw: st.DrawFn, name: str) -> object:
    """Junk, or an object of one of the game's action classes with a wrongly typed field."""
    if draw(st.booleans()):
        return draw(st.one_of(WRONG, st.none(), st.text(max_size=8), st.integers()))
    with_fields = [c for c in games.get(name).codec.types if msgspec.structs.fields(c)]
    cls = draw(st.sampled_from(with_fields))
    words = vocabulary(name)
    hints = typing.get_type_hints(cls)
    fields = msgspec.structs.fields(cls)
    bad = draw(st.integers(0, len(fields) - 1))
    values = [draw(WRONG) if i == bad else draw(value_of(hints[f.name], words)) for i, f in enumerate(fields)]
    return cls(*values)


def _refused(s: State[Any, Any], action: object) -> None:
    before = (s.ply, s.encode())
    legal = s.legal()
    with pytest.raises(IllegalAction) as e:
        s.apply(action)  # type: ignore[arg-type]
    assert str(e.value)
    assert (s.ply, s.encode()) == before and s.legal() == legal


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_malformed_actions_are_refused_before_any_engine_code(name: str, data: st.DataObject) -> None:
    s = data.draw(st.sampled_from(positions(name)))
    action = data.draw(malformed(name))
    assert not s.is_legal(action)
    _refused(s, action)


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_any_well_formed_action_is_applied_or_refused_in_words(name: str, data: st.DataObject) -> None:
    s = data.draw(st.sampled_from(positions(name)))
    action = data.draw(actions_of(name))
    if s.is_legal(action):
        c = s.clone()
        c.apply(action)
        assert c.ply == s.ply + 1
    else:
        _refused(s, action)


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_notation_round_trips_for_every_well_formed_action(name: str, data: st.DataObject) -> None:
    game = games.get(name)
    action = data.draw(actions_of(name))
    text = str(action)
    again = game.parse_action(text)
    assert again == action and type(again) is type(action) and str(again) == text


@functools.cache
def _tokens(name: str) -> st.SearchStrategy[str]:
    game, words = games.get(name), vocabulary(name)
    tags = [str(msgspec.inspect.type_info(c).tag) for c in game.codec.types]  # type: ignore[attr-defined]
    ints = st.integers(-3, 40).map(str)
    odd_ints = st.sampled_from(["03", "+3", "0_3", "-0", " 3", "3 ", "٣", "1e1"])
    word = st.sampled_from(list(words) + ["-", "()", "y", "n", ""]) if words else st.sampled_from(["-", "()", "y", "n"])
    item = ints | odd_ints | word
    field = item | st.lists(item, min_size=2, max_size=3).map(",".join)
    return st.tuples(st.sampled_from(tags), st.lists(field, max_size=4), st.sampled_from([" ", "  ", "\t"])).map(
        lambda t: t[2].join([t[0], *t[1]]) if t[1] else t[0]
    )


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_notation_has_one_spelling_per_action(name: str, data: st.DataObject) -> None:
    game = games.get(name)
    text = data.draw(_tokens(name))
    try:
        action = game.parse_action(text)
    except NotationError:
        return
    assert str(action) == text


@pytest.mark.parametrize(
    ("name", "text", "others"),
    [
        ("crown", "fill 3", ["fill 03", "fill +3", "fill 0_3", "fill  3", " fill 3", "fill 3 "]),
        ("fisheries", "end", ["end -", "end  ", "end\t"]),
        ("fisheries", "start 1", ["start 01", "start +1", "start 1.0"]),
        ("aquatica", "raise 3 1", ["raise 3 01", "raise 3 +1", "raise 0_3 1", "raise\t3 1"]),
    ],
)
def test_the_same_action_written_another_way_is_refused(name: str, text: str, others: list[str]) -> None:
    game = games.get(name)
    assert str(game.parse_action(text)) == text
    for other in others:
        with pytest.raises(NotationError, match=f"written as this game writes it: '{text}'|not a whole number"):
            game.parse_action(other)


def test_wrongly_typed_fields_are_refused_not_crashed_on() -> None:
    from coldwater.core.crown.actions import Bait, Fill, Place

    s = positions("crown")[0]
    for bad in (Place(["x"]), Bait(["red"]), Fill(True), Fill(3.0), Place("nowhere")):  # type: ignore[arg-type]
        _refused(s, bad)
