"""The Fisheries of Gloucester table screen.

The generic table screen with the Fisheries board and choices written for
people. The engine lists every legal placement and every ship destination as a
separate action (hundreds on a busy turn), so the decision list offers them in
two steps:

1. *What*: a tile shape to chart, a ship to sail, a fish to catch, a card to
   preserve, ending the day, the lobster, the tile kept overnight.
2. *Where* (tiles, ships, B-side pieces): a cursor on the grid. Arrows move it,
   ``r`` turns the tile, ``f`` flips it, ``n`` / Tab jumps to the next legal spot,
   Enter commits, Esc goes back. Every square some legal placement covers (or
   every square the ship can reach, with its hours) is marked; the tile under
   the cursor shows green where it may go and red where it may not, and the
   reason is written under the grid. The legal spots are also listed with hotkeys.

Only actions from ``view.legal()`` are ever submitted, so an illegal placement
cannot be committed; everything drawn comes from ``table.view(seat)``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
from textual.widgets import OptionList

from coldwater.core.state import State
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList, Item
from coldwater.tui.games.fisheries import info
from coldwater.tui.games.fisheries.board import FisheriesBoard, Overlay

MODE_KEYS = "123456789abcdeghijklmoqstuvwxyz"
"""Hotkeys for the spots listed while the cursor is out (r, f, n and p steer the cursor)."""
NO_KEY = "\u00a0"
"""A key label no key press produces, for list entries beyond the hotkeys."""


class UiCmd(msgspec.Struct, frozen=True):
    """A first-step choice that opens the cursor: ``place SHAPE``, ``sail CELL``, ``put PIECE``..."""

    kind: str
    arg: str = ""


class Mode(msgspec.Struct):
    """The cursor is out: choosing where a tile goes, where a ship sails, or a B-side square."""

    kind: str
    """"place" (a tile) or "pick" (a square)."""
    ply: int
    title: str
    shape: str = ""
    frm: int = -1
    placements: dict[tuple[int, ...], Any] = msgspec.field(default_factory=dict)
    targets: dict[int, Any] = msgspec.field(default_factory=dict)
    costs: dict[int, int] = msgspec.field(default_factory=dict)
    paths: dict[int, tuple[int, ...]] = msgspec.field(default_factory=dict)
    order: list[Any] = msgspec.field(default_factory=list)
    """The legal spots in list order (placement tuples or cells)."""
    orient: int = 0
    cursor: tuple[int, int] = (0, 0)
    refused: bool = False
    """The last Enter was refused: the reason is shown in the error colour."""


def tag_of(action: Any) -> str:
    return str(action).split()[0]


class FisheriesTableScreen(TableScreen):
    BOARD: ClassVar[type[BoardView]] = FisheriesBoard
    CSS_PATH = info.stylesheet()
    HELP_KEYS = TableScreen.HELP_KEYS + (
        "\n| ← ↑ ↓ → | Move the cursor on the grid (placing a tile, sailing) |"
        "\n| r / f | Turn / flip the tile |"
        "\n| n / Tab, p | Next / previous legal spot |"
        "\n| Enter / Space | Place the tile, sail there |"
        "\n| Esc | Put the cursor away (back to the list of choices) |")
    HELP: ClassVar[str] = TableScreen.HELP + """
**Fisheries of Gloucester.** The grid: columns **a–n**, rows **1–8**.
**▒** shore, **·** calm water (where tiles go), **=** an ocean tile, **≈** rough
water, **▲n** an island with *n* helms, **S B K R** a silver, blue, black or red
fish, **1 2** starting spaces. Ships: **X** the first seat, **O** the second.
Beside the grid: the day and its chart card, who holds the initiative card, and
each player's hours (█ on the 12-hour track), fish, lobster, tiles in supply and
cards earned (with points so far). Under it: the preservation stacks (top card:
requirement → action, points; **2=** two of one colour, **3≠** three colours;
the number after is how many cards lie beneath).

**A turn.** Pick one choice from the list:

- *Chart a course*: pick a tile shape, then place it with the cursor. Squares
  marked **+** are covered by some legal placement. **r** turns, **f** flips,
  **n** jumps to the next legal spot; the tile shows green where it may go, red
  (with the reason under the grid) where it may not. **Enter** places it.
- *Sail*: pick a ship; each square it can reach is marked, and the cursor shows
  the path and the hours it costs (1 a tile or start, 2 rough water or passing a
  ship). **Enter** sails.
- *Fish*: pick a fish next to one of your ships (1 hour each); then another, or
  *stop fishing*.
- *Preserve* (once a day): the cards you can pay for, with the fish they take.
  A card's ship or tile action follows with the cursor.
- *End the day*: the first to end takes the initiative card and says whether
  they go first (6 hours) or second (7 hours) tomorrow.

After an action you may discard your lobster to act again at once. Overnight
you keep one tile. The final scores are broken down by cards, helms and islands.
"""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self.mode: Mode | None = None
        self._focus_cells: set[int] = set()
        self._focus_message = ""

    @property
    def ctx(self) -> Any:
        return info.ctx_of(self.table.game)

    @property
    def board(self) -> FisheriesBoard:
        return self.query_one("#board", FisheriesBoard)

    # ---- the decision list -------------------------------------------------------
    def choice_items(self, view: State[Any, Any], legal: list[Any]) -> tuple[list[Item], int | None]:
        if self.mode is not None:
            return self.mode_items(view)
        return self.top_items(view, legal), None

    def top_items(self, view: State[Any, Any], legal: list[Any]) -> list[Item]:
        ctx = self.ctx
        d = view.data
        seat = view.current
        shapes: dict[str, int] = {}
        ships: dict[str, list[Any]] = {}
        bonus_ships: dict[str, list[Any]] = {}
        bonus_tiles = 0
        puts: dict[str, int] = {}
        fish: list[Any] = []
        preserves: list[Any] = []
        ends: list[Any] = []
        other: list[Any] = []
        for a in legal:
            tag = tag_of(a)
            if tag == "chart":
                shapes[a.shape] = shapes.get(a.shape, 0) + 1
            elif tag == "sail":
                ships.setdefault(a.frm, []).append(a)
            elif tag == "bsail":
                bonus_ships.setdefault(a.frm, []).append(a)
            elif tag == "btile":
                bonus_tiles += 1
            elif tag == "put":
                puts[a.piece] = puts.get(a.piece, 0) + 1
            elif tag == "fish":
                fish.append(a)
            elif tag == "preserve":
                preserves.append(a)
            elif tag in ("end", "pass", "done", "lobster", "keep"):
                ends.append(a)
            else:
                other.append(a)
        items: list[Item] = []
        held = d.supply[seat] if seat is not None and 0 <= seat < 2 else []
        for shape in ctx.shapes:
            if shape in shapes:
                n = held[ctx.shape_index[shape]] if held else 0
                k = shapes[shape]
                items.append(Item(f"{info.shape_name(ctx, shape)} ×{n} — {k} spot{'s' if k != 1 else ''}",
                                  UiCmd("place", shape), group="Chart a course (no hours)"))
        for frm, acts in ships.items():
            costs = view.sail_options(frm)  # type: ignore[attr-defined]
            cheapest = min((c for c, _ in costs.values()), default=0)
            n = len(acts)
            items.append(Item(f"Ship on {frm} — {n} place{'s' if n != 1 else ''}, {cheapest}h+",
                              UiCmd("sail", frm), group=f"Sail · {d.time[seat]} hours left"))
        for frm, acts in bonus_ships.items():
            n = len(acts)
            items.append(Item(f"Ship on {frm} — {n} place{'s' if n != 1 else ''} (power {d.bonus_move})",
                              UiCmd("sail", frm),
                              group="The card's ship icon (no hours)"))
        if bonus_tiles:
            items.append(Item(f"{info.shape_name(ctx, d.bonus_tile or '')} tile from the supply — {bonus_tiles} spots",
                              UiCmd("place", d.bonus_tile or ""), group="The card's tile icon"))
        for piece, n in puts.items():
            items.append(Item(f"{self.piece_name(piece)} — {n} squares", UiCmd("put", piece),
                              group=f"Set up the B side · {len(d.to_place)} pieces left"))
        for a in fish:
            c = info.cell_of(ctx, a.cell)
            colour = d.fish[c] if c >= 0 else "?"
            items.append(Item(f"{colour.capitalize()} fish on {a.cell}", a,
                              group=f"Fish · 1 hour each, {d.time[seat]} left"))
        for a in preserves:
            items.append(Item(f"{info.card_line(ctx, a.card)} — pay {' '.join(a.fish)}", a,
                              group="Preserve (once a day)"))
        for a in ends + other:
            items.append(Item(self.label(view, a), a, group=self.end_group(view, a)))
        return items

    def end_group(self, view: State[Any, Any], a: Any) -> str:
        tag = tag_of(a)
        return {"end": "End the day", "lobster": "Double turn", "keep": "Overnight: keep one tile",
                "done": "Finish", "pass": "Double turn" if view.data.phase == "lobster" else "Finish"}.get(tag, "")

    def piece_name(self, piece: str) -> str:
        helms = self.ctx.helms
        if piece in helms:
            return f"Island with {helms[piece]} helm{'s' if helms[piece] != 1 else ''}"
        return {"rough": "Rough water", "fish": "Fish space"}.get(piece, piece)

    def label(self, view: State[Any, Any], a: Any) -> str:
        ctx = self.ctx
        tag = tag_of(a)
        d = view.data
        try:
            if tag == "end":
                if a.go == "first":
                    return f"End the day; go first tomorrow (+{ctx.content.time_first} hours)"
                if a.go == "second":
                    return f"End the day; go second tomorrow (+{ctx.content.time_second} hours)"
                return "End the day"
            if tag == "lobster":
                return "Discard the lobster: act again now"
            if tag == "pass":
                return "Keep your lobster" if d.phase == "lobster" else "Give up the extra action"
            if tag == "done":
                return "Stop fishing" if d.phase == "fishing" else "Skip the rest of the card's action"
            if tag == "keep":
                if a.shape is None:
                    return "Keep no tile"
                return f"Keep a {info.shape_name(ctx, a.shape)} tile"
        except (AttributeError, KeyError, TypeError, ValueError):
            pass
        return super().label(view, a)

    def prompt(self, view: State[Any, Any]) -> str:
        if self.mode is not None:
            return self.mode.title
        ph = view.data.phase
        return {"fishing": "Catch another fish, or stop", "lobster": "Act again with your lobster?",
                "bonus": "Carry out the card's action", "keep": "Which tile do you keep overnight?",
                "place": "Set up the B side: pick a piece"}.get(ph, "Your action")

    def status(self, view: State[Any, Any]) -> str:
        base = super().status(view)
        d = view.data
        if d.day and d.phase != "over":
            base += f" · day {d.day} of {self.ctx.content.days}"
        return base

    # ---- the board -----------------------------------------------------------------
    def update_board(self, view: State[Any, Any]) -> None:
        board = self.board
        board.overlay = self.overlay()
        board.show(view, [s.name for s in self.table.seats], self.viewer)

    def overlay(self) -> Overlay:
        m = self.mode
        if m is None:
            return Overlay(focus=set(self._focus_cells), message=self._focus_message)
        ctx = self.ctx
        if m.kind == "place":
            cells = info.shape_cells(ctx, m.shape, m.orient, *m.cursor)
            idx = tuple(sorted(info.cell_at(ctx, r, c) for r, c in cells))
            ok = idx in m.placements
            opts = {c for p in m.placements for c in p}
            return Overlay(cursor=m.cursor, ghost=cells, ghost_ok=ok, options=opts,
                           message=self.place_message(idx, cells, ok), bad=m.refused and not ok)
        cell = info.cell_at(ctx, *m.cursor)
        ok = cell in m.targets
        path = list(m.paths.get(cell, ())) if ok else []
        return Overlay(cursor=m.cursor, options=set(m.targets), path=path, costs=dict(m.costs),
                       focus={m.frm} if m.frm >= 0 else set(), message=self.pick_message(cell, ok),
                       bad=m.refused and not ok)

    def place_message(self, idx: tuple[int, ...], cells: list[tuple[int, int]], ok: bool) -> str:
        ctx = self.ctx
        m = self.mode
        assert m is not None
        shape = info.shape_name(ctx, m.shape)
        if ok:
            return f"✓ {shape} on {','.join(info.name(ctx, c) for c in idx)}: Enter places it"
        if -1 in idx:
            return "✗ The tile must fit inside the board (r turns it, n finds a legal spot)"
        action = self._action_for_cells(idx)
        why = ""
        try:
            why = self.current_view().why_illegal(action)
        except Exception:  # a reason is a courtesy; the refusal stands without one
            why = "that tile cannot go there"
        return f"✗ {why[:1].upper() + why[1:]}"

    def _action_for_cells(self, idx: tuple[int, ...]) -> Any:
        from coldwater.core.fisheries.actions import BonusTile, Chart

        m = self.mode
        assert m is not None
        names = tuple(info.name(self.ctx, c) for c in idx)
        if self.current_view().data.phase == "bonus":
            return BonusTile(names)
        return Chart(m.shape, names)

    def pick_message(self, cell: int, ok: bool) -> str:
        ctx = self.ctx
        m = self.mode
        assert m is not None
        view = self.current_view()
        if cell < 0:
            return ""
        where = info.name(ctx, cell)
        if m.frm >= 0:
            frm = info.name(ctx, m.frm)
            if cell == m.frm:
                return f"The ship on {frm}: move the cursor to a marked square (n: next)"
            if ok:
                return f"✓ {frm}→{where}: {self.route_words(view, m.costs[cell], m.paths[cell])}. Enter sails"
            action = m.targets.get(cell) or self._sail_action(view, frm, where)
            try:
                why = view.why_illegal(action)
            except Exception:  # a reason is a courtesy
                why = "the ship cannot sail there"
            return f"✗ {why[:1].upper() + why[1:]}"
        if ok:
            return f"✓ {self.piece_name(m.shape)} on {where}: Enter places it"
        from coldwater.core.fisheries.actions import Put

        try:
            why = view.why_illegal(Put(m.shape, where))
        except Exception:  # a reason is a courtesy
            why = "that square is not free"
        return f"✗ {why[:1].upper() + why[1:]}"

    def _sail_action(self, view: State[Any, Any], frm: str, to: str) -> Any:
        from coldwater.core.fisheries.actions import BonusSail, Sail

        return BonusSail(frm, to) if view.data.phase == "bonus" else Sail(frm, to)

    def route_words(self, view: State[Any, Any], cost: int, path: tuple[int, ...]) -> str:
        """``3 hours (b2 +2 passing a ship, c2 +1)``."""
        ctx = self.ctx
        d = view.data
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
        unit = "power" if d.phase == "bonus" else ("hour" if cost == 1 else "hours")
        amount = f"{unit} {cost}" if unit == "power" else f"{cost} {unit}"
        return f"{amount} ({', '.join(steps)})"

    # ---- modes -------------------------------------------------------------------------
    def choose(self, action: Any) -> None:
        if isinstance(action, UiCmd):
            if self.my_turn() and not self.busy:
                self.enter_mode(action)
            return
        if action == "back":
            self.leave_mode()
            return
        self.mode = None
        super().choose(action)

    def enter_mode(self, cmd: UiCmd) -> None:
        view = self.current_view()
        legal = view.legal()
        ctx = self.ctx
        ply = self.table.state.ply
        if cmd.kind == "place":
            charts = [a for a in legal if (tag_of(a) == "chart" and a.shape == cmd.arg) or tag_of(a) == "btile"]
            placements = {tuple(sorted(info.cell_of(ctx, c) for c in a.cells)): a for a in charts}
            if not placements:
                return
            spots = list(placements)
            k, r, c = info.placement_anchor(ctx, cmd.arg, spots[0])
            title = f"Place a {info.shape_name(ctx, cmd.arg)} tile"
            self.mode = Mode("place", ply, title, shape=cmd.arg, placements=placements, order=spots, orient=k,
                             cursor=(r, c))
        elif cmd.kind == "sail":
            tag = "bsail" if view.data.phase == "bonus" else "sail"
            acts = {info.cell_of(ctx, a.to): a for a in legal if tag_of(a) == tag and a.frm == cmd.arg}
            if not acts:
                return
            opts = view.sail_options(cmd.arg)  # type: ignore[attr-defined]
            costs = {info.cell_of(ctx, k): v[0] for k, v in opts.items() if info.cell_of(ctx, k) in acts}
            paths = {info.cell_of(ctx, k): tuple(info.cell_of(ctx, p) for p in v[1]) for k, v in opts.items()}
            for c in acts:
                costs.setdefault(c, 0)
                paths.setdefault(c, (c,))
            order = sorted(acts, key=lambda c: (costs[c], c))
            frm = info.cell_of(ctx, cmd.arg)
            self.mode = Mode("pick", ply, f"Sail the ship on {cmd.arg}: where to?", frm=frm, targets=acts,
                             costs=costs, paths=paths, order=order, cursor=info.rc(ctx, order[0]))
        elif cmd.kind == "put":
            acts = {info.cell_of(ctx, a.cell): a for a in legal if tag_of(a) == "put" and a.piece == cmd.arg}
            if not acts:
                return
            order = sorted(acts)
            self.mode = Mode("pick", ply, f"Place: {self.piece_name(cmd.arg)}", shape=cmd.arg, targets=acts,
                             order=order, cursor=info.rc(ctx, order[0]))
        else:
            return
        self.refresh_view()

    def leave_mode(self) -> None:
        if self.mode is None:
            return
        self.mode = None
        self.refresh_view()

    def mode_items(self, view: State[Any, Any]) -> tuple[list[Item], int | None]:
        m = self.mode
        assert m is not None
        ctx = self.ctx
        items: list[Item] = []
        keys = iter(MODE_KEYS)
        current = self._mode_index()
        if m.kind == "place":
            for p in m.order:
                items.append(Item(",".join(info.name(ctx, c) for c in p), m.placements[p],
                                  group=f"{len(m.order)} legal spots", key=next(keys, NO_KEY)))
        else:
            for c in m.order:
                label = info.name(ctx, c)
                if m.frm >= 0:
                    label += f" — {m.costs.get(c, 0)} {'power' if view.data.phase == 'bonus' else 'h'}"
                items.append(Item(label, m.targets[c], group=f"{len(m.order)} squares", key=next(keys, NO_KEY)))
        items.append(Item("Back (Esc)", "back", group="", key=next(keys, NO_KEY)))
        return items, current

    def _mode_index(self) -> int | None:
        m = self.mode
        if m is None:
            return None
        ctx = self.ctx
        if m.kind == "place":
            cells = info.shape_cells(ctx, m.shape, m.orient, *m.cursor)
            idx = tuple(sorted(info.cell_at(ctx, r, c) for r, c in cells))
            return m.order.index(idx) if idx in m.placements else None
        cell = info.cell_at(ctx, *m.cursor)
        return m.order.index(cell) if cell in m.targets else None

    def refresh_view(self) -> None:
        if self.mode is not None and (not self.my_turn() or self.table.state.ply != self.mode.ply):
            self.mode = None
        self._focus_cells, self._focus_message = set(), ""
        super().refresh_view()
        self._sync_focus()
        if self.mode is None and self.is_mounted:
            decision = self.query_one("#decision", ChoiceList)
            at = decision.highlighted
            if at is not None and 0 <= at < decision.option_count:
                oid = decision.get_option_at_index(at).id
                self._show_focus(decision._values.get(oid) if oid else None)  # noqa: SLF001

    def _sync_focus(self) -> None:
        try:
            board = self.board
            decision = self.query_one("#decision", ChoiceList)
        except Exception:  # not composed yet
            return
        self.refresh_bindings()
        if self.mode is not None:
            board.can_focus = True
            if self.focused is not board:
                board.focus()
        else:
            board.can_focus = False
            if self.focused is None or self.focused is board:
                decision.focus()

    def _redraw_mode(self) -> None:
        """The cursor moved: redraw the board (the list stays as it is)."""
        self.board.set_overlay(self.overlay())
        title = self.query_one("#decision-title")
        if self.mode is not None:
            title.update(self.mode.title)  # type: ignore[attr-defined]

    # ---- cursor keys (bound on the board while it has focus) --------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("fish_rotate", "fish_flip"):
            return self.mode is not None and self.mode.kind == "place"
        return super().check_action(action, parameters)

    def action_fish_move(self, dr: int, dc: int) -> None:
        m = self.mode
        if m is None:
            return
        ctx = self.ctx
        r = min(max(m.cursor[0] + dr, 0), ctx.rows - 1)
        c = min(max(m.cursor[1] + dc, 0), ctx.cols - 1)
        m.cursor = (r, c)
        m.refused = False
        self._redraw_mode()

    def action_fish_rotate(self) -> None:
        m = self.mode
        if m is None or m.kind != "place":
            return
        m.orient = info.rotate_index(self.ctx, m.shape, m.orient)
        m.refused = False
        self._redraw_mode()

    def action_fish_flip(self) -> None:
        m = self.mode
        if m is None or m.kind != "place":
            return
        m.orient = info.rotate_index(self.ctx, m.shape, m.orient, flip=True)
        m.refused = False
        self._redraw_mode()

    def action_fish_next(self, step: int) -> None:
        m = self.mode
        if m is None or not m.order:
            return
        at = self._mode_index()
        n = (at + step) % len(m.order) if at is not None else (0 if step > 0 else len(m.order) - 1)
        self._goto(n)

    def _goto(self, n: int) -> None:
        m = self.mode
        assert m is not None
        if m.kind == "place":
            m.orient, r, c = info.placement_anchor(self.ctx, m.shape, m.order[n])
            m.cursor = (r, c)
        else:
            m.cursor = info.rc(self.ctx, m.order[n])
        m.refused = False
        self._redraw_mode()

    def action_fish_commit(self) -> None:
        m = self.mode
        if m is None:
            return
        n = self._mode_index()
        if n is None:
            m.refused = True
            self._redraw_mode()
            self.app.bell()
            return
        action = m.placements[m.order[n]] if m.kind == "place" else m.targets[m.order[n]]
        self.choose(action)

    def action_fish_cancel(self) -> None:
        self.leave_mode()

    # ---- messages from the board and the list --------------------------------------
    def on_fisheries_board_key_pressed(self, event: FisheriesBoard.KeyPressed) -> None:
        event.stop()
        decision = self.query_one("#decision", ChoiceList)
        decision.choose_key(event.key)

    def on_fisheries_board_cell_clicked(self, event: FisheriesBoard.CellClicked) -> None:
        event.stop()
        if not self.my_turn() or self.busy:
            return
        ctx = self.ctx
        m = self.mode
        if m is not None:
            rc = info.rc(ctx, event.cell)
            if rc == m.cursor:
                self.action_fish_commit()
            else:
                m.cursor = rc
                m.refused = False
                self._redraw_mode()
            return
        # No cursor out: a click on a ship sails it, a click on a fish catches it.
        name = info.name(ctx, event.cell)
        for value in self.query_one("#decision", ChoiceList).values:
            if isinstance(value, UiCmd) and value.kind == "sail" and value.arg == name:
                self.choose(value)
                return
            if tag_of(value) == "fish" and getattr(value, "cell", None) == name:
                self.choose(value)
                return

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if getattr(event.option_list, "id", None) != "decision":
            return
        oid = event.option.id
        decision = self.query_one("#decision", ChoiceList)
        value = decision._values.get(oid) if oid else None  # noqa: SLF001 - the list's own mapping
        m = self.mode
        if m is not None:
            if value is None or value == "back":
                return
            if m.kind == "place":
                for n, p in enumerate(m.order):
                    if m.placements[p] == value:
                        if n != self._mode_index():
                            self._goto(n)
                        return
            else:
                for n, c in enumerate(m.order):
                    if m.targets[c] == value:
                        if n != self._mode_index():
                            self._goto(n)
                        return
            return
        self._show_focus(value)

    def _show_focus(self, value: Any) -> None:
        """Mark what the highlighted top-level choice is about, and say a word about it."""
        ctx = self.ctx
        cells: set[int] = set()
        if isinstance(value, UiCmd) and value.kind == "sail":
            cells = {info.cell_of(ctx, value.arg)}
        elif value is not None and tag_of(value) == "fish":
            cells = {info.cell_of(ctx, value.cell)}
        message = self.explain(value)
        if cells != self._focus_cells or message != self._focus_message:
            self._focus_cells = cells
            self._focus_message = message
            self.board.set_overlay(self.overlay())

    def explain(self, value: Any) -> str:
        """One line under the grid about the highlighted choice (the list's labels are short)."""
        ctx = self.ctx
        if value is None:
            return ""
        try:
            if isinstance(value, UiCmd):
                if value.kind == "place":
                    return "Enter, then arrows; r turn, f flip, n next"
                if value.kind == "sail":
                    return "Enter; then pick where (the hours show first)"
                if value.kind == "put":
                    return f"{self.piece_name(value.arg)}: Enter, then pick its square"
                return ""
            tag = tag_of(value)
            if tag == "preserve":
                return f"{info.card_long(ctx, value.card)}; pay {', '.join(value.fish)}"
            if tag == "fish":
                return f"Catch it for 1 hour; then another, or stop"
            if tag == "end" and value.go:
                hours = ctx.content.time_first if value.go == "first" else ctx.content.time_second
                return f"Initiative card: {value.go} tomorrow (+{hours} hours)"
        except (AttributeError, KeyError, TypeError, ValueError):
            pass
        return ""
