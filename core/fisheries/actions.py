"""Every decision and chance outcome of Fisheries of Gloucester, with its notation.

Cells are named ``a1``..``n8`` (column letter, row number). Seats are 0 and 1.
"""

from __future__ import annotations

from typing import Literal

from coldwater.core.notation import Action, Codec


class FisheriesAction(Action, frozen=True):
    """Base of this game's actions (notation from ``core.notation``)."""


# ---- decisions -----------------------------------------------------------------


class Chart(FisheriesAction, frozen=True, tag="chart"):
    """Chart a Course: place one tile of `shape` from your supply on `cells` (sorted)."""

    shape: str
    cells: tuple[str, ...]


class Sail(FisheriesAction, frozen=True, tag="sail"):
    """Sail the ship on `frm` to `to` along the cheapest legal path, paying its hours."""

    frm: str
    to: str


class Fish(FisheriesAction, frozen=True, tag="fish"):
    """Take the fish on `cell` (1 hour). Start or continue a Fish action."""

    cell: str


class Preserve(FisheriesAction, frozen=True, tag="preserve"):
    """Take preservation card `card`, discarding `fish` (colours, sorted)."""

    card: str
    fish: tuple[str, ...]


class BonusSail(FisheriesAction, frozen=True, tag="bsail"):
    """A preservation card's ship icon: move a ship within the card's sailing power."""

    frm: str
    to: str


class BonusTile(FisheriesAction, frozen=True, tag="btile"):
    """A preservation card's tile icon: place the tile from the general supply."""

    cells: tuple[str, ...]


class Done(FisheriesAction, frozen=True, tag="done"):
    """Stop: no more fish this action, or skip the rest of a card's action."""


class Lobster(FisheriesAction, frozen=True, tag="lobster"):
    """Discard your lobster to take another action immediately."""


class Pass(FisheriesAction, frozen=True, tag="pass"):
    """Keep your lobster (after an action) or give up the lobster's extra action."""


class EndDay(FisheriesAction, frozen=True, tag="end"):
    """End your day. The first to end chooses to go first or second tomorrow."""

    go: Literal["first", "second"] | None = None


class Keep(FisheriesAction, frozen=True, tag="keep"):
    """Overnight: keep one tile of `shape` (None: keep none); the rest go back."""

    shape: str | None


class Put(FisheriesAction, frozen=True, tag="put"):
    """B-side setup: place a piece (an island symbol, "rough" or "fish") on `cell`."""

    piece: str
    cell: str


# ---- chance outcomes -----------------------------------------------------------


class Start(FisheriesAction, frozen=True, tag="start"):
    """Chance: `seat` is the starting player and takes the initiative card."""

    seat: int


class Stock(FisheriesAction, frozen=True, tag="stock"):
    """Chance: a fish of `colour` is placed on `cell` at setup."""

    cell: str
    colour: str


class Reveal(FisheriesAction, frozen=True, tag="reveal"):
    """Chance: preservation card `card` becomes the top of its stack (or fills a market slot)."""

    card: str


class Flip(FisheriesAction, frozen=True, tag="flip"):
    """Chance: chart card `card` is flipped at the start of a day."""

    card: str


FAction = (
    Chart
    | Sail
    | Fish
    | Preserve
    | BonusSail
    | BonusTile
    | Done
    | Lobster
    | Pass
    | EndDay
    | Keep
    | Put
    | Start
    | Stock
    | Reveal
    | Flip
)

CODEC: Codec[FAction] = Codec(
    [
        Chart,
        Sail,
        Fish,
        Preserve,
        BonusSail,
        BonusTile,
        Done,
        Lobster,
        Pass,
        EndDay,
        Keep,
        Put,
        Start,
        Stock,
        Reveal,
        Flip,
    ]
)
