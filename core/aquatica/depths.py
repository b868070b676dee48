"""Exploiting Depths, and when each kind may be exploited.

- A resource Depth (coins, power) only during the Main Action, to pay, and at
  most one per Location per Main Action (``Loc.used``).
- An effect Depth only before or after the Main Action.
- An empty Depth gives nothing and blocks exploiting until a Raise passes it.
Exploiting takes the Depth's icon and slides the Location up one Depth.
"""

from __future__ import annotations

from .content import Deck
from .model import LOC_TYPES, AqData, Eff, Loc
from .raise_ import check_risen


def top(k: Deck, loc: Loc) -> Eff | None:
    """The visible Depth, or None when the Location is fully risen."""
    depths = k.loc_depths[loc.id]
    return depths[loc.pos] if loc.pos < len(depths) else None


def resource_of(k: Deck, loc: Loc, res: str, ltype: int) -> int:
    """What exploiting this Location's top Depth would pay toward `res`, else 0."""
    if loc.used:
        return 0
    e = top(k, loc)
    if e is None:
        return 0
    if res == "c" and e.op == "coins":
        return e.n
    if res == "p" and (e.op == "power" or (e.op == "tpower" and e.t and ltype >= 0 and k_type(e.t) == ltype)):
        return e.n
    return 0


def k_type(t: str) -> int:
    return LOC_TYPES.index(t)


def effect_depth(k: Deck, loc: Loc) -> Eff | None:
    """The top Depth if it is an effect (exploitable outside the Main Action)."""
    e = top(k, loc)
    if e is None or e.op in ("coins", "power", "tpower", "empty"):
        return None
    return e


def copyable(k: Deck, loc: Loc) -> list[int]:
    """Indices of the Depths a Frosty copy may take from this Location.

    Every unexploited Depth is visible below the player board (the rulebook:
    "any visible Depth"), not only the top one; resources, empty Depths and
    other copies cannot be copied.
    """
    depths = k.loc_depths[loc.id]
    return [i for i in range(loc.pos, len(depths)) if depths[i].op not in ("coins", "power", "tpower", "empty", "copy")]


def exploit(d: AqData, k: Deck, seat: int, loc: Loc) -> Eff:
    e = top(k, loc)
    assert e is not None
    loc.pos += 1
    check_risen(d, k, seat, loc)
    return e
