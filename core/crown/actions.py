"""Every Coldwater Crown action: chance outcomes and players' atomic decisions.

Notation is derived from the fields (``place red``, ``catch 4 shore 3``,
``reveal lake pike 53``) and round-trips through :data:`CODEC`. The notation of
every action that can occur is computed once at import into a read-only table,
because sorting ``legal()`` by notation is on the hot path of every ply.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Literal, get_args

from coldwater.core.notation import Action, Codec, encode

from .content import RULEBOOK_SPECIES
from .model import BAIT_NAMES, COLOURS, LOCATIONS, SPACES, TACKLE_KINDS, ZONES

Colour = Literal["blue", "red", "purple", "black", "green", "yellow"]
BaitName = Literal["blue", "red", "purple", "black", "green", "yellow", "white"]
Loc = Literal["shore", "river", "lake"]
Space = Literal["port", "purple", "green", "blue", "red", "yellow", "black"]
Kind = Literal["line", "lure", "reel", "rod"]
Species = Literal[
    "wrasse", "mackerel", "john_dory", "flounder", "roach", "rainbow", "brown", "salmon", "perch", "sea_trout", "pike"
]


class CrownAct(Action, frozen=True):
    """Base of Crown's action classes; :data:`CrownAction` is their union."""

    def __str__(self) -> str:
        s = _NOTATION.get(self)
        return s if s is not None else encode(self)


# ---- chance outcomes ----------------------------------------------------------------


class Bait(CrownAct, frozen=True, tag="bait"):
    """A bait drawn from the bag (weights: how many of that colour are in it)."""

    colour: BaitName


class Reveal(CrownAct, frozen=True, tag="reveal"):
    """The new top card of a fish deck: its species shows; the card stays sealed."""

    loc: Loc
    species: Species
    card: int | None = None


class MAFlip(CrownAct, frozen=True, tag="flip"):
    """The top card of the Master Angler deck, turned face up."""

    card: int


class MWFlip(CrownAct, frozen=True, tag="mw"):
    """The next Mystery Weight tile, turned face up."""

    weight: int


class TackleDraw(CrownAct, frozen=True, tag="draw"):
    """A tackle piece from the face-down stack; only the drawer sees its kind."""

    kind: Kind | None = None


class TagTile(CrownAct, frozen=True, tag="tag"):
    colour: str


# ---- decisions ------------------------------------------------------------------------


class Place(CrownAct, frozen=True, tag="place"):
    """Step 1: put your Angler token on an open space and take its action."""

    space: Space


class Remove(CrownAct, frozen=True, tag="remove"):
    """Step 2: take another token off the board and take its action."""

    space: Space


class EndTurn(CrownAct, frozen=True, tag="end"):
    """Step 3: flip the removed token and end the turn."""


class Fill(CrownAct, frozen=True, tag="fill"):
    zone: int


class Take(CrownAct, frozen=True, tag="take"):
    """Take a face-up Master Angler card from the row."""

    card: int


class TakeTop(CrownAct, frozen=True, tag="taketop"):
    """Take the top card of the Master Angler deck."""


class Skip(CrownAct, frozen=True, tag="skip"):
    """A Port action that cannot be taken (every Zone full, no card to take)."""


class Route(CrownAct, frozen=True, tag="route"):
    """Put one cast bait on an open spot of a Master Angler card you are attempting."""

    card: int


class Discard(CrownAct, frozen=True, tag="discard"):
    """Put one cast bait on the discard pile."""


class Catch(CrownAct, frozen=True, tag="catch"):
    """Resolve the catch owed for emptying `zone`: take the fish at `loc` Zone `at`.

    A different location than the bait's uses a Rod; a different Zone uses a Line.
    """

    zone: int
    loc: Loc
    at: int


class Zone6(CrownAct, frozen=True, tag="zone6"):
    """Zone 6 bonus: catch the top card of the bait's deck instead."""


class Lose(CrownAct, frozen=True, tag="lose"):
    """The owed catch's Zone holds no fish: the catch is lost."""

    zone: int


class TakeTackle(CrownAct, frozen=True, tag="tackle"):
    """Zone 5 bonus: take (y) or decline (n) the top tackle piece."""

    take: bool


class Reel(CrownAct, frozen=True, tag="reel"):
    """Play a Reel: remove one `colour` bait from Zone `a` and one from Zone `b`."""

    colour: Colour
    a: int
    b: int


class Lure(CrownAct, frozen=True, tag="lure"):
    """Play a Lure: swap a `ca` bait in Zone `a` with a `cb` bait in Zone `b`."""

    a: int
    ca: Colour
    b: int
    cb: Colour


class SilentDraws(CrownAct, frozen=True, tag="silent"):
    """Practice Pond: how many bait the silent player draws this turn."""

    n: int


class WhiteOption(CrownAct, frozen=True, tag="white"):
    """Practice Pond, clear-white bait drawn: a second card for the silent player, or 7 bait to the discard."""

    choice: Literal["card", "bait"]


class Submit(CrownAct, frozen=True, tag="submit"):
    """Submit your `rank`-heaviest fish of `species` to the running contest (1 = heaviest)."""

    species: Species
    rank: int


CrownAction = (
    Bait
    | Reveal
    | MAFlip
    | MWFlip
    | TackleDraw
    | TagTile
    | Place
    | Remove
    | EndTurn
    | Fill
    | Take
    | TakeTop
    | Skip
    | Route
    | Discard
    | Catch
    | Zone6
    | Lose
    | TakeTackle
    | Reel
    | Lure
    | SilentDraws
    | WhiteOption
    | Submit
)
"""Every Crown action: a union, so a dispatch over it can be exhaustive (``assert_never``)."""

ACTION_TYPES = (
    Bait,
    Reveal,
    MAFlip,
    MWFlip,
    TackleDraw,
    TagTile,
    Place,
    Remove,
    EndTurn,
    Fill,
    Take,
    TakeTop,
    Skip,
    Route,
    Discard,
    Catch,
    Zone6,
    Lose,
    TakeTackle,
    Reel,
    Lure,
    SilentDraws,
    WhiteOption,
    Submit,
)
CODEC: Codec[CrownAction] = Codec(ACTION_TYPES)

CHANCE_TYPES = (Bait, Reveal, MAFlip, MWFlip, TackleDraw, TagTile)


def _all_actions() -> list[CrownAction]:
    out: list[CrownAction] = []
    out += [Bait(c) for c in BAIT_NAMES]
    for loc in get_args(Loc):
        for sp in get_args(Species):
            out.append(Reveal(loc, sp, None))
            out += [Reveal(loc, sp, c) for c in range(1, 61)]
    out += [MAFlip(c) for c in range(1, 31)] + [Take(c) for c in range(1, 31)] + [Route(c) for c in range(1, 31)]
    out += [MWFlip(w) for w in range(0, 21)]
    out += [TackleDraw(k) for k in (*TACKLE_KINDS, None)]
    out += [TagTile(c) for c in ("red", "orange", "yellow", "green", "blue")]
    out += [Place(s) for s in SPACES] + [Remove(s) for s in SPACES]
    out += [EndTurn(), TakeTop(), Skip(), Discard(), Zone6(), TakeTackle(True), TakeTackle(False)]
    out += [Fill(z) for z in ZONES] + [Lose(z) for z in ZONES]
    out += [Catch(z, loc, at) for z in ZONES for loc in LOCATIONS for at in ZONES]
    out += [Reel(c, a, b) for c in COLOURS for a in ZONES for b in ZONES if a <= b]
    out += [Lure(a, ca, b, cb) for a in ZONES for b in ZONES if a < b for ca in COLOURS for cb in COLOURS if ca != cb]
    out += [SilentDraws(1), SilentDraws(2), WhiteOption("card"), WhiteOption("bait")]
    out += [Submit(sp, r) for sp in get_args(Species) for r in range(1, 11)]
    return out


assert set(get_args(Species)) == set(RULEBOOK_SPECIES)

_NOTATION: MappingProxyType[CrownAct, str] = MappingProxyType({a: encode(a) for a in _all_actions()})
