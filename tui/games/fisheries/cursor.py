"""The grid cursor: choosing where a tile goes, where a ship sails, a B-side square.

Pure (no Textual): a :class:`Mode` is opened from a position and a first-step
choice (:class:`~coldwater.tui.games.fisheries.words.UiCmd`), moved by plain
methods, and turned into an :class:`Overlay` the board widget draws. Only
actions from ``view.legal()`` are ever committed.
"""

from __future__ import annotations

from typing import Any

import msgspec

from coldwater.core.fisheries.actions import BonusSail, BonusTile, Chart, FAction, Fish, Put, Sail
from coldwater.core.fisheries.model import Ctx
from coldwater.core.fisheries.state import FisheriesState
from coldwater.tui.games.fisheries import info, words
from coldwater.tui.games.fisheries.words import Choice, UiCmd, Value


class Overlay(msgspec.Struct):
    """What the table screen draws over the position: cursor, previews, a message."""

    cursor: tuple[int, int] | None = None
    """(row, col) of the keyboard cursor, or None."""
    ghost: list[tuple[int, int]] = msgspec.field(default_factory=list)
    """Squares of the tile being placed (may fall outside the grid)."""
    ghost_ok: bool = True
    options: set[int] = msgspec.field(default_factory=set)
    """Cells worth marking: squares some legal placement covers, or legal destinations."""
    path: list[int] = msgspec.field(default_factory=list)
    costs: dict[int, int] = msgspec.field(default_factory=dict)
    """Hours to reach a destination, shown on large boards."""
    focus: set[int] = msgspec.field(default_factory=set)
    """Cells the highlighted choice is about (a fish, a ship)."""
    message: str = ""
    bad: bool = False
    """`message` is a refusal (drawn in the error colour)."""


class Mode(msgspec.Struct):
    """The cursor is out."""

    kind: str
    """"place" (a tile) or "pick" (a square)."""
    ply: int
    title: str
    shape: str = ""
    frm: int = -1
    placements: dict[tuple[int, ...], FAction] = msgspec.field(default_factory=dict)
    targets: dict[int, FAction] = msgspec.field(default_factory=dict)
    costs: dict[int, int] = msgspec.field(default_factory=dict)
    paths: dict[int, tuple[int, ...]] = msgspec.field(default_factory=dict)
    order: list[Any] = msgspec.field(default_factory=list)
    """The legal spots in list order: placement tuples ("place") or cells ("pick"),
    the keys of :attr:`placements` or :attr:`targets` (Any: which one depends on `kind`)."""
    orient: int = 0
    cursor: tuple[int, int] = (0, 0)
    refused: bool = False
    """The last Enter was refused: the reason is shown in the error colour."""

    # ---- where the cursor is ----------------------------------------------------
    def cells(self, ctx: Ctx) -> tuple[int, ...]:
        """The tile's cells under the cursor, sorted (-1 for squares off the board)."""
        return tuple(
            sorted(info.cell_at(ctx, r, c) for r, c in info.shape_cells(ctx, self.shape, self.orient, *self.cursor))
        )

    def index(self, ctx: Ctx) -> int | None:
        """The position in :attr:`order` of the spot under the cursor (None: not a legal spot)."""
        if self.kind == "place":
            idx = self.cells(ctx)
            return self.order.index(idx) if idx in self.placements else None
        cell = info.cell_at(ctx, *self.cursor)
        return self.order.index(cell) if cell in self.targets else None

    def action(self, ctx: Ctx) -> FAction | None:
        """The legal action under the cursor, or None."""
        n = self.index(ctx)
        if n is None:
            return None
        return self.placements[self.order[n]] if self.kind == "place" else self.targets[self.order[n]]

    # ---- moving it -----------------------------------------------------------------
    def move(self, ctx: Ctx, dr: int, dc: int) -> None:
        self.cursor = (min(max(self.cursor[0] + dr, 0), ctx.rows - 1), min(max(self.cursor[1] + dc, 0), ctx.cols - 1))
        self.refused = False

    def turn(self, ctx: Ctx, *, flip: bool = False) -> None:
        if self.kind == "place":
            self.orient = info.rotate_index(ctx, self.shape, self.orient, flip=flip)
            self.refused = False

    def goto(self, ctx: Ctx, n: int) -> None:
        if self.kind == "place":
            self.orient, r, c = info.placement_anchor(ctx, self.shape, self.order[n])
            self.cursor = (r, c)
        else:
            self.cursor = info.rc(ctx, self.order[n])
        self.refused = False

    def step(self, ctx: Ctx, by: int) -> None:
        """To the next (or previous) legal spot in list order."""
        if not self.order:
            return
        at = self.index(ctx)
        self.goto(ctx, (at + by) % len(self.order) if at is not None else (0 if by > 0 else len(self.order) - 1))

    def goto_action(self, ctx: Ctx, action: Value) -> None:
        """Put the cursor on the spot of `action` (a list entry was highlighted)."""
        spots = self.placements if self.kind == "place" else self.targets
        for n, spot in enumerate(self.order):
            if spots[spot] == action and n != self.index(ctx):
                self.goto(ctx, n)
                return


def open_mode(ctx: Ctx, view: FisheriesState, cmd: UiCmd, ply: int) -> Mode | None:
    """The cursor for a first-step choice, on the first legal spot (None: nothing legal)."""
    legal = view.legal()
    if cmd.kind == "place":
        charts = [a for a in legal if (isinstance(a, Chart) and a.shape == cmd.arg) or isinstance(a, BonusTile)]
        placements: dict[tuple[int, ...], FAction] = {
            tuple(sorted(info.cell_of(ctx, c) for c in a.cells)): a for a in charts
        }
        if not placements:
            return None
        spots = list(placements)
        k, r, c = info.placement_anchor(ctx, cmd.arg, spots[0])
        return Mode(
            "place",
            ply,
            f"Place a {info.shape_name(ctx, cmd.arg)} tile",
            shape=cmd.arg,
            placements=placements,
            order=spots,
            orient=k,
            cursor=(r, c),
        )
    if cmd.kind == "sail":
        kind = BonusSail if view.data.phase == "bonus" else Sail
        acts: dict[int, FAction] = {
            info.cell_of(ctx, a.to): a for a in legal if isinstance(a, kind) and a.frm == cmd.arg
        }
        if not acts:
            return None
        opts = view.sail_options(cmd.arg)
        costs = {info.cell_of(ctx, k): v[0] for k, v in opts.items() if info.cell_of(ctx, k) in acts}
        paths = {info.cell_of(ctx, k): tuple(info.cell_of(ctx, p) for p in v[1]) for k, v in opts.items()}
        for c in acts:
            costs.setdefault(c, 0)
            paths.setdefault(c, (c,))
        order = sorted(acts, key=lambda c: (costs[c], c))
        return Mode(
            "pick",
            ply,
            f"Sail the ship on {cmd.arg}: where to?",
            frm=info.cell_of(ctx, cmd.arg),
            targets=acts,
            costs=costs,
            paths=paths,
            order=order,
            cursor=info.rc(ctx, order[0]),
        )
    if cmd.kind == "put":
        acts = {info.cell_of(ctx, a.cell): a for a in legal if isinstance(a, Put) and a.piece == cmd.arg}
        if not acts:
            return None
        order = sorted(acts)
        return Mode(
            "pick",
            ply,
            f"Place: {words.piece_name(ctx, cmd.arg)}",
            shape=cmd.arg,
            targets=acts,
            order=order,
            cursor=info.rc(ctx, order[0]),
        )
    return None


def mode_choices(ctx: Ctx, view: FisheriesState, m: Mode) -> list[Choice]:
    """The legal spots as list entries (the cursor and the list move together)."""
    d = view.data
    if m.kind == "place":
        group = words.plural(len(m.order), "legal spot")
        return [Choice(",".join(info.name(ctx, c) for c in p), m.placements[p], group) for p in m.order]
    group = words.plural(len(m.order), "square")
    out = []
    for c in m.order:
        text = words.destination_label(ctx, d, c, m.costs.get(c, 0), m.frm) if m.frm >= 0 else info.name(ctx, c)
        out.append(Choice(text, m.targets[c], group))
    return out


def why(view: FisheriesState, action: FAction, fallback: str) -> str:
    """The engine's reason an action is refused, capitalised (a courtesy: never fails)."""
    try:
        text = str(view.why_illegal(action))
    except Exception:  # the refusal stands without a reason
        text = fallback
    return text[:1].upper() + text[1:]


def overlay(
    ctx: Ctx, view: FisheriesState, m: Mode | None, focus: set[int] | None = None, message: str = ""
) -> Overlay:
    """What the board draws: the cursor and its preview, or the highlighted choice's squares."""
    if m is None:
        return Overlay(focus=set(focus or ()), message=message)
    d = view.data
    if m.kind == "place":
        ghost = info.shape_cells(ctx, m.shape, m.orient, *m.cursor)
        idx = m.cells(ctx)
        ok = idx in m.placements
        opts = {c for p in m.placements for c in p}
        shape = info.shape_name(ctx, m.shape)
        if ok:
            text = f"✓ {shape} on {','.join(info.name(ctx, c) for c in idx)}: Enter places it"
        elif -1 in idx:
            text = "✗ The tile must fit inside the board (r turns it, n finds a legal spot)"
        else:
            from coldwater.core.fisheries.actions import BonusTile, Chart

            names = tuple(info.name(ctx, c) for c in idx)
            attempt = BonusTile(names) if d.phase == "bonus" else Chart(m.shape, names)
            text = "✗ " + why(view, attempt, "that tile cannot go there")
        return Overlay(cursor=m.cursor, ghost=ghost, ghost_ok=ok, options=opts, message=text, bad=m.refused and not ok)
    cell = info.cell_at(ctx, *m.cursor)
    ok = cell in m.targets
    path = list(m.paths.get(cell, ())) if ok else []
    return Overlay(
        cursor=m.cursor,
        options=set(m.targets),
        path=path,
        costs=dict(m.costs),
        focus={m.frm} if m.frm >= 0 else set(),
        message=pick_message(ctx, view, m, cell, ok),
        bad=m.refused and not ok,
    )


def pick_message(ctx: Ctx, view: FisheriesState, m: Mode, cell: int, ok: bool) -> str:
    if cell < 0:
        return ""
    d = view.data
    where = info.name(ctx, cell)
    if m.frm >= 0:
        frm = info.name(ctx, m.frm)
        if cell == m.frm:
            return f"The ship on {frm}: move the cursor to a marked square (n: next)"
        if ok:
            fish = words.fish_next_to(ctx, d, cell)
            reach = f"; fish there: {', '.join(fish)}" if fish else "; no fish next to it"
            return f"✓ {frm}→{where}: {words.route_words(ctx, d, m.costs[cell], m.paths[cell])}{reach}. Enter sails"
        from coldwater.core.fisheries.actions import BonusSail, Sail

        attempt = m.targets.get(cell) or (BonusSail(frm, where) if d.phase == "bonus" else Sail(frm, where))
        return "✗ " + why(view, attempt, "the ship cannot sail there")
    if ok:
        return f"✓ {words.piece_name(ctx, m.shape)} on {where}: Enter places it"
    from coldwater.core.fisheries.actions import Put

    return "✗ " + why(view, Put(m.shape, where), "that square is not free")


def focus_cells(ctx: Ctx, value: Value | None) -> set[int]:
    """The squares a highlighted first-step choice is about (a ship, a fish)."""
    if isinstance(value, UiCmd) and value.kind == "sail":
        return {info.cell_of(ctx, value.arg)}
    if isinstance(value, Fish):
        return {info.cell_of(ctx, value.cell)}
    return set()
