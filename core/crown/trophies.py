"""Trophies won during play: Mystery Weight, Fastest to 8 Species, Small Species,
Master Angler Three Same / Four Different, and First to 12 Fish.

Each player takes at most one trophy from each stack; a stack's top is its
highest trophy.
"""

from __future__ import annotations

from .content import Tables
from .model import SMALL_SPECIES, CrownData, Fish, Player, Trophy


def has(p: Player, kind: str) -> bool:
    return any(t.kind == kind for t in p.trophies)


def award(d: CrownData, p: Player, kind: str) -> bool:
    """Give `p` the top trophy of `kind` if it has none yet and one is left."""
    if has(p, kind):
        return False
    stack: list[int] = getattr(d.stacks, kind)
    if not stack:
        return False
    p.trophies.append(Trophy(kind, stack.pop(0)))
    return True


def on_catch(d: CrownData, T: Tables, p: Player, fish: Fish) -> None:
    """Checks made the moment a fish is caught."""
    # Mystery Weight: only the tile showing now, only once per Step. A fish caught
    # earlier never wins a tile revealed later, because this is the only check.
    if fish.card is not None and d.mw_top is not None and not d.mw_claimed and T.weight[fish.card] == d.mw_top:
        p.trophies.append(Trophy("mystery_weight", 1, d.mw_top))
        fish.shown = True
        d.mw_top = None
        d.mw_claimed = True
    species = {f.species for f in p.fish}
    if len(species) >= 8:
        award(d, p, "fastest_to_8")
    if all(s in species for s in SMALL_SPECIES):
        award(d, p, "small_species")


def check_master_angler(d: CrownData, T: Tables, p: Player) -> None:
    counts: dict[str, int] = {}
    for c in p.ma_done:
        sp = T.ma_species[c]
        counts[sp] = counts.get(sp, 0) + 1
    if counts and max(counts.values()) >= 3:
        award(d, p, "three_same")
    if len(counts) >= 4:
        award(d, p, "four_different")


def first_to_12(d: CrownData, p: Player) -> bool:
    """At the end of a turn: 12 or more fish takes the "12" trophy. True if 12+ fish."""
    if len(p.fish) >= 12:
        award(d, p, "first_to_12")
        return True
    return False
