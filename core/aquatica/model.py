"""Data shapes: the content schemas and the one position Struct (``AqData``).

Content is read into the schemas below and then compiled into a ``Deck``: flat
tuples indexed by card id, so the rules never look anything up by name.

Card ids (stable for a given content):

- Characters: seat ``s``'s Starting Characters are ``6*s + k`` (0..29); the Ocean
  Characters are ``30 + 15*deck + k`` (deck 0 = symbol ○, 1 = ◇); the Kings are
  ``60 + number - 1``.
- Locations, Tribes, Wild Mantas: their index in the content file.
- Goals: an index into ``Deck.goals`` (the 4 printed ones first, then token sides).

A sealed value is ``-1`` (an unknown Ocean Character, Location, Tribe or Goal
token) or ``-2`` (an unknown King) in another seat's view.
"""

from __future__ import annotations

from typing import Literal

import msgspec

HIDDEN = -1
"""A sealed card in a view."""
HIDDEN_KING = -2
"""A sealed King in a view (that a seat holds a King is public; which is not)."""

STARTING_PER_SEAT = 6
OCEAN_BASE = 30
OCEAN_PER_DECK = 15
KING_BASE = 60
MAX_SEATS = 5
BOARD_SLOTS = 5
ROW_SIZE = 6
RIVAL = 9
"""The solo virtual rival's mark on a goal track."""

LocType = Literal["shark", "ships", "civ", "volcano", "frosty"]
LOC_TYPES: tuple[str, ...] = ("shark", "ships", "civ", "volcano", "frosty")

# ---- the effect language ------------------------------------------------------

OPS: frozenset[str] = frozenset(
    {
        "coins",
        "power",
        "tpower",
        "recruit",
        "free_recruit",
        "buy",
        "conquer",
        "scout",
        "raise",
        "score",
        "take_back",
        "fully_rise",
        "ready",
        "matrona",
        "opp_flip",
        "opp_discard",
        "copy",
        "replay",
        "wild_manta",
        "empty",
    }
)
RESOURCE_OPS: frozenset[str] = frozenset({"coins", "power", "tpower"})
NEEDS_N: frozenset[str] = frozenset({"coins", "power", "tpower", "raise"})
# Effects that may come from a Manta, a Depth or a Tribe, i.e. outside a
# Character's Main Action: nothing there may ask for a payment.
EXTRA_OPS: frozenset[str] = frozenset(
    {
        "coins",
        "power",
        "tpower",
        "raise",
        "score",
        "take_back",
        "fully_rise",
        "free_recruit",
        "ready",
        "opp_flip",
        "copy",
        "wild_manta",
        "empty",
    }
)


class Eff(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """One effect: ``op`` with an amount ``n``, a Location type ``t``, ``split``."""

    op: str
    n: int = 0
    t: str = ""
    split: bool = False

    def text(self) -> str:
        if self.op == "tpower":
            return f"+{self.n} power toward {self.t}"
        if self.op in ("coins", "power"):
            return f"+{self.n} {self.op}"
        if self.op == "raise":
            return f"raise {self.n}" + (" (split)" if self.split else "")
        return self.op.replace("_", " ")


# ---- content schemas ------------------------------------------------------------


class CharSpec(msgspec.Struct, forbid_unknown_fields=True):
    key: str
    name: str
    effects: list[Eff]
    delayed: list[Eff] = []
    expansion: Literal["base", "cold_waters"] = "base"
    decks: list[Literal["o", "d"]] = []
    note: str = ""


class CharactersFile(msgspec.Struct, forbid_unknown_fields=True):
    starting: list[CharSpec]
    ocean: list[CharSpec]
    stand_in: bool = False
    source: str = ""


class KingSpec(msgspec.Struct, forbid_unknown_fields=True):
    number: int
    name: str
    effects: list[Eff]
    setup_discard: bool = False
    expansion: Literal["base", "cold_waters"] = "base"
    note: str = ""


class KingsFile(msgspec.Struct, forbid_unknown_fields=True):
    kings: list[KingSpec]
    stand_in: bool = False
    source: str = ""


class LocTypeSpec(msgspec.Struct, forbid_unknown_fields=True):
    key: LocType
    name: str


class LocSpec(msgspec.Struct, forbid_unknown_fields=True):
    id: int
    name: str
    type: LocType
    coins: int
    power: int
    depths: list[Eff]
    pp: int
    manta: bool = False
    note: str = ""


class LocationsFile(msgspec.Struct, forbid_unknown_fields=True):
    types: list[LocTypeSpec]
    locations: list[LocSpec]
    stand_in: bool = False
    source: str = ""


class MantasFile(msgspec.Struct, forbid_unknown_fields=True):
    trained: list[Eff]
    wild: list[Eff]
    stand_in: bool = False
    source: str = ""


class PerSpec(msgspec.Struct, forbid_unknown_fields=True):
    what: str
    pp: int
    every: int = 1
    max: int = 0


class TribeSpec(msgspec.Struct, forbid_unknown_fields=True):
    key: str
    name: str
    tier: Literal[1, 2]
    cost: int
    ongoing: Eff | None = None
    instant: list[Eff] = []
    pp: int = 0
    pp_per: PerSpec | None = None
    note: str = ""


class TribesFile(msgspec.Struct, forbid_unknown_fields=True):
    tribes: list[TribeSpec]
    stand_in: bool = False
    source: str = ""


class GoalSpec(msgspec.Struct, forbid_unknown_fields=True):
    key: str
    name: str
    cond: str
    n: int = 0
    expansion: Literal["base", "cold_waters"] = "base"


class TokenSpec(msgspec.Struct, forbid_unknown_fields=True):
    token: int
    a: GoalSpec
    b: GoalSpec


class GoalsFile(msgspec.Struct, forbid_unknown_fields=True):
    spots: list[int]
    printed: list[GoalSpec]
    tokens: list[TokenSpec]
    stand_in: bool = False
    source: str = ""


class Content(msgspec.Struct):
    characters: CharactersFile
    kings: KingsFile
    locations: LocationsFile
    mantas: MantasFile
    tribes: TribesFile
    goals: GoalsFile


# ---- the position ----------------------------------------------------------------


class Loc(msgspec.Struct, array_like=True):
    """A Location on a player board: ``pos`` Depths covered so far."""

    id: int
    pos: int = 0
    used: bool = False
    """A resource Depth of it paid during this Main Action (one per action)."""
    risen: bool = False


class Manta(msgspec.Struct, array_like=True):
    wild: int = -1
    """-1: a Trained Manta (``kind`` indexes the trained effects); else the Wild Manta id."""
    kind: int = 0
    ready: bool = True
    placed: bool = False
    """Retired on a goal track or a Tribe card."""


class Player(msgspec.Struct):
    hand: list[int]
    discard: list[int] = []
    """Bottom first; the last one is the top of the pile."""
    board: list[Loc] = []
    scored: list[int] = []
    mantas: list[Manta] = []
    king: int = 0
    """Number of the King this seat took (0: none yet); public after setup for ties."""
    goals: list[int] = []
    tribes: list[int] = []
    flipped: list[int] = []
    """Tribes Solo levels 1-2: Tribes recruited by flipping the card (no bonus)."""
    tribe_used: list[int] = []
    """Ongoing (type I) Tribes used this turn."""
    recruited_cost: int = -1
    """Highest Character price paid this turn (the 'recruit a 5' goal)."""


class Frame(msgspec.Struct):
    """Effects still to resolve from one source, first one next."""

    effs: list[Eff]
    src: int = -1
    """Location id the effects come from (never raises or scores itself), else -1."""
    main: bool = False
    left: int = -1
    """Raise: amount still to place (-1: not begun)."""
    label: str = ""


class Pay(msgspec.Struct):
    what: Literal["char", "loc", "tribe"]
    target: int
    res: Literal["c", "p"]
    cost: int
    ltype: str = ""


class Draw(msgspec.Struct, array_like=True):
    """A pending chance event: draw from ``deck`` into ``to`` (``arg``: a seat or type)."""

    deck: str
    to: str
    arg: int = 0


Phase = Literal["setup", "kings", "pre", "main", "post", "over"]
"""setup (chance), kings (the draft), pre / main / post the parts of a turn."""


class AqData(msgspec.Struct):
    players: int
    module: str
    variable_goals: bool
    kings_mode: str
    solo_level: int
    """0: not Tribes Solo."""
    phase: Phase
    turn: int
    ps: list[Player]
    char_deck: list[int]
    char_box: list[int]
    char_row: list[int]
    char_discard: list[int]
    loc_deck: list[int]
    loc_box: list[int]
    loc_top: list[int]
    loc_bottom: list[int]
    loc_discard: list[int]
    wild_supply: list[int]
    king_pool: list[int]
    """Kings not yet dealt (hidden); during the draft, the Kings being passed."""
    draft: list[int]
    king_box: list[int]
    tribe_pool: list[int]
    tribes: list[int]
    tribe_mantas: list[list[int]]
    goal_pool: list[int]
    goals: list[int]
    tracks: list[list[int]]
    draws: list[Draw] = []
    draft_order: list[int] = []
    stack: list[Frame] = []
    pay: Pay | None = None
    coins: int = 0
    power: int = 0
    tpower: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0, 0])
    placing: int = -1
    """A Tribe paid for, waiting for its Manta (or flip)."""
    cutting: bool = False
    """Scouting with more than 4 in the bottom row: discarding down to 4."""
    opp_kind: str = ""
    opp_seats: list[int] = []
    rival_pending: int = 0
    rival_placed: int = 0
    playing: int = -1
    """The Character being played as this turn's Main Action."""
    trigger: bool = False
    final_left: int = -1
    won: bool = False
