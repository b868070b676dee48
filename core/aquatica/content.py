"""Loading, validating and compiling the Aquatica content files.

The six files in ``data/`` (characters, kings, locations, mantas, tribes, goals)
are checked by their msgspec schema, then by the cross-field rules below; every
error names the file, the card and the field. ``compile_content`` turns them
into a ``Deck`` of flat tuples indexed by card id (see ``model.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from coldwater.core import content as core_content
from coldwater.core.errors import ContentError

from .model import (
    EXTRA_OPS,
    KING_BASE,
    LOC_TYPES,
    NEEDS_N,
    OCEAN_BASE,
    OCEAN_PER_DECK,
    OPS,
    RESOURCE_OPS,
    STARTING_PER_SEAT,
    CharactersFile,
    Content,
    Eff,
    GoalsFile,
    GoalSpec,
    KingsFile,
    LocationsFile,
    MantasFile,
    TribesFile,
)

PACKAGE = "coldwater.core.aquatica"
FILES: dict[str, type[Any]] = {
    "characters": CharactersFile,
    "kings": KingsFile,
    "locations": LocationsFile,
    "mantas": MantasFile,
    "tribes": TribesFile,
    "goals": GoalsFile,
}
GOAL_CONDS = frozenset(
    {
        "hand",
        "board",
        "scored",
        "wild",
        "locs",
        "scored_pp",
        "discard_all_but",
        "scored_types",
        "one_type",
        "discard",
        "conquer_chars",
        "risen",
        "recruited_cost",
        "ocean_hand",
        "board_pp_distinct",
        "board_open_distinct",
        "scored_low",
    }
    | {f"type_total:{t}" for t in LOC_TYPES}
)
PER_WHAT = frozenset({"wild", "hand", "tribes", "scored", "big", "risen", "mantas"} | {f"type:{t}" for t in LOC_TYPES})


def _check_eff(e: Eff, where: str, allowed: frozenset[str] = OPS) -> None:
    if e.op not in OPS:
        raise ContentError(f"{where}: unknown effect op {e.op!r}")
    if e.op not in allowed:
        raise ContentError(f"{where}: effect {e.op!r} is not allowed here")
    if e.op in NEEDS_N and not 1 <= e.n <= 9:
        raise ContentError(f"{where}: effect {e.op!r} needs n between 1 and 9, got {e.n}")
    if e.op not in NEEDS_N and e.n:
        raise ContentError(f"{where}: effect {e.op!r} takes no n")
    if (e.op == "tpower") != bool(e.t):
        raise ContentError(f"{where}: only 'tpower' names a Location type t")
    if e.t and e.t not in LOC_TYPES:
        raise ContentError(f"{where}: unknown Location type {e.t!r}")
    if e.split and e.op != "raise":
        raise ContentError(f"{where}: only 'raise' can be split")


def check_characters(f: CharactersFile) -> None:
    if len(f.starting) != STARTING_PER_SEAT:
        raise ContentError(f"field 'starting': needs {STARTING_PER_SEAT} Starting Characters, got {len(f.starting)}")
    if sum(any(e.op == "matrona" for e in c.effects) for c in f.starting) != 1:
        raise ContentError("field 'starting': exactly one Starting Character must have the 'matrona' effect")
    if len(f.ocean) != OCEAN_PER_DECK:
        raise ContentError(f"field 'ocean': needs {OCEAN_PER_DECK} Ocean Characters, got {len(f.ocean)}")
    keys: set[str] = set()
    for group, cards in (("starting", f.starting), ("ocean", f.ocean)):
        for i, c in enumerate(cards):
            where = f"{group}[{i}] {c.name!r}"
            if c.key in keys:
                raise ContentError(f"{where}: field 'key': duplicate key {c.key!r}")
            keys.add(c.key)
            if not c.effects:
                raise ContentError(f"{where}: field 'effects': a Character needs at least one effect")
            for j, e in enumerate(c.effects):
                _check_eff(e, f"{where}: field 'effects'[{j}]", OPS - {"empty", "wild_manta"})
            for j, e in enumerate(c.delayed):
                _check_eff(e, f"{where}: field 'delayed'[{j}]", EXTRA_OPS - {"empty"})
            if group == "ocean" and c.decks and sorted(c.decks) != ["d", "o"]:
                raise ContentError(f"{where}: field 'decks': every Ocean Character is in both the o and d decks")
            if group == "ocean" and any(e.op == "matrona" for e in c.effects):
                raise ContentError(f"{where}: field 'effects': only a Starting Character can be Matrona")
            if any(e.op == "replay" for e in c.effects) and len(c.effects) != 1:
                raise ContentError(f"{where}: field 'effects': 'replay' must be the card's only effect")


def check_kings(f: KingsFile) -> None:
    nums = sorted(k.number for k in f.kings)
    if nums != list(range(1, len(f.kings) + 1)) or len(f.kings) != 11:
        raise ContentError(f"field 'kings': needs Kings numbered 1 to 11, got {nums}")
    for i, k in enumerate(f.kings):
        where = f"kings[{i}] {k.name!r}"
        if not k.effects and not k.setup_discard:
            raise ContentError(f"{where}: field 'effects': a King kept in hand needs effects")
        for j, e in enumerate(k.effects):
            _check_eff(e, f"{where}: field 'effects'[{j}]", OPS - {"empty", "matrona", "replay", "wild_manta"})
    if sum(k.setup_discard for k in f.kings) > 2 or any(k.setup_discard and k.number <= 5 for k in f.kings):
        raise ContentError("field 'setup_discard': at most two Kings, numbered above 5, are discarded at setup")


def check_locations(f: LocationsFile) -> None:
    if sorted(t.key for t in f.types) != sorted(LOC_TYPES):
        raise ContentError(f"field 'types': needs the five types {', '.join(LOC_TYPES)}")
    for i, loc in enumerate(f.locations):
        where = f"locations[{i}] {loc.name!r}"
        if loc.id != i:
            raise ContentError(f"{where}: field 'id': ids must run 0, 1, 2, ... in order (expected {i}, got {loc.id})")
        for fld in ("coins", "power", "pp"):
            v = getattr(loc, fld)
            if not 0 <= v <= 20:
                raise ContentError(f"{where}: field {fld!r}: {v} is out of range 0..20")
        if len(loc.depths) > 6:
            raise ContentError(f"{where}: field 'depths': at most 6 Depths")
        for j, e in enumerate(loc.depths):
            _check_eff(e, f"{where}: field 'depths'[{j}]", EXTRA_OPS - {"tpower", "free_recruit", "wild_manta"})
            if e.op == "copy" and loc.type != "frosty":
                raise ContentError(f"{where}: field 'depths'[{j}]: only Frosty Depths copy")
        if loc.depths and loc.depths[0].op == "empty":
            raise ContentError(f"{where}: field 'depths'[0]: the first Depth may not be empty")
    for t in LOC_TYPES:
        n = sum(loc.type == t for loc in f.locations)
        if n != 14:
            raise ContentError(f"field 'locations': type {t!r} needs 14 Locations, got {n}")


def check_mantas(f: MantasFile) -> None:
    if len(f.trained) != 4:
        raise ContentError(f"field 'trained': needs 4 Trained Manta effects, got {len(f.trained)}")
    if len(f.wild) != 37:
        raise ContentError(f"field 'wild': needs 37 Wild Manta effects, got {len(f.wild)}")
    # A Manta that readied Mantas would re-ready itself forever.
    allowed = EXTRA_OPS - {"ready", "copy", "empty", "wild_manta"}
    for grp, effs in (("trained", f.trained), ("wild", f.wild)):
        for j, e in enumerate(effs):
            _check_eff(e, f"{grp}[{j}]: field 'op'", allowed)


def check_tribes(f: TribesFile) -> None:
    for tier in (1, 2):
        n = sum(t.tier == tier for t in f.tribes)
        if n != 10:
            raise ContentError(f"field 'tribes': needs 10 Tribes of type {'I' * tier}, got {n}")
    for i, t in enumerate(f.tribes):
        where = f"tribes[{i}] {t.name!r}"
        if not 0 <= t.cost <= 12:
            raise ContentError(f"{where}: field 'cost': {t.cost} is out of range 0..12")
        if t.tier == 1:
            if t.ongoing is None or t.instant or t.pp_per is not None:
                raise ContentError(f"{where}: field 'ongoing': a type I Tribe has an ongoing bonus and fixed pp only")
            _check_eff(t.ongoing, f"{where}: field 'ongoing'", EXTRA_OPS - {"empty", "copy", "ready", "wild_manta"})
        else:
            if t.ongoing is not None or not t.instant or t.pp_per is None:
                raise ContentError(f"{where}: field 'instant': a type II Tribe has an instant bonus and pp_per")
            for j, e in enumerate(t.instant):
                _check_eff(
                    e, f"{where}: field 'instant'[{j}]", EXTRA_OPS - {"empty", "copy", "coins", "power", "tpower"}
                )
            if t.pp_per.what not in PER_WHAT:
                raise ContentError(f"{where}: field 'pp_per.what': unknown condition {t.pp_per.what!r}")
            if t.pp_per.every < 1:
                raise ContentError(f"{where}: field 'pp_per.every': must be at least 1")


def check_goals(f: GoalsFile) -> None:
    if len(f.spots) < 5 or any(v < 0 for v in f.spots):
        raise ContentError("field 'spots': needs at least 5 non-negative spot values (one per player)")
    if len(f.printed) != 4:
        raise ContentError(f"field 'printed': needs 4 printed Goals, got {len(f.printed)}")
    if len(f.tokens) < 4:
        raise ContentError(f"field 'tokens': needs at least 4 Goal tokens, got {len(f.tokens)}")
    goals: list[tuple[str, GoalSpec]] = [(f"printed[{i}]", g) for i, g in enumerate(f.printed)]
    for i, t in enumerate(f.tokens):
        goals += [(f"tokens[{i}].a", t.a), (f"tokens[{i}].b", t.b)]
    for where, g in goals:
        if g.cond not in GOAL_CONDS:
            raise ContentError(f"{where} {g.name!r}: field 'cond': unknown condition {g.cond!r}")


# Each check takes the part its schema in FILES decodes to, so the common type
# is a callable of Any (a dict of differently-typed functions joins to `function`).
CHECKS: dict[str, Callable[[Any], None]] = {
    "characters": check_characters,
    "kings": check_kings,
    "locations": check_locations,
    "mantas": check_mantas,
    "tribes": check_tribes,
    "goals": check_goals,
}


def load_packaged() -> Content:
    parts = {k: core_content.load_packaged(PACKAGE, f"{k}.json", schema, CHECKS[k]) for k, schema in FILES.items()}
    return Content(**parts)


def load_given(given: core_content.ContentFiles) -> Content:
    """A person's own content: a folder of the six files (missing ones fall back
    to the packaged stand-ins) or one file named after the part it replaces."""
    base = load_packaged()
    parts = {k: getattr(base, k) for k in FILES}
    names = ", ".join(f"{n}.json" for n in FILES)
    if given.folder:
        if not any(f"{k}.json" in given.files for k in FILES):
            # Almost always the wrong folder: say so rather than quietly play the stand-in.
            raise ContentError(f"{given.source}: none of {names} is in this folder")
        for k, schema in FILES.items():
            if f"{k}.json" in given.files:
                parts[k] = core_content.load_given(given, f"{k}.json", schema, CHECKS[k])
    else:
        (name,) = given.files
        k = PurePath(name).stem
        if k not in FILES:
            raise ContentError(f"{given.source}: the file name must be one of {names}")
        parts[k] = core_content.load_given(given, name, FILES[k], CHECKS[k])
    return Content(**parts)


@dataclass(frozen=True)
class Deck:
    """Compiled content: everything the rules look up, by id."""

    content: Content
    hash: str
    char_name: tuple[str, ...]
    char_key: tuple[str, ...]
    char_effs: tuple[tuple[Eff, ...], ...]
    char_delayed: tuple[tuple[Eff, ...], ...]
    king_discard: tuple[bool, ...]
    loc_name: tuple[str, ...]
    loc_type: tuple[int, ...]
    loc_coins: tuple[int, ...]
    loc_power: tuple[int, ...]
    loc_depths: tuple[tuple[Eff, ...], ...]
    loc_pp: tuple[int, ...]
    loc_manta: tuple[bool, ...]
    trained: tuple[Eff, ...]
    wild: tuple[Eff, ...]
    goals: tuple[GoalSpec, ...]
    spots: tuple[int, ...]

    @property
    def n_chars(self) -> int:
        return len(self.char_name)

    def is_king(self, c: int) -> bool:
        return c >= KING_BASE

    def is_ocean(self, c: int) -> bool:
        return OCEAN_BASE <= c < KING_BASE

    def king_id(self, number: int) -> int:
        return KING_BASE + number - 1

    def seat_of_starting(self, c: int) -> int:
        return c // STARTING_PER_SEAT if c < OCEAN_BASE else -1


def compile_content(c: Content) -> Deck:
    names: list[str] = []
    keys: list[str] = []
    effs: list[tuple[Eff, ...]] = []
    delayed: list[tuple[Eff, ...]] = []
    cards = [s for _ in range(5) for s in c.characters.starting] + [s for _ in range(2) for s in c.characters.ocean]
    for s in cards:
        names.append(s.name)
        keys.append(s.key)
        effs.append(tuple(s.effects))
        delayed.append(tuple(s.delayed))
    kd: list[bool] = [False] * len(names)
    for k in sorted(c.kings.kings, key=lambda k: k.number):
        names.append(k.name)
        keys.append(f"king{k.number}")
        effs.append(tuple(k.effects))
        delayed.append(())
        kd.append(k.setup_discard)
    L = c.locations.locations
    goals = list(c.goals.printed)
    for t in c.goals.tokens:
        goals += [t.a, t.b]
    return Deck(
        content=c,
        hash=core_content.content_hash(c),
        char_name=tuple(names),
        char_key=tuple(keys),
        char_effs=tuple(effs),
        char_delayed=tuple(delayed),
        king_discard=tuple(kd),
        loc_name=tuple(x.name for x in L),
        loc_type=tuple(LOC_TYPES.index(x.type) for x in L),
        loc_coins=tuple(x.coins for x in L),
        loc_power=tuple(x.power for x in L),
        loc_depths=tuple(tuple(x.depths) for x in L),
        loc_pp=tuple(x.pp for x in L),
        loc_manta=tuple(x.manta for x in L),
        trained=tuple(c.mantas.trained),
        wild=tuple(c.mantas.wild),
        goals=tuple(goals),
        spots=tuple(c.goals.spots),
    )


def is_resource(e: Eff) -> bool:
    return e.op in RESOURCE_OPS
