"""Basic setup (rulebook "Basic Setup"): the empty position and the chance steps.

Order of chance events: the preservation stacks' top cards (or the market row)
are revealed, a starting player is drawn (step 11), then one fish is drawn from
the bag for each fish space in cell order (step 3; on the B side after the
players have placed the pieces). Decks are never shuffled in the state: each
reveal is a draw, so no future order is stored.
"""

from __future__ import annotations

from .actions import Start, Stock
from .model import Ctx, Data, Stack


def new_data(ctx: Ctx, board: str, market: bool) -> Data:
    c = ctx.content
    per = c.ships_per_player
    stacks = [Stack(None, [card.id for card in s.cards]) for s in c.stacks]
    row: list[str | None] = []
    pile: list[str] = []
    if market:
        # Variant: all preservation cards form one pile; a row of 5 is flipped from it.
        stacks = []
        row = [None] * 5
        pile = list(ctx.card_order)
    return Data(
        board=board,
        market=market,
        terrain=ctx.terrain_of(board),
        fish=[""] * ctx.n,
        cover=[False] * ctx.n,
        placed=[],
        ships=[[-1] * per, [-1] * per],
        time=[0, 0],
        lobster=[c.lobsters_per_player] * 2,
        catch=[[0] * len(ctx.colours) for _ in range(2)],
        supply=[[0] * len(ctx.shapes) for _ in range(2)],
        general=[s.count for s in c.shapes],
        chart_deck=[k.id for k in c.chart_cards],
        chart_card=None,
        stacks=stacks,
        row=row,
        pile=pile,
        earned=[[], []],
        spent=[0] * len(ctx.colours),
        phase="setup",
    )


def take_tile(ctx: Ctx, d: Data, seat: int, shape: str) -> bool:
    """Move one tile of `shape` from the general supply to `seat`; False if none is left."""
    k = ctx.shape_index[shape]
    if d.general[k] <= 0:
        return False
    d.general[k] -= 1
    d.supply[seat][k] += 1
    return True


def start_outcomes(d: Data) -> list[tuple[Start, int]]:
    return [(Start(0), 1), (Start(1), 1)]


def apply_start(ctx: Ctx, d: Data, seat: int) -> None:
    """Steps 10-13: initiative, starting tiles, ships on the 1s (starter) and 2s."""
    c = ctx.content
    other = 1 - seat
    d.initiative = seat
    d.first = seat
    for p in (seat, other):
        for t in c.starting_tiles:
            take_tile(ctx, d, p, t)
    for t in c.second_player_extra:
        take_tile(ctx, d, other, t)
    ones = [i for i, ch in enumerate(d.terrain) if ch == "1"]
    twos = [i for i, ch in enumerate(d.terrain) if ch == "2"]
    d.ships[seat] = ones
    d.ships[other] = twos
    if d.board == "B":
        from .variant_setup import begin_placement

        begin_placement(ctx, d)
    else:
        d.phase = "stock"


def next_stock_cell(ctx: Ctx, d: Data) -> int:
    """The next fish space still without its fish, or -1."""
    cells, fish_on = ctx.fish_spaces(d.terrain)
    try:
        return cells[fish_on(d.fish).index("")]
    except ValueError:
        return -1


def bag(ctx: Ctx, d: Data) -> list[int]:
    """Fish per colour still in the bag during setup."""
    per = ctx.content.fish_per_colour
    return [per - d.fish.count(c) for c in ctx.colours]


def keyed_stock_outcomes(ctx: Ctx, d: Data) -> list[tuple[tuple[str, Stock], int]]:
    """Each colour still in the bag for the next fish space, weighted by how many:
    ((notation, Stock outcome), count), the outcomes shared from the Ctx."""
    row = ctx.stock_row(next_stock_cell(ctx, d))
    return [(row[k], n) for k, n in enumerate(bag(ctx, d)) if n > 0]


def stock_outcomes(ctx: Ctx, d: Data) -> list[tuple[Stock, int]]:
    return [(e[1], n) for e, n in keyed_stock_outcomes(ctx, d)]


def apply_stock(ctx: Ctx, d: Data, cell: int, colour: str) -> None:
    d.fish[cell] = colour
    if next_stock_cell(ctx, d) < 0:
        d.phase = "dawn"
