"""Words for people: why an action is illegal now, and what an action does (the log)."""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from coldwater.core.notation import Action
from coldwater.core.state import CHANCE

from . import chart_a_course, fish, preserve, sail, variant_setup
from .actions import (
    BonusSail,
    BonusTile,
    Chart,
    Done,
    EndDay,
    FAction,
    Fish,
    Flip,
    Keep,
    Lobster,
    Pass,
    Preserve,
    Put,
    Reveal,
    Sail,
    Start,
    Stock,
)
from .model import Ctx, Phase

if TYPE_CHECKING:
    from .state import FisheriesState

_PHASE_WORDS = {
    "place": "placing the B-side pieces",
    "keep": "choosing which ocean tile to keep overnight",
    "lobster": "deciding whether to discard the lobster for another action",
    "fishing": "fishing: take another fish or say done",
    "bonus": "carrying out a preservation card's action (bsail, btile or done)",
    "turn": "choosing an action",
}

_NOT_A_DECISION = "that is a random draw, not a player's decision"


def why_illegal(s: FisheriesState, a: FAction) -> str:
    ctx, d = s.CTX, s.data
    if not isinstance(a, Action):  # a direct call; apply() refuses such objects itself
        return f"{a!r} is not a Fisheries of Gloucester action"
    cur = s.current
    if cur is None:
        return "the game is over"
    if cur == CHANCE:
        if isinstance(a, (Start, Stock, Reveal, Flip)):
            return f"'{a}' is not a possible outcome of the pending draw"
        return "a random draw is pending; no player acts now"
    if isinstance(a, (Start, Stock, Reveal, Flip)):
        return _NOT_A_DECISION
    p = d.turn
    cells: list[str] = []
    for f in ("cell", "frm", "to"):
        if hasattr(a, f):
            cells.append(getattr(a, f))
    if isinstance(a, (Chart, BonusTile)):
        cells += list(a.cells)
    for c in cells:
        if c not in ctx.by_name:
            return f"{c!r} is not a space on the board (columns a-{ctx.names[ctx.cols - 1][0]}, rows 1-{ctx.rows})"
    ph = d.phase
    off = _off_phase(ph, a)
    if off is not None:
        return off
    match a:
        case Start() | Stock() | Reveal() | Flip():
            return _NOT_A_DECISION  # (refused above, before the phase is asked)
        case Put():
            if ph == "place":
                return variant_setup.why_not(ctx, d, a.piece, ctx.by_name[a.cell])
            return "pieces are placed only during the B-side setup"
        case Keep():
            if ph == "keep":
                return f"you hold no {a.shape} tile to keep"
            return "tiles are kept only overnight, after both players end the day"
        case Lobster():
            if d.lobster[p] <= 0:
                return "you have already used your lobster"
            return "the lobster is discarded right after one of your actions"
        case BonusSail():
            if ph != "bonus":
                return "that is part of a preservation card's action; none is pending"
            if d.bonus_move <= 0:
                return "this card's ship move is used up or not part of the card"
            return sail.why_not(ctx, d, p, ctx.by_name[a.frm], ctx.by_name[a.to], d.bonus_move, bonus=True)
        case BonusTile():
            if ph != "bonus":
                return "that is part of a preservation card's action; none is pending"
            if d.bonus_tile is None:
                return "this card's tile is placed already, not part of the card, or not in the general supply"
            cl = tuple(sorted(ctx.by_name[c] for c in a.cells))
            if len(set(cl)) != len(cl):
                return "a tile covers distinct squares"
            if tuple(ctx.names[c] for c in cl) != a.cells:
                return "list the tile's squares in board order: " + ",".join(ctx.names[c] for c in cl)
            return chart_a_course.why_not(ctx, d, d.bonus_tile, cl)
        case Done():
            return "'done' ends fishing or a card's action; neither is under way"
        case EndDay():
            if d.double:
                return "ending the day is not an action: it cannot be the lobster's extra action (pass instead)"
            if not any(d.ended) and a.go is None:
                return "you end the day first: say whether you go first or second tomorrow (end first / end second)"
            if any(d.ended) and a.go is not None:
                return "the other player already took the initiative card; just 'end'"
            return "you cannot end the day now"
        case Pass():
            return "pass gives up a lobster's extra action; you are not taking one (end the day instead)"
        case Chart():
            if a.shape not in ctx.shape_index:
                return f"there is no tile shape {a.shape!r} (shapes: {', '.join(ctx.shapes)})"
            if d.supply[p][ctx.shape_index[a.shape]] <= 0:
                return f"you have no {ctx.shape_names[a.shape]} tile in your supply"
            cl = tuple(sorted(ctx.by_name[c] for c in a.cells))
            if len(set(cl)) != len(cl):
                return "a tile covers distinct squares"
            if tuple(ctx.names[c] for c in cl) != a.cells:
                return "list the tile's squares in board order: " + ",".join(ctx.names[c] for c in cl)
            return chart_a_course.why_not(ctx, d, a.shape, cl)
        case Sail():
            return sail.why_not(ctx, d, p, ctx.by_name[a.frm], ctx.by_name[a.to], d.time[p])
        case Fish():
            return fish.why_not(ctx, d, p, ctx.by_name[a.cell])
        case Preserve():
            return preserve.why_not(ctx, d, p, a.card, a.fish)
        case _:
            assert_never(a)


def _off_phase(ph: Phase, a: FAction) -> str | None:
    """The refusal of an action that phase `ph` does not take at all; None when the
    action's own rules decide (each phase lists the actions it leaves to them)."""
    doing = _PHASE_WORDS.get(ph, ph)
    match ph:
        case "place":
            return None if isinstance(a, Put) else f"now is {doing}"
        case "keep":
            return None if isinstance(a, (Put, Keep)) else f"now is {doing}"
        case "lobster":
            return None if isinstance(a, (Put, Keep)) else f"now is {doing}: lobster or pass"
        case "fishing":
            return None if isinstance(a, (Put, Keep, Lobster, Fish)) else f"now is {doing}"
        case "bonus":
            return None if isinstance(a, (Put, Keep, Lobster, BonusSail, BonusTile)) else f"now is {doing}"
        case "turn":
            return None
        case "setup" | "stock" | "dawn" | "over":
            return None  # chance phases and the end: refused before any phase is asked
        case _:
            assert_never(ph)


def describe(s: FisheriesState, a: FAction) -> str:
    ctx, d = s.CTX, s.data
    who = f"Seat {d.turn + 1}"
    match a:
        case Start():
            return f"Seat {a.seat + 1} starts and takes the initiative card"
        case Stock():
            return f"A {a.colour} fish is placed on {a.cell}"
        case Reveal():
            if a.card in ctx.cards:
                vp = ctx.cards[a.card].vp
                return (
                    f"A preservation card is revealed: {_requirement(ctx, a.card)} → "
                    f"{_card_action(ctx, a.card)}, {vp} VP"
                )
            return "A preservation card is revealed"
        case Flip():
            tiles = " and ".join(ctx.shape_names[t] for t in ctx.charts.get(a.card, ()))
            return f"Day {d.day + 1}: the chart card gives both players {tiles}"
        case Put():
            return f"Seat {d.placer + 1} places {_piece(ctx, a.piece)} on {a.cell}"
        case Chart():
            return f"{who} charts a course: {ctx.shape_names.get(a.shape, a.shape)} tile on {','.join(a.cells)}"
        case Sail():
            opts = s.sail_options(a.frm)
            cost = opts.get(a.to, (0, ()))[0]
            return f"{who} sails {a.frm} to {a.to} ({cost} hour{'s' if cost != 1 else ''})"
        case BonusSail():
            return f"{who} moves the ship on {a.frm} to {a.to} with the card's ship icon"
        case BonusTile():
            return f"{who} places the card's tile on {','.join(a.cells)}"
        case Fish():
            colour = d.fish[ctx.by_name[a.cell]] if a.cell in ctx.by_name else "?"
            return f"{who} catches the {colour} fish on {a.cell} (1 hour)"
        case Preserve():
            card = ctx.cards.get(a.card)
            what = f" for a card worth {card.vp} VP ({_card_action(ctx, a.card)})" if card else ""
            return f"{who} preserves {', '.join(a.fish)}{what}"
        case Done():
            return f"{who} is done"
        case Lobster():
            return f"{who} discards the lobster to act again"
        case Pass():
            return f"{who} keeps the lobster" if d.phase == "lobster" else f"{who} gives up the lobster's extra action"
        case EndDay():
            if a.go:
                return f"{who} ends the day first, takes the initiative card and will go {a.go} tomorrow"
            return f"{who} ends the day"
        case Keep():
            shape = "no tile" if a.shape is None else "a " + ctx.shape_names.get(a.shape, a.shape)
            return f"{who} keeps {shape} overnight"
        case _:
            assert_never(a)


def _requirement(ctx: Ctx, card: str) -> str:
    spec = ctx.cards[card].requirement
    if spec.kind == "colour":
        return f"1 {spec.colour} fish"
    return f"{spec.count} fish of {'one colour' if spec.kind == 'same' else 'different colours'}"


def _card_action(ctx: Ctx, card: str) -> str:
    """What a preservation card does, in words (its id never reaches the screen)."""
    act = ctx.cards[card].action
    if act.kind == "time":
        return f"+{act.amount} hours"
    if act.kind == "ship":
        return f"moves a ship up to {act.amount}"
    if act.kind == "ship_tile":
        tile = act.tile or ""  # content validation gives every ship_tile card its tile
        return f"moves a ship up to {act.amount} and places a {ctx.shape_names.get(tile, tile)} tile"
    if act.kind == "helm":
        return f"{act.amount} helm{'s' if act.amount != 1 else ''} at game end"
    return str(act.kind)


def _piece(ctx: Ctx, piece: str) -> str:
    if piece in ctx.helms:
        return f"a {ctx.helms[piece]}-helm island"
    return "rough water" if piece == "rough" else "a fish space" if piece == "fish" else piece


def render(s: FisheriesState) -> str:
    """A plain-text picture of the board (for logs, tests and bug reports)."""
    ctx, d = s.CTX, s.data
    ships = {c: str(seat + 1) if seat == 0 else "Z" for seat, cs in enumerate(d.ships) for c in cs if c >= 0}
    lines = ["   " + " ".join(chr(ord("a") + c) for c in range(ctx.cols))]
    for r in range(ctx.rows):
        row = []
        for c in range(ctx.cols):
            i = r * ctx.cols + c
            if i in ships:
                ch = "X" if ships[i] == "1" else "O"
            elif d.fish[i]:
                ch = d.fish[i][0] if d.fish[i][0] != "b" else ("u" if d.fish[i] == "blue" else "k")
            elif d.cover[i]:
                ch = "="
            else:
                t = d.terrain[i]
                ch = "." if t == "F" else t
            row.append(ch)
        lines.append(f"{r + 1:>2} " + " ".join(row))
    lines.append(
        f"day {d.day} phase {d.phase} turn seat {d.turn + 1} time {d.time} fish {d.catch} "
        f"tiles {d.supply} cards {d.earned}"
    )
    return "\n".join(lines)
