"""Coldwater Crown's card data: schema, cross-field checks and lookup tables.

The shipped file is a stand-in (the printed values are not published). A person
who owns the game writes their own file in the same format (docs/content.md)
and loads it with ``GAME.with_content(path)``. Errors name the file, the card
and the field.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from coldwater.core import content as core_content
from coldwater.core.errors import ContentError

from .model import COLOURS, LOCATIONS, SMALL_SPECIES

BaitColour = Literal["blue", "red", "purple", "black", "green", "yellow"]
Location = Literal["shore", "river", "lake"]

# The rulebook fixes the species, their locations and the size of each deck.
RULEBOOK_SPECIES: dict[str, tuple[str, int]] = {
    "wrasse": ("shore", 5),
    "mackerel": ("shore", 5),
    "john_dory": ("shore", 5),
    "flounder": ("shore", 5),
    "roach": ("river", 5),
    "rainbow": ("river", 5),
    "brown": ("river", 5),
    "salmon": ("river", 5),
    "perch": ("lake", 5),
    "sea_trout": ("lake", 5),
    "pike": ("lake", 10),
}
RULEBOOK_MA_SPECIES = ("crab", "conger_eel", "char", "dogfish", "ray")


class SpeciesDef(msgspec.Struct, forbid_unknown_fields=True):
    key: str
    name: str
    location: Location
    range: tuple[int, int]


class FishCard(msgspec.Struct, forbid_unknown_fields=True):
    id: int
    species: str
    weight: int
    tag: str
    time: str
    """Timestamp on the card back, ``H:MM`` (24-hour clock)."""


class MASpeciesDef(msgspec.Struct, forbid_unknown_fields=True):
    key: str
    name: str


class MACard(msgspec.Struct, forbid_unknown_fields=True):
    id: int
    species: str
    spots: list[BaitColour]


class TrophyDefs(msgspec.Struct, forbid_unknown_fields=True):
    first_to_12: list[int]
    mystery_weight: list[int]
    three_same: list[int]
    four_different: list[int]
    small_species: list[int]
    fastest_to_8: list[int]
    shore: list[int]
    lake: list[int]
    river: list[int]


class CrownContent(msgspec.Struct, forbid_unknown_fields=True):
    game: Literal["crown"]
    stand_in: bool
    source: str
    tag_colours: list[str]
    species: list[SpeciesDef]
    fish: list[FishCard]
    master_angler_species: list[MASpeciesDef]
    master_angler: list[MACard]
    trophies: TrophyDefs


def _minutes(t: str) -> int:
    h, sep, m = t.partition(":")
    if not sep or not h.isdigit() or len(m) != 2 or not m.isdigit():
        raise ValueError
    hh, mm = int(h), int(m)
    if not (0 <= hh < 24 and 0 <= mm < 60):
        raise ValueError
    return hh * 60 + mm


def check(c: CrownContent) -> None:
    """Cross-field rules msgspec's schema cannot express."""
    if len(set(c.tag_colours)) != 5 or len(c.tag_colours) != 5:
        raise ContentError("tag_colours: there are 5 Tag tiles of different colours")
    keys = [s.key for s in c.species]
    if sorted(keys) != sorted(RULEBOOK_SPECIES):
        raise ContentError(f"species: must be exactly {', '.join(RULEBOOK_SPECIES)} (got {', '.join(keys)})")
    ranges = {}
    for i, s in enumerate(c.species):
        loc, _ = RULEBOOK_SPECIES[s.key]
        if s.location != loc:
            raise ContentError(f"species[{i}] ({s.name}).location: the rulebook puts it at the {loc}, not {s.location}")
        lo, hi = s.range
        if not 0 < lo <= hi:
            raise ContentError(f"species[{i}] ({s.name}).range: {lo}-{hi} is not a weight range")
        ranges[s.key] = (lo, hi)
    counts = {k: 0 for k in RULEBOOK_SPECIES}
    times: dict[int, int] = {}
    for i, f in enumerate(c.fish):
        where = f"fish[{i}] (card {f.id}"
        if f.id != i + 1:
            raise ContentError(f"{where}).id: cards are numbered 1 to 60 in order; expected {i + 1}")
        if f.species not in ranges:
            raise ContentError(f"{where}).species: unknown species {f.species!r}")
        where += f", {f.species})"
        lo, hi = ranges[f.species]
        if not lo <= f.weight <= hi:
            raise ContentError(f"{where}.weight: {f.weight} lb is outside the card front's range {lo}-{hi}")
        if f.tag not in c.tag_colours:
            raise ContentError(f"{where}.tag: {f.tag!r} is not one of the tag colours {', '.join(c.tag_colours)}")
        try:
            t = _minutes(f.time)
        except ValueError:
            raise ContentError(f"{where}.time: {f.time!r} is not a time like 8:32") from None
        if t in times:
            raise ContentError(
                f"{where}.time: {f.time} is also on card {times[t]}; timestamps break ties, so they must differ"
            )
        times[t] = f.id
        counts[f.species] += 1
    for k, (_, n) in RULEBOOK_SPECIES.items():
        if counts[k] != n:
            raise ContentError(f"fish: the rulebook has {n} {k} cards, the file has {counts[k]}")
    if sorted(s.key for s in c.master_angler_species) != sorted(RULEBOOK_MA_SPECIES):
        raise ContentError(f"master_angler_species: must be exactly {', '.join(RULEBOOK_MA_SPECIES)}")
    if len(c.master_angler) != 30:
        raise ContentError(f"master_angler: the game has 30 Master Angler cards, the file has {len(c.master_angler)}")
    per = {k: 0 for k in RULEBOOK_MA_SPECIES}
    for i, m in enumerate(c.master_angler):
        where = f"master_angler[{i}] (card MA{m.id:02d})"
        if m.id != i + 1:
            raise ContentError(f"{where}.id: cards are numbered 1 to 30 in order; expected {i + 1}")
        if m.species not in per:
            raise ContentError(f"{where}.species: unknown Master Angler species {m.species!r}")
        if not 3 <= len(m.spots) <= 4:
            raise ContentError(f"{where}.spots: a card has 3 or 4 spots, not {len(m.spots)}")
        per[m.species] += 1
    for k, n in per.items():
        if n != 6:
            raise ContentError(f"master_angler: the game has 6 {k} cards, the file has {n}")
    tr = c.trophies
    if len(tr.first_to_12) != 1:
        raise ContentError("trophies.first_to_12: there is one First to 12 Fish trophy")
    if len(tr.mystery_weight) != 6 or len(set(tr.mystery_weight)) != 6:
        raise ContentError("trophies.mystery_weight: there are six Mystery Weight tiles with different weights")
    for name in ("three_same", "four_different", "small_species", "fastest_to_8", "shore", "lake", "river"):
        stack = getattr(tr, name)
        if len(stack) != 4:
            raise ContentError(f"trophies.{name}: the stack has 4 trophies, the file has {len(stack)}")
    for name in ("small_species", "fastest_to_8", "shore", "lake", "river"):
        stack = getattr(tr, name)
        if stack != sorted(stack, reverse=True):
            raise ContentError(f"trophies.{name}: list the stack from highest to lowest (the 5 on top)")


class Tables:
    """Fast lookups derived from validated content (read-only after construction)."""

    __slots__ = (
        "content",
        "fish_by_location",
        "hash",
        "location_of",
        "ma_species",
        "ma_species_name",
        "ma_spots",
        "mw_tiles",
        "species_keys",
        "species_location",
        "species_name",
        "species_of",
        "tag",
        "time",
        "weight",
    )

    def __init__(self, content: CrownContent) -> None:
        self.content = content
        self.hash = core_content.content_hash(content)
        n = len(content.fish) + 1
        self.weight = [0] * n
        self.tag = [""] * n
        self.time = [0] * n
        self.species_of = [""] * n
        self.species_location = {s.key: LOCATIONS.index(s.location) for s in content.species}
        self.species_name = {s.key: s.name for s in content.species}
        self.species_keys = tuple(s.key for s in content.species)
        self.location_of = [0] * n
        by_loc: list[list[int]] = [[], [], []]
        for f in content.fish:
            self.weight[f.id] = f.weight
            self.tag[f.id] = f.tag
            self.time[f.id] = _minutes(f.time)
            self.species_of[f.id] = f.species
            li = self.species_location[f.species]
            self.location_of[f.id] = li
            by_loc[li].append(f.id)
        self.fish_by_location = tuple(tuple(x) for x in by_loc)
        self.ma_species = [""] + [m.species for m in content.master_angler]
        self.ma_spots = [()] + [tuple(COLOURS.index(s) for s in m.spots) for m in content.master_angler]
        self.ma_species_name = {s.key: s.name for s in content.master_angler_species}
        self.mw_tiles = tuple(content.trophies.mystery_weight)

    def fish_name(self, species: str) -> str:
        return self.species_name.get(species, species)


def load_default() -> Tables:
    return Tables(core_content.load_packaged("coldwater.core.crown", "crown.json", CrownContent, check))


def load_given(given: core_content.ContentFiles) -> Tables:
    """A person's own card file (or ``crown.json`` in the folder they named)."""
    return Tables(core_content.load_given(given, "crown.json", CrownContent, check))


assert set(SMALL_SPECIES) <= set(RULEBOOK_SPECIES)
