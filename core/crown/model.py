"""The data of a Coldwater Crown position: one msgspec Struct and its parts.

Everything a position holds lives in :class:`CrownData`, so cloning, hashing and
the canonical text form all come from one encoding. Indices are used for
colours, locations and zones because they are compact and fast; the names below
turn them back into words for notation and messages.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

# ---- fixed vocabulary of the rulebook --------------------------------------------

COLOURS: Final = ("blue", "red", "purple", "black", "green", "yellow")
"""The six bait colours, by index. The clear-white bait is index WHITE."""
WHITE: Final = 6
BAIT_NAMES: Final = COLOURS + ("white",)
COLOUR_INDEX: Final = {c: i for i, c in enumerate(BAIT_NAMES)}

LOCATIONS: Final = ("shore", "river", "lake")
LOCATION_INDEX: Final = {n: i for i, n in enumerate(LOCATIONS)}
LOCATION_TITLES: Final = ("Shore", "River", "Lake")
# Purple and green fish the Shore, black and yellow the River, blue and red the Lake.
COLOUR_LOCATION: Final = (2, 2, 0, 1, 0, 1)
CONTEST_ORDER: Final = (0, 2, 1)
"""The end-game contests run Shore, then Lake, then River."""

SPACES: Final = ("port", "purple", "green", "blue", "red", "yellow", "black")
"""The seven Angler spaces in clockwise order (the silent player's token path)."""
SPACE_INDEX: Final = {n: i for i, n in enumerate(SPACES)}
PORT: Final = 0
# Fishing space index -> bait colour index.
SPACE_COLOUR: Final = (-1, 2, 4, 0, 1, 5, 3)
COLOUR_SPACE: Final = (3, 4, 1, 6, 2, 5)

ZONES: Final = (3, 4, 5, 6)
"""Zone numbers; a Zone's index in lists is ``zone - 3``."""

TACKLE_KINDS: Final = ("line", "lure", "reel", "rod")
TACKLE_COUNTS: Final = {"lure": 6, "reel": 3, "rod": 3, "line": 3}

SMALL_SPECIES: Final = ("roach", "perch", "flounder")

TROPHY_KINDS: Final = (
    "first_to_12",
    "mystery_weight",
    "three_same",
    "four_different",
    "small_species",
    "fastest_to_8",
    "shore",
    "lake",
    "river",
)
TROPHY_TITLES: Final = {
    "first_to_12": "First to 12 Fish Challenge",
    "mystery_weight": "Mystery Weight Challenge",
    "three_same": "Master Angler: Three Same",
    "four_different": "Master Angler: Four Different",
    "small_species": "Small Species Challenge",
    "fastest_to_8": "Fastest to 8 Species Challenge",
    "shore": "Shore Contest",
    "lake": "Lake Contest",
    "river": "River Contest",
}

CHANCE_SEAT: Final = -1


class CrownOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Game options. Practice Pond is simply ``players=1``."""

    no_tags: bool = False
    """The rulebook's optional rule: tagged fish score nothing."""


# ---- parts of a position -----------------------------------------------------------


class Fish(msgspec.Struct, array_like=True):
    """A fish card. The species (card front) is public; `card` is sealed.

    ``card`` is the card's id in the content file, or None where the viewer may
    not know it. ``shown`` marks a caught fish revealed to everyone (a Mystery
    Weight claim).
    """

    species: str
    card: int | None = None
    shown: bool = False


class Tackle(msgspec.Struct, array_like=True):
    """A held tackle piece; `kind` is None for anyone but its owner."""

    kind: str | None
    fresh: bool = False
    """Drawn during the current Step: playable from the next Step on."""


class MAProgress(msgspec.Struct, array_like=True):
    """A Master Angler card being attempted, with the bait colours on its spots."""

    card: int
    filled: list[int] = []


class Trophy(msgspec.Struct, array_like=True):
    kind: str
    points: int
    weight: int = 0
    """For a Mystery Weight tile: the weight printed on it."""


class Pick(msgspec.Struct, array_like=True):
    """A contest submission choice: the `rank` heaviest fish of `species` (1 = heaviest)."""

    species: str
    rank: int


class Player(msgspec.Struct):
    """A seat, or the Practice Pond's silent player (always last)."""

    zones: list[list[int]]
    """Per Zone 3..6, the count of each bait colour on the player board."""
    token: int
    """Side (1 or 2) of the Angler token in hand; 0 while it is on the board."""
    tackle: list[Tackle] = []
    ma: list[MAProgress] = []
    ma_done: list[int] = []
    fish: list[Fish] = []
    trophies: list[Trophy] = []
    picks: list[Pick] = []
    """Submissions for the running contest; sealed from others until all submit."""
    picks_made: int = 0
    submitted: list[Fish] = []
    silent: bool = False


class Stacks(msgspec.Struct):
    """Trophy stacks still on the board; the top of each is its first item."""

    first_to_12: list[int]
    three_same: list[int]
    four_different: list[int]
    small_species: list[int]
    fastest_to_8: list[int]
    shore: list[int]
    lake: list[int]
    river: list[int]


class Pending(msgspec.Struct, array_like=True):
    """A catch owed for emptying `zone` with bait of `colour`."""

    zone: int
    colour: int


class Task(msgspec.Struct, array_like=True):
    """Queued work: a chance draw, an automatic rule, or a small interrupting decision."""

    kind: str
    seat: int = 0
    n: int = 0


Phase = Literal["setup", "wait", "idle", "port", "route", "catch", "silent", "submit", "over"]
"""Where a turn is: "idle" between steps (place, remove, end), "port" taking Port
actions, "route" routing cast bait, "catch" resolving catches, "silent" the
Practice Pond's silent player, "submit" the contests, "wait" before the first turn."""


class CrownData(msgspec.Struct):
    players: int
    no_tags: bool
    parties: list[Player]
    stacks: Stacks
    # ---- turn state ----
    cur: int | None = -1
    """Cached ``current``: a seat, -1 for chance, None when over."""
    node: int = -1
    """Cached derived chance node: 0-2 a deck top to reveal, 3 the Master Angler row,
    4 the Mystery Weight tile, -1 none (then a queued task, if any, is the node)."""
    turn: int = 0
    step: int = 0
    """0 while setting up; 1, 2, 3 during a turn's steps; 4 during the contests."""
    phase: Phase = "setup"
    tasks: list[Task] = []
    placed: int = -1
    removed: int = 0
    port_left: int = 0
    port_filled: list[int] = []
    colour: int = 0
    route_left: int = 0
    pending: list[Pending] = []
    offer_tackle: bool = False
    mini: bool = False
    """Resolving a Reel played between steps; its end does not end the Step."""
    mw_claimed: bool = False
    restock_failed: bool = False
    end_triggered: bool = False
    final_left: int = -1
    contest: int = 0
    # ---- board ----
    tokens: list[int] = []
    """Per Angler space: 0 if empty, else the side (1 or 2) of the token on it."""
    zones: list[list[Fish | None]] = []
    tops: list[Fish | None] = []
    decks: list[list[Fish]] = []
    thrown: list[Fish] = []
    bag: list[int] = []
    white_in_bag: bool = False
    white_aside: bool = False
    discard: list[int] = []
    box: list[int] = []
    ma_row: list[int] = []
    ma_deck: list[int] = []
    mw_top: int | None = None
    mw_stack: list[int] = []
    tackle_stack: list[str | None] = []
    tackle_discard: list[str] = []
    tag: str | None = None
    log_catches: int = 0
    """How many fish have been caught (for tests and the UI's summaries)."""


def zone_total(zone: list[int]) -> int:
    return sum(zone)
