"""Building Aquatica positions for rule tests (the per-step checks are in hooks.py)."""

from __future__ import annotations

from typing import Any

from coldwater.core.aquatica.game import GAME
from coldwater.core.aquatica.model import OCEAN_BASE, AqData
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE

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
