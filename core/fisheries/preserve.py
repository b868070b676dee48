"""Action 4: Preserve Fish (once a day, no hours).

Discard fish to meet one available card's requirement (N of the same colour,
N different colours, or one fish of a named colour), take the card, then
perform its action if you can and wish:

- sand timer: add hours at once (capped at 12);
- ship: move one ship with sailing power N (normal sailing rules and the fleet
  rule; power cannot be raised by spending hours; optional);
- ship + tile: that move and/or placing the card's tile from the general supply
  by the normal placement rules, in either order (``bsail``, ``btile``, ``done``);
- helm: points at game end.

Available cards are the tops of the six face-up stacks (the card beneath is
revealed by a chance draw as soon as the top is taken), or in the market
variant the row of five (see market.py).
"""

from __future__ import annotations

from itertools import combinations

from .actions import Reveal
from .chart_a_course import placements
from .days import add_time
from .market import take_from_row
from .model import Ctx, Data
from .sail import destinations, movable


def available(ctx: Ctx, d: Data) -> list[str]:
    if d.market:
        return [c for c in d.row if c is not None]
    return [s.top for s in d.stacks if s.top is not None]


def payments(ctx: Ctx, d: Data, seat: int, card: str) -> list[tuple[str, ...]]:
    """Every distinct way `seat` can pay for `card` from the fish on their board."""
    req = ctx.cards[card].requirement
    have = d.catch[seat]
    cols = ctx.colours
    if req.kind == "colour":
        assert req.colour is not None
        return [(req.colour,)] if have[ctx.colour_index[req.colour]] >= 1 else []
    if req.kind == "same":
        return [(c,) * req.count for i, c in enumerate(cols) if have[i] >= req.count]
    owned = [c for i, c in enumerate(cols) if have[i] >= 1]
    return [tuple(sorted(combo)) for combo in combinations(owned, req.count)]


def options(ctx: Ctx, d: Data, seat: int) -> list[tuple[str, tuple[str, ...]]]:
    if d.preserved[seat] or not any(d.catch[seat]):  # every card costs at least one fish
        return []
    return [(card, pay) for card in available(ctx, d) for pay in payments(ctx, d, seat, card)]


def take_card(ctx: Ctx, d: Data, card: str) -> None:
    if d.market:
        take_from_row(d, card)
        return
    for s in d.stacks:
        if s.top == card:
            s.top = None  # the next card is revealed by a chance draw
            return
    raise AssertionError(f"{card} is not available")


def apply_preserve(ctx: Ctx, d: Data, seat: int, card: str, pay: tuple[str, ...]) -> bool:
    """Take the card; returns True if a bonus decision follows."""
    for colour in pay:
        k = ctx.colour_index[colour]
        d.catch[seat][k] -= 1
        d.spent[k] += 1
    take_card(ctx, d, card)
    d.earned[seat].append(card)
    d.preserved[seat] = True
    act = ctx.cards[card].action
    if act.kind == "time":
        add_time(ctx, d, seat, act.amount)
        return False
    if act.kind in ("ship", "ship_tile"):
        d.bonus_move = act.amount
        d.bonus_tile = act.tile if act.kind == "ship_tile" and d.general[ctx.shape_index[act.tile or ""]] > 0 else None
        return bonus_possible(ctx, d, seat)
    return False


def bonus_sails(ctx: Ctx, d: Data, seat: int) -> list[tuple[int, int]]:
    if d.bonus_move <= 0:
        return []
    return [(frm, to) for frm in movable(ctx, d, seat) for to in destinations(ctx, d, seat, frm, d.bonus_move)]


def bonus_tiles(ctx: Ctx, d: Data) -> list[tuple[int, ...]]:
    if d.bonus_tile is None or d.general[ctx.shape_index[d.bonus_tile]] <= 0:
        return []
    return placements(ctx, d, d.bonus_tile)


def bonus_possible(ctx: Ctx, d: Data, seat: int) -> bool:
    if not bonus_sails(ctx, d, seat):
        d.bonus_move = 0
    if not bonus_tiles(ctx, d):
        d.bonus_tile = None
    return d.bonus_move > 0 or d.bonus_tile is not None


def clear_bonus(d: Data) -> None:
    d.bonus_move = 0
    d.bonus_tile = None


def stack_reveal_outcomes(d: Data) -> list[tuple[Reveal, int]]:
    for s in d.stacks:
        if s.top is None and s.rest:
            return [(Reveal(c), 1) for c in s.rest]
    return []


def apply_stack_reveal(d: Data, card: str) -> None:
    for s in d.stacks:
        if s.top is None and card in s.rest:
            s.rest.remove(card)
            s.top = card
            return
    raise AssertionError(f"{card} cannot be revealed")


def why_not(ctx: Ctx, d: Data, seat: int, card: str, pay: tuple[str, ...]) -> str:
    if d.preserved[seat]:
        return "you may preserve only once per day (a lobster does not change that)"
    if card not in ctx.cards:
        return f"there is no preservation card {card!r}"
    if card not in available(ctx, d):
        return f"{card} is not available to take"
    req = ctx.cards[card].requirement
    for c in pay:
        if c not in ctx.colour_index:
            return f"{c!r} is not a fish colour"
    if tuple(sorted(pay)) != pay:
        return "list the fish in alphabetical order"
    if req.kind == "colour" and pay != (req.colour,):
        return f"{card} needs exactly one {req.colour} fish"
    if req.kind == "same" and (len(pay) != req.count or len(set(pay)) != 1):
        return f"{card} needs {req.count} fish of the same colour"
    if req.kind == "different" and (len(pay) != req.count or len(set(pay)) != req.count):
        return f"{card} needs {req.count} fish of different colours"
    for c in set(pay):
        if d.catch[seat][ctx.colour_index[c]] < pay.count(c):
            return f"you do not have {pay.count(c)} {c} fish"
    return f"you cannot take {card} with those fish"
