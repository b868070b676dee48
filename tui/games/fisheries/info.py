"""What the Fisheries widgets need from the engine, gathered in one adapter.

The engine's position Struct (``core/fisheries/model.py``) holds cell indices,
colour names, shape ids and card ids; its ``Ctx`` turns those into geometry,
names and card texts. This module is the only place the UI reaches into them,
so an engine change lands here once. Everything here is pure: no widgets.
"""

from __future__ import annotations

from rich.text import Text

from coldwater.core.fisheries.model import Ctx, Data

# Rich's 16 basic colour names: they follow the terminal palette in the ANSI theme
# and stay distinct when reduced to 256 colours. Every square also differs by its
# characters, so the board still reads under NO_COLOR.
SEAT_SHIP: tuple[str, ...] = ("X", "O")
SEAT_COLOUR: tuple[str, ...] = ("yellow", "green")
SEAT_STYLE: tuple[str, ...] = ("bold black on yellow", "bold black on bright_green")
SEAT_TEXT: tuple[str, ...] = ("bold yellow", "bold green")

FISH_LETTER: dict[str, str] = {"silver": "S", "blue": "B", "black": "K", "red": "R"}
FISH_STYLE: dict[str, str] = {
    "silver": "bold black on white",
    "blue": "bold bright_white on blue",
    "black": "bold bright_white on black",
    "red": "bold bright_white on red",
}

SHORE_STYLE = "yellow"
CALM_STYLE = "bright_blue"
TILE_STYLE = "bold bright_white on cyan"
ROUGH_STYLE = "bold bright_white on bright_black"
ISLAND_STYLE = "bold bright_white on magenta"
START_STYLE = "dim"

SHAPE_SHORT: dict[str, str] = {"1sq": "1□", "2sq": "2□", "I3": "I3", "L3": "L3"}


def ctx_of(game: object) -> Ctx:
    """The engine's fixed geometry and content tables (``core.fisheries.model.Ctx``)."""
    ctx = getattr(game, "ctx", None)
    if ctx is None:
        ctx = getattr(getattr(game, "state_type", None), "CTX", None)
    if not isinstance(ctx, Ctx):
        raise TypeError(f"{game!r} is not a Fisheries game")
    return ctx


def letter(colour: str) -> str:
    return FISH_LETTER.get(colour, colour[:1].upper() or "?")


def fish_text(colour: str, text: str | None = None) -> Text:
    return Text(text if text is not None else letter(colour), style=FISH_STYLE.get(colour, "bold"))


def shape_name(ctx: Ctx, shape: str) -> str:
    return str(ctx.shape_names.get(shape, shape))


def shape_short(shape: str) -> str:
    return SHAPE_SHORT.get(shape, shape)


def card_vp(ctx: Ctx, card: str) -> int:
    return int(ctx.cards[card].vp)


def points(ctx: Ctx, d: Data, seat: int) -> tuple[int, int, int]:
    """(card values, helm icons on cards, island helms), exactly as the engine scores them."""
    from coldwater.core.fisheries.scoring import breakdown

    cards, helm, islands = breakdown(ctx, d, seat)
    return int(cards), int(helm), int(islands)


def rc(ctx: Ctx, cell: int) -> tuple[int, int]:
    return divmod(cell, ctx.cols)


def cell_at(ctx: Ctx, row: int, col: int) -> int:
    """The cell index at (row, col), or -1 outside the board."""
    if 0 <= row < ctx.rows and 0 <= col < ctx.cols:
        return row * ctx.cols + col
    return -1


def name(ctx: Ctx, cell: int) -> str:
    return str(ctx.names[cell])


def cell_of(ctx: Ctx, cell_name: str) -> int:
    return int(ctx.by_name.get(cell_name, -1))


def orientations(ctx: Ctx, shape: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(ctx.orientations[shape])


def shape_cells(ctx: Ctx, shape: str, orient: int, row: int, col: int) -> list[tuple[int, int]]:
    """The (row, col) squares of `shape` in orientation `orient` with its first square on (row, col).

    The first square is the top one (leftmost of the top row): the cursor is
    always on a square of the tile, whichever way it is turned.
    """
    offs = orientations(ctx, shape)[orient % len(orientations(ctx, shape))]
    r0, c0 = offs[0]
    return [(row + r - r0, col + c - c0) for r, c in offs]


def rotate_index(ctx: Ctx, shape: str, orient: int, *, flip: bool = False) -> int:
    """The orientation after a quarter turn clockwise (or a mirror flip), as an index."""
    offs = orientations(ctx, shape)[orient]
    if flip:
        pts = [(r, -c) for r, c in offs]
    else:
        pts = [(c, -r) for r, c in offs]
    mr = min(r for r, _ in pts)
    mc = min(c for _, c in pts)
    norm = tuple(sorted((r - mr, c - mc) for r, c in pts))
    allo = orientations(ctx, shape)
    return allo.index(norm) if norm in allo else orient


def placement_anchor(ctx: Ctx, shape: str, cells: tuple[int, ...]) -> tuple[int, int, int]:
    """(orientation index, row, col of the first square) that draws the placement `cells`."""
    pts = [rc(ctx, c) for c in cells]
    mr = min(r for r, _ in pts)
    mc = min(c for _, c in pts)
    norm = tuple(sorted((r - mr, c - mc) for r, c in pts))
    allo = orientations(ctx, shape)
    k = allo.index(norm) if norm in allo else 0
    r0, c0 = allo[k][0]
    return k, mr + r0, mc + c0


def stylesheet() -> str:
    """The absolute path of ``themes/fisheries.tcss`` (loaded by the table screen itself)."""
    from importlib import resources

    return str(resources.files("coldwater.themes").joinpath("fisheries.tcss"))
