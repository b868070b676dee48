"""Fisheries of Gloucester in words: choice labels, groups, prompts, card texts.

Pure (no Textual), so every sentence the table shows can be unit-tested from a
position. Cards are described by what they ask and what they do ("2 fish of
one colour → sail 2, 2 VP"); their ids (``P07``) never reach the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal, NamedTuple

from coldwater.core.clock import Clock
from coldwater.core.fisheries.actions import (
    BonusSail,
    BonusTile,
    Chart,
    EndDay,
    FAction,
    Fish,
    Keep,
    Lobster,
    Preserve,
    Put,
    Sail,
)
from coldwater.core.fisheries.model import Ctx, Data
from coldwater.core.fisheries.state import FisheriesState
from coldwater.core.state import Game
from coldwater.tui.games.fisheries import info
from coldwater.tui.games.words import Choice as ListChoice
from coldwater.tui.games.words import TableWords


class UiCmd(NamedTuple):
    """A first-step choice that opens the cursor: place a SHAPE, sail from a CELL, put a PIECE."""

    kind: str
    arg: str = ""


FChoice = UiCmd | Literal["back"]
"""The screen's own choices besides actions: open the cursor, or put it away (Esc)."""

Value = FAction | FChoice
"""Anything the decision list offers."""


class Choice(NamedTuple):
    """One entry of the decision list, before Textual sees it."""

    label: str
    value: Value
    group: str = ""


def tag_of(action: Value) -> str:
    if isinstance(action, UiCmd):
        return f"ui:{action.kind}"
    return str(action).split()[0]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---- cards ---------------------------------------------------------------------
def requirement(ctx: Ctx, card: str, *, short: bool = False) -> str:
    """What a card takes: ``1 red``, ``2 alike`` / ``2 fish of one colour``, ``3 mixed``."""
    spec = ctx.cards[card].requirement
    if spec.kind == "colour":
        return f"1 {spec.colour}"
    if short:
        return f"{spec.count} {'alike' if spec.kind == 'same' else 'mixed'}"
    return f"{spec.count} fish of {'one colour' if spec.kind == 'same' else 'different colours'}"


def card_action(ctx: Ctx, card: str, *, short: bool = False) -> str:
    act = ctx.cards[card].action
    if act.kind == "time":
        return f"+{act.amount}h" if short else f"+{plural(act.amount, 'hour')} today"
    if act.kind == "ship":
        return f"sail {act.amount}" if short else f"move a ship up to {act.amount}"
    if act.kind == "ship_tile":
        tile = act.tile or ""
        if short:
            return f"sail {act.amount}+{info.shape_short(tile)}"
        return f"move a ship up to {act.amount} and place a {info.shape_name(ctx, tile)} tile"
    if act.kind == "helm":
        return f"{act.amount} helm{'s' if act.amount != 1 else ''}" + ("" if short else " at game end")
    return act.kind


def card_short(ctx: Ctx, card: str) -> str:
    """``2 alike→sail 2 2VP`` (about 20 columns, for the stacks beside the grid)."""
    return f"{requirement(ctx, card, short=True)}→{card_action(ctx, card, short=True)} {info.card_vp(ctx, card)}VP"


def card_medium(ctx: Ctx, card: str) -> str:
    """``2 alike → sail up to 2; 2 VP`` (beside the big grid)."""
    act = ctx.cards[card].action
    what = {
        "time": f"+{plural(act.amount, 'hour')}",
        "ship": f"sail up to {act.amount}",
        "ship_tile": f"sail up to {act.amount} + {info.shape_name(ctx, act.tile or '')} tile",
        "helm": f"{plural(act.amount, 'helm')} at the end",
    }.get(act.kind, act.kind)
    return f"{requirement(ctx, card, short=True)} → {what}; {info.card_vp(ctx, card)} VP"


def card_long(ctx: Ctx, card: str) -> str:
    """``2 fish of one colour → move a ship up to 2; 2 VP``."""
    return f"{requirement(ctx, card)} → {card_action(ctx, card)}; {info.card_vp(ctx, card)} VP"


def card_bonus_steps(ctx: Ctx, card: str) -> int:
    """How many decisions preserving this card takes (the card, then its ship and tile icons)."""
    act = ctx.cards[card].action
    return {"ship": 2, "ship_tile": 3}.get(act.kind, 1)


# ---- squares, pieces, routes ----------------------------------------------------------
def piece_name(ctx: Ctx, piece: str) -> str:
    helms = ctx.helms
    if piece in helms:
        return f"Island with {plural(int(helms[piece]), 'helm')}"
    return {"rough": "Rough water", "fish": "Fish space"}.get(piece, piece)


def fish_next_to(ctx: Ctx, d: Data, cell: int, exclude: int = -1) -> list[str]:
    """Fish a ship on `cell` could catch: ``red e4`` (orthogonal neighbours only)."""
    return [f"{d.fish[n]} {info.name(ctx, n)}" for n in ctx.neighbours[cell] if d.fish[n] and n != exclude]


def route_words(ctx: Ctx, d: Data, cost: int, path: tuple[int, ...]) -> str:
    """``3 hours (b2 +2 passing a ship, c2 +1)``."""
    ships = {c for cs in d.ships for c in cs if c >= 0}
    steps = []
    for c in path:
        t = d.terrain[c]
        if c in ships:
            steps.append(f"{info.name(ctx, c)} +2 passing a ship")
        elif t == "^":
            steps.append(f"{info.name(ctx, c)} +2 rough")
        elif t in ctx.helms:
            steps.append(f"{info.name(ctx, c)} +1 island")
        else:
            steps.append(f"{info.name(ctx, c)} +1")
    amount = f"power {cost}" if d.phase == "bonus" else plural(cost, "hour")
    return f"{amount} ({', '.join(steps)})"


def destination_label(ctx: Ctx, d: Data, cell: int, cost: int, frm: int) -> str:
    """A sail destination in the list: ``d4 — 3h, fish: red e4, blue d5``."""
    unit = " power" if d.phase == "bonus" else "h"
    fish = fish_next_to(ctx, d, cell)
    return f"{info.name(ctx, cell)} — {cost}{unit}" + (f", fish: {', '.join(fish)}" if fish else "")


# ---- the decision list -------------------------------------------------------------
def step_note(ctx: Ctx, d: Data) -> str:
    """Where a multi-step action stands: "step 2 of 3" during a card's icons, the lobster's action."""
    if d.phase == "bonus":
        card = d.earned[d.turn][-1] if d.earned[d.turn] else ""
        total = card_bonus_steps(ctx, card) if card else 2
        step = total - (1 if d.bonus_tile is not None else 0) - (1 if d.bonus_move > 0 else 0) + 1
        return f"step {max(2, step)} of {total}"
    if d.double and d.phase in ("turn", "fishing"):
        return "action 2 of 2 (lobster)"
    return ""


def prompt(ctx: Ctx, d: Data) -> str:
    ph = d.phase
    if ph == "fishing":
        text = f"Catch another fish (1 hour, {d.time[d.turn]} left), or stop"
    elif ph == "lobster":
        text = "Discard your lobster to act again now?"
    elif ph == "bonus":
        card = d.earned[d.turn][-1] if d.earned[d.turn] else ""
        text = f"The card's icons: {card_action(ctx, card)}" if card else "Carry out the card's action"
    else:
        text = {"keep": "Which tile do you keep overnight?", "place": "Set up the B side: pick a piece"}.get(
            ph, "Your action"
        )
    return text


def standings(ctx: Ctx, d: Data) -> str:
    """Points so far, as the engine scores them: ``Seat 1 12 pt · Seat 2 9 pt``."""
    return " · ".join(f"Seat {seat + 1} {sum(info.points(ctx, d, seat))} pt" for seat in (0, 1))


def is_costly(d: Data, a: Value) -> bool:
    """Spends hours, fish, tiles or the lobster (never the highlighted default)."""
    tag = tag_of(a)
    if isinstance(a, Keep):
        return a.shape is None  # keeping no tile gives every tile back
    return tag in ("fish", "preserve", "lobster", "chart", "sail", "btile", "bsail")


def announcements(ctx: Ctx, before: Data, after: Data) -> list[str]:
    """★ lines for the log: the last day begins, a player ends the day, the game ends."""
    out: list[str] = []
    days = ctx.content.days
    if after.day != before.day and after.day == days:
        out.append(f"Day {days} begins: the last day")
    for seat in (0, 1):
        if after.ended[seat] and not before.ended[seat] and not after.ended[1 - seat]:
            other = f"Seat {2 - seat}"
            out.append(f"Seat {seat + 1} has ended the day; {other} plays on alone")
    if after.phase == "over" and before.phase != "over":
        pts = [sum(info.points(ctx, after, s)) for s in (0, 1)]
        out.append(f"The game is over: Seat 1 {pts[0]} pt, Seat 2 {pts[1]} pt")
    return out


def label(ctx: Ctx, d: Data, a: Value) -> str | None:
    """Words for the actions listed as they are (None: the engine's describe will do)."""
    tag = tag_of(a)
    if isinstance(a, EndDay):
        if a.go == "first":
            # Under the "End the day" heading; short enough for the choice column at 80x24
            # ("End the day; go first tomorrow (+6 hours)" was cut off there).
            return f"Go first tomorrow (+{ctx.content.time_first} hours)"
        if a.go == "second":
            return f"Go second tomorrow (+{ctx.content.time_second} hours)"
        return "End the day"
    if tag == "lobster":
        return "Discard the lobster: act again now"
    if tag == "pass":
        return "Keep your lobster" if d.phase == "lobster" else "Give up the extra action"
    if tag == "done":
        return "Stop fishing" if d.phase == "fishing" else "Skip the rest of the card's action"
    if isinstance(a, Keep):
        return "Keep no tile" if a.shape is None else f"Keep a {info.shape_name(ctx, a.shape)} tile"
    if isinstance(a, Fish):
        c = info.cell_of(ctx, a.cell)
        colour = d.fish[c] if c >= 0 else "?"
        return f"{colour.capitalize()} fish on {a.cell} (1 hour)"
    if isinstance(a, Preserve):
        return f"{card_long(ctx, a.card)} — pay {', '.join(a.fish)}"
    return None


def end_group(d: Data, a: Value) -> str:
    return {
        "end": "End the day",
        "lobster": "Double turn",
        "keep": "Overnight: keep one tile",
        "done": "Finish",
        "pass": "Double turn" if d.phase == "lobster" else "Finish",
    }.get(tag_of(a), "")


FINISHING = ("end", "done", "pass")
"""Tags that close a turn, an action or a question: never the highlighted default."""


def top_choices(ctx: Ctx, view: FisheriesState, legal: list[FAction]) -> list[Choice]:
    """The first-step list: tile shapes, ships, fish, cards, ending the day. Tiles,
    ships and B-side pieces open the cursor (a :class:`UiCmd`) instead of listing
    every placement."""
    d = view.data
    seat = view.current
    shapes: dict[str, int] = {}
    ships: dict[str, int] = {}
    bonus_ships: dict[str, int] = {}
    bonus_tiles = 0
    puts: dict[str, int] = {}
    singles: list[FAction] = []
    for a in legal:
        if isinstance(a, Chart):
            shapes[a.shape] = shapes.get(a.shape, 0) + 1
        elif isinstance(a, Sail):
            ships[a.frm] = ships.get(a.frm, 0) + 1
        elif isinstance(a, BonusSail):
            bonus_ships[a.frm] = bonus_ships.get(a.frm, 0) + 1
        elif isinstance(a, BonusTile):
            bonus_tiles += 1
        elif isinstance(a, Put):
            puts[a.piece] = puts.get(a.piece, 0) + 1
        else:
            singles.append(a)
    out: list[Choice] = []
    held = d.supply[seat] if seat is not None and 0 <= seat < 2 else []
    left = d.time[seat] if seat is not None and 0 <= seat < 2 else 0  # hours the seat has left
    for shape in ctx.shapes:
        if shape in shapes:
            n = held[ctx.shape_index[shape]] if held else 0
            out.append(
                Choice(
                    f"{info.shape_name(ctx, shape)} ×{n} — {plural(shapes[shape], 'spot')}",
                    UiCmd("place", shape),
                    "Chart a course (no hours)",
                )
            )
    for frm, n in ships.items():
        costs = view.sail_options(frm)
        cheapest = min((c for c, _ in costs.values()), default=0)
        out.append(
            Choice(
                f"Ship on {frm} — {plural(n, 'place')}, {cheapest}h+",
                UiCmd("sail", frm),
                f"Sail · {left} hours left",
            )
        )
    for frm, n in bonus_ships.items():
        out.append(
            Choice(
                f"Ship on {frm} — {plural(n, 'place')} (up to {d.bonus_move})",
                UiCmd("sail", frm),
                "The card's ship icon (no hours)",
            )
        )
    if bonus_tiles:
        out.append(
            Choice(
                f"{info.shape_name(ctx, d.bonus_tile or '')} tile from the supply — {plural(bonus_tiles, 'spot')}",
                UiCmd("place", d.bonus_tile or ""),
                "The card's tile icon",
            )
        )
    for piece, n in puts.items():
        out.append(
            Choice(
                f"{piece_name(ctx, piece)} — {plural(n, 'square')}",
                UiCmd("put", piece),
                f"Set up the B side · {plural(len(d.to_place), 'piece')} left",
            )
        )
    order = {"fish": 0, "preserve": 1, "keep": 2, "lobster": 3, "pass": 4, "end": 5, "done": 6}
    for a in sorted(singles, key=lambda a: order.get(tag_of(a), 9)):
        tag = tag_of(a)
        group = {"fish": f"Fish · 1 hour each, {left} left", "preserve": "Preserve (once a day)"}.get(tag) or end_group(
            d, a
        )
        out.append(Choice(label(ctx, d, a) or view.describe(a), a, group))
    return out


def default_index(d: Data, choices: list[Choice]) -> int | None:
    """The entry to highlight: never one that spends, discards or ends.

    The first entry that only opens the cursor (choosing where costs nothing yet),
    or keeping a tile overnight; else none. (The lobster question: the frame
    highlights "Keep your lobster", see FisheriesWords.done_is_default.)
    """
    for n, c in enumerate(choices):
        if isinstance(c.value, UiCmd):
            return n
    for n, c in enumerate(choices):
        if isinstance(c.value, Keep) and c.value.shape is not None:
            return n  # keeping a tile overnight spends nothing
    return None


def lobster_buys_something(view: FisheriesState) -> bool:
    """Whether discarding the lobster now would give an action worth having: some
    legal action besides giving it back (a tile, a sail, a fish or a card)."""
    from coldwater.core.fisheries.actions import Lobster

    trial = view.clone()
    trial.apply(Lobster())
    return any(tag_of(a) != "pass" for a in trial.legal())


def explain(ctx: Ctx, d: Data, value: Value | None) -> str:
    """One line under the grid about the highlighted choice (the list's labels are short)."""
    if value is None:
        return ""
    if isinstance(value, UiCmd):
        if value.kind == "place":
            return "Enter, then arrows; r turn, f flip, n next"
        if value.kind == "sail":
            return "Enter; then pick where (hours and fish show first)"
        if value.kind == "put":
            return f"{piece_name(ctx, value.arg)}: Enter, then pick its square"
        return ""
    if isinstance(value, Preserve):
        steps = card_bonus_steps(ctx, value.card)
        return f"Pay {', '.join(value.fish)}" + (
            f"; then its icons ({steps - 1} more steps)" if steps > 2 else "; then move a ship" if steps == 2 else ""
        )
    if isinstance(value, Fish):
        return "Catch it for 1 hour; then another, or stop"
    if isinstance(value, EndDay) and value.go:
        hours = ctx.content.time_first if value.go == "first" else ctx.content.time_second
        return f"Initiative card: {value.go} tomorrow (+{hours} hours)"
    if isinstance(value, Lobster):
        return "The lobster is gone for the game; you take a second action now"
    return ""


class FisheriesWords(TableWords[FisheriesState, FAction, FChoice]):
    """Fisheries of Gloucester's table in words: the functions above for one table. (The cursor's
    own list, prompt and preview, while it is out, are the screen's: see screen.py.)"""

    HINT_TERMS: ClassVar[dict[str, str]] = {
        "preservation cards": "preservation cards",
        "helm icons": "helm icons",
        "islands": "islands",
        "fish left (tie-break, not points)": "",  # a tie-break, never a reason
    }

    OPTION_HINTS: ClassVar[dict[str, str]] = {
        "board": "Which side of the board to play, A (the first game) or B",
        "market": "The market variant, where fish prices move with what is sold",
    }
    CONTENT_FILES: ClassVar[str] = "fisheries.json"
    NOTHING_WON: ClassVar[str] = "This game has no trophies or goals to win along the way."

    def __init__(self, game: Game[Any, Any], names: list[str]) -> None:
        super().__init__(game, names)
        self.ctx = info.ctx_of(game)

    def choice_items(
        self, view: FisheriesState, legal: list[FAction], label: Callable[[FisheriesState, Value], str]
    ) -> tuple[list[ListChoice[Value]], int | None]:
        # Keeping the lobster ends the turn, so it is the done action (e) like every pass;
        # discarding it spends it: neither is highlighted (see default_index).
        choices = top_choices(self.ctx, view, legal)
        return [ListChoice(c.label, c.value, group=c.group) for c in choices], default_index(view.data, choices)

    def label(self, view: FisheriesState, action: Value, viewer: int | None) -> str:
        return label(self.ctx, view.data, action) or super().label(view, action, viewer)

    def prompt(self, view: FisheriesState) -> str:
        return prompt(self.ctx, view.data)

    def step_note(self, view: FisheriesState) -> str:
        return step_note(self.ctx, view.data)

    def clock_text(self, view: FisheriesState, clock: Clock) -> str:
        # A day is Fisheries' round (the board's day line names it): say how many there are.
        if clock.setup:
            return "setting up"
        return f"round {clock.round} of {self.ctx.content.days} · turn {clock.turn}"

    def standings(self, view: FisheriesState, viewer: int | None) -> str:
        return standings(self.ctx, view.data)

    def is_costly(self, view: FisheriesState, action: Value) -> bool:
        return is_costly(view.data, action)

    def done_is_default(self, view: FisheriesState) -> bool:
        # "Keep your lobster" leaves the turn as it would have been: the harmless answer.
        return view.data.phase == "lobster"

    def not_always(self, view: FisheriesState, action: Value) -> str:
        if view.data.phase == "lobster" and tag_of(action) == "lobster":
            return "Discarding the lobster is a one-time choice: press its key. (! keeps it from now on.)"
        return ""

    def repeat_key(self, view: FisheriesState) -> str | None:
        return "lobster" if view.data.phase == "lobster" else None

    def preview(self, view: FisheriesState, action: Value) -> str:
        return explain(self.ctx, view.data, action)

    def announcements(self, before: FisheriesState, after: FisheriesState, seat: int, action: FAction) -> list[str]:
        return announcements(self.ctx, before.data, after.data)


WORDS = FisheriesWords
"""This game's words (tui.games.words_of)."""
