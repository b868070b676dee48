"""Shared checks for the Aquatica tests: conservation and per-step invariants."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from coldwater.core.aquatica.game import GAME
from coldwater.core.aquatica.model import KING_BASE, OCEAN_BASE, STARTING_PER_SEAT, AqData
from coldwater.core.errors import IllegalAction
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE

JUNK: list[Any] = ["play 0", None, 42, object()]


def char_places(d: AqData) -> Counter[int]:
    c: Counter[int] = Counter()
    for lst in (d.char_deck, d.char_box, d.char_row, d.char_discard, d.king_pool, d.draft, d.king_box):
        c.update(lst)
    for p in d.ps:
        c.update(p.hand)
        c.update(p.discard)
    if d.playing >= 0:
        c[d.playing] += 1
    return c


def check_conservation(d: AqData) -> None:
    n_loc = len(GAME.deck.loc_name)
    chars = char_places(d)
    universe = list(range(STARTING_PER_SEAT * d.players)) + list(range(OCEAN_BASE, GAME.deck.n_chars))
    assert sorted(chars.elements()) == universe, "Characters not conserved"
    locs: Counter[int] = Counter()
    for lst in (d.loc_deck, d.loc_box, d.loc_top, d.loc_bottom, d.loc_discard):
        locs.update(lst)
    for p in d.ps:
        locs.update(loc.id for loc in p.board)
        locs.update(p.scored)
    assert sorted(locs.elements()) == list(range(n_loc)), "Locations not conserved"
    wild = list(d.wild_supply)
    for p in d.ps:
        assert sum(m.wild < 0 for m in p.mantas) == 4
        wild += [m.wild for m in p.mantas if m.wild >= 0]
        assert len(p.board) <= 5
    assert sorted(wild) == list(range(len(GAME.deck.wild))), "Wild Mantas not conserved"
    placed = sum(m.placed for p in d.ps for m in p.mantas)
    on_tracks = sum(1 for t in d.tracks for s in t if s < 9) + sum(len(t) for t in d.tribe_mantas)
    assert placed == on_tracks, "placed Mantas and Mantas on tracks/Tribes differ"
    assert d.coins >= 0 and d.power >= 0 and min(d.tpower) >= 0


def check_view(state: Any, seat: int | None) -> None:
    v = state.view(seat)
    k = GAME.deck
    for s, p in enumerate(v.data.ps):
        if s != seat:
            assert all(c < 0 or k.seat_of_starting(c) >= 0 for c in p.hand), "a hidden hand leaked"
    assert all(c < 0 for c in v.data.char_deck + v.data.loc_deck + v.data.king_pool + v.data.tribe_pool)
    assert v.seed is None


def step_checks(state: Any, rng: Rng, deep: bool = True, every: int = 3) -> Any:
    """Check the invariants at this position, then return the action to play."""
    legal = state.legal()
    cur = state.current
    assert legal, "no legal action before the end"
    assert [str(a) for a in legal] == sorted(str(a) for a in legal)
    assert len(set(legal)) == len(legal)
    check_conservation(state.data)
    heavy = deep and state.ply % every == 0  # the costly checks every `every` plies
    if heavy:
        text = state.to_text()
        again = GAME.from_text(text)
        assert again == state and again.to_text() == text
        for a in legal:
            assert GAME.parse_action(str(a)) == a
        before = state.digest()
        for junk in JUNK:
            with pytest.raises(IllegalAction):
                state.apply(junk)
        for cand in _others(state, legal):
            with pytest.raises(IllegalAction) as ei:
                state.apply(cand)
            assert str(ei.value)
        assert state.digest() == before
    if deep:
        if cur is not None and cur >= 0:
            v = state.view(cur)
            assert v.legal() == legal, "a seat's choices depend on what it cannot see"
        if heavy and cur is not None and cur >= 0:
            det = GAME.determinize(v, rng.fork("det"))
            assert det.view(cur).encode() == v.encode(), "determinize disagrees with the view"
            check_conservation(det.data)
            check_view(state, cur)
        if heavy:
            check_view(state, None)
    if cur == CHANCE:
        action = state.sample_chance(rng)
    else:
        action = rng.choice(legal)
    if deep:
        c = state.clone()
        c.apply(action)
        state.apply(action)
        assert c == state, "clone then apply differs from apply"
    else:
        state.apply(action)
    return action


def _others(state: Any, legal: list[Any]) -> list[Any]:
    from coldwater.core.aquatica.actions import Buy, End, Exploit, Play, Raise, Recruit, Score, Skip

    cands = [End(), Skip(), Play(0), Play(KING_BASE), Buy(0), Recruit(5), Raise(3, 1), Score(7), Exploit(1)]
    ls = set(legal)
    return [a for a in cands if a not in ls]


def play_random(players: int, seed: Any, options: Any = None, deep: bool = True, max_plies: int = 20000,
                every: int = 3) -> Any:
    s = GAME.new(players, seed=seed, options=options)
    rng = Rng(f"test/{seed}")
    while s.current is not None:
        assert s.ply < max_plies
        step_checks(s, rng.fork(s.ply), deep, every)
    sc = s.scores()
    assert sc.final and len(sc.totals) == players
    return s


# ---- building positions for rule tests ---------------------------------------------

def ready_state(players: int = 2, options: Any = None, seed: Any = "fx") -> Any:
    """A game right after setup (chance resolved, Kings picked), seat 1 to act."""
    s = GAME.new(players, seed=seed, options=options)
    while s.current is not None and (s.current == CHANCE or s.data.phase == "kings"):
        s.apply(s.sample_chance() if s.current == CHANCE else s.legal()[0])
    return s


def touch(s: Any) -> None:
    """Forget the cached legal list after editing a position by hand."""
    s._legal = None
    s._legal_set = None


def char_id(key: str, deck: int = 0) -> int:
    k = GAME.deck
    for c in range(OCEAN_BASE + 15 * deck, OCEAN_BASE + 15 * deck + 15):
        if k.char_key[c] == key:
            return c
    raise KeyError(key)


def take_char(d: AqData, c: int) -> None:
    for lst in (d.char_deck, d.char_box, d.char_row, d.char_discard, d.king_pool, d.draft, d.king_box):
        if c in lst:
            lst.remove(c)
            return
    for p in d.ps:
        for lst in (p.hand, p.discard):
            if c in lst:
                lst.remove(c)
                return
    raise KeyError(c)


def give_hand(s: Any, seat: int, *cards: int) -> None:
    for c in cards:
        take_char(s.data, c)
        s.data.ps[seat].hand.append(c)
    touch(s)


def take_loc(d: AqData, x: int) -> None:
    for lst in (d.loc_deck, d.loc_box, d.loc_top, d.loc_bottom, d.loc_discard):
        if x in lst:
            lst.remove(x)
            return
    for p in d.ps:
        if x in p.scored:
            p.scored.remove(x)
            return
        for i, loc in enumerate(p.board):
            if loc.id == x:
                del p.board[i]
                return
    raise KeyError(x)


def to_row(s: Any, x: int, top: bool = False) -> None:
    take_loc(s.data, x)
    (s.data.loc_top if top else s.data.loc_bottom).append(x)
    touch(s)


def to_board(s: Any, seat: int, x: int, pos: int = 0) -> None:
    from coldwater.core.aquatica.model import Loc

    take_loc(s.data, x)
    risen = pos >= len(GAME.deck.loc_depths[x])
    s.data.ps[seat].board.append(Loc(x, pos, False, risen))
    touch(s)


def to_scored(s: Any, seat: int, x: int) -> None:
    take_loc(s.data, x)
    s.data.ps[seat].scored.append(x)
    touch(s)


def tire_all(s: Any, seat: int) -> None:
    for m in s.data.ps[seat].mantas:
        m.ready = False
    touch(s)


def do(s: Any, *texts: str) -> None:
    for t in texts:
        s.apply(GAME.parse_action(t))


def settle_chance(s: Any) -> None:
    while s.current == CHANCE:
        s.apply(s.sample_chance(Rng(f"c{s.ply}")))
