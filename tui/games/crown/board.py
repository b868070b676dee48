"""The Coldwater Crown board drawn as Rich text, from a view (no Textual here).

The board is a list of named *parts* (the angler ring, the fishing grounds, the Master Angler row,
the trophies left, your board, one per opponent, the standings), each a few lines that never wrap:
a long row is broken between its items (widgets/rows.py). :func:`parts` builds them for a width;
the widget in ``screen.py`` decides which fit the room it has and where the rest go (the board
pane). Secrets: only what the view holds is drawn: others' fish by species, their tackle counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

import msgspec
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from coldwater.core.crown.content import Tables
from coldwater.core.crown.model import COLOURS, LOCATION_TITLES, SPACES, CrownData, MAProgress, Player
from coldwater.tui.widgets.rows import break_rows

from . import words
from .names import BAIT_LETTERS, STACKS_SHOWN, TROPHY_SHORT, clock, fish_name, ma_name, names_of

Palette = Mapping[str, str]
"""Game colour role (``bait.red``, ``tag.orange``) -> Rich style: ``themes.game_palette``
for the app's theme. Every bait is also drawn as its letter, so nothing depends on colour."""
BAIT_NAMES: tuple[str, ...] = (*COLOURS, "white")
FALLBACK: Palette = {f"bait.{c}": "bold" for c in BAIT_NAMES}
"""Without a theme (tests, plain text): letters in bold."""
SPACE_COLOUR: tuple[int, ...] = (-1, 2, 4, 0, 1, 5, 3)
LOCATION_BAIT: tuple[tuple[int, int], ...] = ((2, 4), (3, 5), (0, 1))
"""The two bait colours that fish each location (Shore, River, Lake)."""
WIDE = 120
"""From this many columns the board draws the ring as a ring and puts the players
beside the board (78 for the board, at least 40 for them)."""


class Part(msgspec.Struct):
    """A named piece of the board: `key` is stable (tests and the pane use it)."""

    key: str
    title: str
    lines: list[Text]


def bait(colour: int, text: str | None = None, pal: Palette = FALLBACK) -> Text:
    style = pal.get(f"bait.{BAIT_NAMES[colour]}", "bold")
    return Text(text if text is not None else BAIT_LETTERS[colour], style=style)


def zone_bait(counts: Sequence[int], pal: Palette = FALLBACK) -> Text:
    """One Zone's bait as coloured letters (``RRB``), or a dash when empty."""
    out = Text()
    for colour, n in enumerate(counts[:6]):
        if n:
            out.append_text(bait(colour, BAIT_LETTERS[colour] * n, pal))
    if not out.plain:
        out.append("—", style="dim")
    return out


# ---- the shared board ------------------------------------------------------------------


def space_label(d: CrownData, i: int, names: bool = True, pal: Palette = FALLBACK) -> Text:
    out = Text()
    if i == 0:
        out.append("⚓Port", style="bold")
    else:
        out.append_text(bait(SPACE_COLOUR[i], SPACES[i].capitalize() if names else BAIT_LETTERS[SPACE_COLOUR[i]], pal))
    side = d.tokens[i] if i < len(d.tokens) else 0
    mark = "*" if i == d.placed and d.step in (2, 3) else ""
    out.append(f"[{side}{mark}]" if side else "[ ]", style="bold reverse" if side else "dim")
    return out


def ring_line(d: CrownData, names: bool = True, pal: Palette = FALLBACK) -> Text:
    """The seven Angler spaces clockwise on one line; the arrow back says it is a ring."""
    out = Text()
    for i in range(7):
        out.append_text(space_label(d, i, names, pal))
        out.append(" › " if i < 6 else " ↺", style="dim")
    return out


def ring_drawing(d: CrownData, pal: Palette = FALLBACK) -> list[Text]:
    """The seven spaces drawn as a ring, clockwise from the Port at the top."""

    def cell(i: int, width: int, right: bool = False) -> Text:
        t = space_label(d, i, True, pal)
        pad = max(0, width - t.cell_len)
        return Text(" " * pad) + t if right else t + Text(" " * pad)

    rows = [
        Text("Anglers", style="bold") + Text(" " * 4) + cell(0, 12),
        cell(6, 11, True) + Text(" " * 12) + cell(1, 11),
        cell(5, 11, True) + Text("  clockwise ", style="dim") + cell(2, 11),
        Text("   ") + cell(4, 9, True) + Text("      ") + cell(3, 10),
    ]
    return rows


def grid(d: CrownData, T: Tables, wide: bool, pal: Palette = FALLBACK, width: int = 78) -> list[Text]:
    """Shore, River and Lake: the fish in Zones 3-6 and the deck. Narrow: the Zone
    numbers go in the row (one line less); wide: a heading row."""
    out = []
    col = 11 if width >= 72 else 10
    if wide:
        head = Text(f"{'':10}", style="bold")
        for z in (3, 4, 5, 6):
            head.append(f"{'Zone ' + str(z):<{col}}", style="bold")
        head.append("Deck", style="bold")
        out.append(head)
    for loc in range(3):
        row = Text(f"{LOCATION_TITLES[loc]:<6}", style="bold")
        a, b = LOCATION_BAIT[loc]
        row.append_text(bait(a, None, pal))
        row.append_text(bait(b, None, pal))
        row.append("  ")
        zones = d.zones[loc] if loc < len(d.zones) else []
        for zi in range(4):
            fish = zones[zi] if zi < len(zones) else None
            name = fish_name(T, fish.species) if fish is not None else "—"
            if not wide:
                row.append(f"{zi + 3}", style="dim")
                row.append(f" {name[:9]:<10}", style="" if fish is not None else "dim")
                continue
            row.append(f"{name[: col - 1]:<{col}}", style="" if fish is not None else "dim")
        size = len(d.decks[loc]) if loc < len(d.decks) else 0
        top = d.tops[loc] if loc < len(d.tops) else None
        left = size + (1 if top is not None else 0)
        row.append(f"{left:>2}" if wide else f"deck {left}")
        if top is not None:
            row.append(
                (" top " if width >= 72 else " ") + fish_name(T, top.species)
                if wide
                else f": {fish_name(T, top.species)}",
                style="italic",
            )
        out.append(row)
    return out


def ma_row(d: CrownData, T: Tables, pal: Palette = FALLBACK) -> Text:
    out = Text("Master Angler ", style="bold")
    for item in ma_items(d, T, pal):
        out.append_text(item)
        out.append("  ")
    out.append(f"deck {len(d.ma_deck)}", style="dim")  # as the fishing grounds say it: one row at 80 columns
    return out


def ma_items(d: CrownData, T: Tables, pal: Palette = FALLBACK) -> list[Text]:
    out = []
    for card in d.ma_row:
        item = Text(ma_name(T, card) + " ")
        for c in T.ma_spots[card]:
            item.append_text(bait(c, None, pal))
        out.append(item)
    return out


def ma_row_lines(d: CrownData, T: Tables, width: int, pal: Palette = FALLBACK) -> list[Text]:
    """The Master Angler row on one line where it fits, else over two."""
    one = ma_row(d, T, pal)
    if one.cell_len <= width:
        return [one]
    head = Text("Master Angler ", style="bold")
    head.append(f"({len(d.ma_deck)} in the deck) ", style="dim")
    return flow(head, ma_items(d, T, pal), width, sep="  ")


def extras(d: CrownData, wide: bool, pal: Palette = FALLBACK) -> list[Text]:
    out = Text("Mystery Weight ", style="bold")
    if d.mw_top is not None:
        out.append(f"{d.mw_top} lb")
        out.append(f" ({len(d.mw_stack)} more)", style="dim")
    else:
        out.append("none left" if not d.mw_stack else "—", style="dim")
    out.append(" · ")
    out.append("Tag ", style="bold")
    if d.no_tags:
        out.append("not scored", style="dim")
    elif d.tag:
        out.append("●" + d.tag, style=pal.get(f"tag.{d.tag}", "bold"))
    else:
        out.append("—", style="dim")
    out.append(" · Tackle ", style="bold")
    out.append(str(len(d.tackle_stack)))
    bag = Text(" · " if not wide else "")
    bag.append("Bag ", style="bold")
    bag.append(str(sum(d.bag) + (1 if d.white_in_bag else 0)))
    bag.append(" · Discard ", style="bold")
    bag.append(str(sum(d.discard[:6])))
    if wide and any(d.discard[:6]):
        bag.append(" ")
        bag.append_text(zone_bait(d.discard[:6], pal))
    if wide:
        return [out, bag]
    return [out + bag]


def stack_text(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values) if values else "—"


def trophies_left(d: CrownData, wide: bool) -> list[Text]:
    """Wide: every stack in full. Narrow: the trophy each stack would give next."""
    st = d.stacks
    if not wide:
        out = Text("Next:", style="bold")
        for kind in STACKS_SHOWN[:5]:
            values: list[int] = getattr(st, kind, [])
            out.append(f" {TROPHY_SHORT[kind]} " if kind == "first_to_12" else f" · {TROPHY_SHORT[kind]} ")
            out.append(str(values[0]) if values else "—", style="bold" if values else "dim")
        contests = st.shore or st.lake or st.river
        out.append(" · Contests ")
        out.append(str(contests[0]) if contests else "—", style="bold")
        return [out]
    lines = [Text("Trophies left ", style="bold"), Text("  Master Angler "), Text("  Contests ")]
    for n, kind in enumerate(STACKS_SHOWN):
        target = lines[0 if n < 3 else 1 if n < 5 else 2]
        values = getattr(st, kind, [])
        target.append(f"{TROPHY_SHORT[kind]} ", style="")
        target.append(stack_text(values), style="bold" if values else "dim")
        target.append("  ")
    return lines


# ---- players ---------------------------------------------------------------------------


def zones_text(p: Player, pal: Palette = FALLBACK) -> Text:
    out = Text()
    for zi, z in enumerate((3, 4, 5, 6)):
        out.append(f"{z}:", style="bold")
        out.append_text(zone_bait(p.zones[zi], pal))
        out.append(" ")
    return out


def ma_progress(T: Tables, prog: MAProgress, pal: Palette = FALLBACK) -> Text:
    """A card being attempted: its fish, filled spots in colour with ✓, open ones dim."""
    out = Text(ma_name(T, prog.card) + " ")
    filled = list(prog.filled)
    for c in T.ma_spots[prog.card]:
        if c in filled:
            filled.remove(c)
            out.append_text(bait(c, None, pal))
            out.append("✓", style="green")
        else:
            out.append(BAIT_LETTERS[c].lower(), style="dim")
            out.append("·", style="dim")
    return out


def caught_ma(T: Tables, p: Player) -> Text:
    counts: dict[str, int] = {}
    for card in p.ma_done:
        n = ma_name(T, card)
        counts[n] = counts.get(n, 0) + 1
    out = Text("caught ", style="bold")
    out.append(", ".join(f"{k}×{v}" if v > 1 else k for k, v in counts.items()))
    return out


def attempting(T: Tables, p: Player, pal: Palette = FALLBACK) -> Text:
    """Master Angler cards on one line: being attempted, then caught."""
    out = Text("MA ", style="bold")
    if not p.ma and not p.ma_done:
        out.append("no card", style="dim")
    for prog in p.ma:
        out.append_text(ma_progress(T, prog, pal))
        out.append("  ")
    if p.ma_done:
        out.append_text(caught_ma(T, p))
    return out


def attempting_lines(T: Tables, p: Player, width: int, pal: Palette = FALLBACK) -> list[Text]:
    """Master Angler cards over as many lines as `width` needs (the full form)."""
    items = [ma_progress(T, prog, pal) for prog in p.ma]
    lines = flow(Text("  MA ", style="bold"), items, width, sep="  ") if items else []
    if p.ma_done:
        lines += flow(Text("  ") + caught_ma(T, p), [], width)
    return lines


def fish_items(T: Tables, p: Player, secret: bool, pal: Palette = FALLBACK) -> list[Text]:
    """One short item per fish (the owner: weight and tag), or per species with a count (others)."""
    if secret:
        out = []
        for f in sorted(p.fish, key=lambda f: (f.species, -(T.weight[f.card] if f.card is not None else 0))):
            item = Text(fish_name(T, f.species))
            if f.card is not None:
                item.append(f" {T.weight[f.card]}")
                item.append("●", style=pal.get(f"tag.{T.tag[f.card]}", "bold"))
            out.append(item)
        return out
    counts: dict[str, int] = {}
    for f in p.fish:
        n = fish_name(T, f.species)
        counts[n] = counts.get(n, 0) + 1
    items = [Text(f"{k}×{v}" if v > 1 else k) for k, v in sorted(counts.items())]
    shown = [f for f in p.fish if f.shown and f.card is not None]
    if shown:
        items.append(
            Text(
                "shown "
                + ", ".join(f"{fish_name(T, f.species)} {T.weight[f.card]} lb" for f in shown if f.card is not None),
                style="italic",
            )
        )
    return items


def fish_summary(T: Tables, p: Player, secret: bool, pal: Palette = FALLBACK) -> Text:
    out = Text(f"Fish {len(p.fish)} ", style="bold")
    if not p.fish:
        out.append("none yet", style="dim")
        return out
    out.append_text(Text(", ").join(fish_items(T, p, secret, pal)))
    return out


def flow(head: Text, items: Sequence[Text], width: int, indent: int = 4, sep: str = ", ") -> list[Text]:
    """`head` then `items` separated by `sep`, continued on indented lines: a list spread
    over several rows on purpose, never a row the terminal wraps."""
    lines = [head.copy()]
    for n, item in enumerate(items):
        piece = item + Text(sep if n < len(items) - 1 else "")
        if lines[-1].cell_len + piece.cell_len > width and lines[-1].cell_len > indent:
            lines.append(Text(" " * indent))
        lines[-1].append_text(piece)
    return lines


def fish_detail(T: Tables, p: Player, pal: Palette = FALLBACK) -> list[Text]:
    """The owner's fish one per line: weight, tag colour, timestamp (for the pane)."""
    out = []
    for f in sorted(p.fish, key=lambda f: (f.species, -(T.weight[f.card] if f.card is not None else 0))):
        line = Text(f"    {fish_name(T, f.species):<10}")
        if f.card is not None:
            line.append(f"{T.weight[f.card]:>3} lb  ")
            tag = T.tag[f.card]
            line.append(f"●{tag:<7}", style=pal.get(f"tag.{tag}", "bold"))
            line.append(clock(T.time[f.card]))
        out.append(line)
    return out


def party_name(d: CrownData, i: int, labels: Sequence[str], viewer: int | None, current: int | None) -> Text:
    out = Text()
    turn = current == i or (current is not None and current < 0 and d.turn == i)
    out.append("▶ " if turn else "  ", style="bold")
    out.append(labels[i] + (" (you)" if i == viewer else ""), style="bold underline")
    return out


def token_and_tackle(p: Player, mine: bool) -> Text:
    out = Text(" token ")
    out.append(f"[{p.token}]" if p.token else "on the board", style="bold")
    out.append(" ")
    if mine:
        kinds = [t.kind.capitalize() + ("*" if t.fresh else "") for t in p.tackle if t.kind]
        out.append(", ".join(kinds) if kinds else "no tackle")
    else:
        out.append(f"tackle {len(p.tackle)}")
    return out


def party_head(
    d: CrownData, i: int, labels: Sequence[str], viewer: int | None, current: int | None, pal: Palette = FALLBACK
) -> Text:
    """Everything about a player on one line (the compact form)."""
    p = d.parties[i]
    out = party_name(d, i, labels, viewer, current)
    if not p.silent:
        out.append_text(token_and_tackle(p, i == viewer))
        out.append(" ")
        out.append_text(zones_text(p, pal))
    if i != viewer and p.ma_done:
        out.append(f" · MA caught {len(p.ma_done)}")
    if p.trophies:
        out.append(" · won " + words.trophy_list(p))
    return out


def submitted_line(T: Tables, p: Player) -> Text:
    weights = [f" {T.weight[f.card]} lb" if f.card is not None else "" for f in p.submitted]
    return Text("  Submitted " + ", ".join(fish_name(T, f.species) + w for f, w in zip(p.submitted, weights)))


def player_board(
    d: CrownData,
    T: Tables,
    labels: Sequence[str],
    i: int,
    viewer: int | None,
    current: int | None,
    width: int,
    full: bool,
    pal: Palette = FALLBACK,
    with_fish: bool = True,
) -> list[Text]:
    """A player's board. Compact: one line (two for your own). Full: a line per part of it."""
    p = d.parties[i]
    mine = i == viewer
    if not full:
        head = party_head(d, i, labels, viewer, current, pal)
        second = Text("  ") + attempting(T, p, pal) + Text(" │ ", style="dim") if mine else Text(" · ")
        fish = fish_summary(T, p, mine, pal)
        if mine:
            return [head, second + fish]
        if p.ma:  # which cards they work on, on their one row at 80 columns too (issue 45)
            fish = Text(f"Fish {len(p.fish)}", style="bold") if p.fish else fish  # (the list: F2)
            names = [ma_name(T, m.card) for m in p.ma]
            for k in range(len(names), -1, -1):  # as many names as the row has room for, "+N" the rest
                shown = ", ".join(names[:k]) + (f" +{len(names) - k}" if k < len(names) else "")
                ma = f"MA {shown if k else len(names)} · "
                if (head + second + Text(ma) + fish).cell_len <= width or k == 0:
                    break
            second.append(ma, style="bold")
        return [head + second + fish]
    head = party_name(d, i, labels, viewer, current)
    if not p.silent:
        head.append_text(token_and_tackle(p, mine))
    lines = [head]
    if not p.silent:
        lines.append(Text("  Zones ") + zones_text(p, pal))
    if p.trophies:
        lines.append(Text("  Won " + words.trophy_list(p)))
    lines += attempting_lines(T, p, width, pal)
    if with_fish:
        fish_head = Text(f"  Fish {len(p.fish)} ", style="bold")
        if not p.fish:
            fish_head.append("none yet", style="dim")
        lines += flow(fish_head, fish_items(T, p, mine, pal), width)
    if p.submitted:
        lines.append(submitted_line(T, p))
    return lines


# ---- assembling ------------------------------------------------------------------------


BOARD_KEYS = ("ring", "grounds", "masters", "extras", "trophies", "standings")
"""Parts of the shared board (the rest are players' boards)."""


def parts(
    d: CrownData,
    T: Tables,
    names: Sequence[str],
    viewer: int | None,
    current: int | None,
    width: int,
    wide: bool | None = None,
    pal: Palette = FALLBACK,
) -> list[Part]:
    """The board's parts for `width` columns, your board first, then the shared board,
    the other players and the standings.

    Compact (narrow): a one-line ring and a line per opponent. Wide: the ring
    drawn as a ring, full stacks of trophies, every player's whole board.
    """
    labels = names_of(names, len(d.parties))
    if wide is None:
        wide = width >= WIDE
    out: list[Part] = []
    if viewer is not None and 0 <= viewer < len(d.parties):
        out.append(Part("you", "Your board", player_board(d, T, labels, viewer, viewer, current, width, wide, pal)))
    out.append(Part("ring", "Angler spaces", ring_drawing(d, pal) if wide else [ring_line(d, width >= 72, pal)]))
    out.append(Part("grounds", "Fishing grounds", grid(d, T, wide or width < 72, pal, width)))
    out.append(Part("masters", "Master Angler", ma_row_lines(d, T, width, pal) if wide else [ma_row(d, T, pal)]))
    if not wide:
        # At 80×24 the board shows about twelve rows: the trophies each stack gives next
        # (what a move is played for) come with the shared board, before the opponents,
        # and the counts (bag, discard, tackle) last.
        out.append(Part("trophies", "Trophies left", trophies_left(d, wide)))
    for i in range(len(d.parties)):
        if i != viewer:
            out.append(Part(f"party{i}", labels[i], player_board(d, T, labels, i, viewer, current, width, wide, pal)))
    out.append(Part("extras", "Mystery Weight, Tag", extras(d, wide, pal)))
    if wide:
        out.append(Part("trophies", "Trophies left", trophies_left(d, wide)))
    for part in out:
        part.lines = break_rows(part.lines, width)  # a long row goes on, it is never cut
    return out


def render(
    d: CrownData,
    T: Tables,
    names: Sequence[str],
    viewer: int | None,
    current: int | None,
    width: int,
    full: bool = False,
    pal: Palette = FALLBACK,
    detail: bool | None = None,
) -> tuple[RenderableType, list[Part], int]:
    """The whole table for `width` columns, its parts in reading order, and its height in rows.

    Below :data:`WIDE` the parts are stacked: your board, the shared board, a
    line per opponent, the standings. From there the shared board stands on the
    left and the players' boards on the right; from 170 columns the opponents'
    boards stand side by side under yours. `full` (the board pane, or a tall
    terminal) draws every player's whole board even when narrow, and with
    `detail` (default: as `full`) your fish one per line.
    """
    if width < WIDE:
        ps = parts(d, T, names, viewer, current, width, full, pal)
        if (
            (full if detail is None else detail)
            and viewer is not None
            and 0 <= viewer < len(d.parties)
            and d.parties[viewer].fish
        ):
            fish = Part(
                "fish",
                "Your fish",
                [Text(f"  Your fish ({len(d.parties[viewer].fish)}): weight, tag, time", style="bold")]
                + fish_detail(T, d.parties[viewer], pal),
            )
            labels = names_of(names, len(d.parties))
            ps[0].lines = break_rows(
                player_board(d, T, labels, viewer, viewer, current, width, True, pal, with_fish=False), width
            )
            ps.insert(1, fish)  # the fish one per line instead of the list
        lines: list[Text] = []
        for p in ps:
            lines += p.lines
            if full and (p.key in ("you", "fish", "masters") or p.key.startswith("party")):
                lines.append(Text(""))  # a blank row between players, and before the others
        return Group(*lines), ps, len(lines)
    left_w = 78
    right_w = width - left_w - 2
    # The players' column and the opponents' are often one width: their parts are made once.
    parts_at = cache(lambda w: parts(d, T, names, viewer, current, w, True, pal))
    left = [p for p in parts_at(left_w) if p.key in BOARD_KEYS]
    others = len(d.parties) - (1 if viewer is not None else 0)
    side_by_side = width >= 170 and others > 1
    col_w = (right_w - 2 * (others - 1)) // others if side_by_side else right_w
    mine = [p for p in parts_at(right_w) if p.key == "you"]
    if (full if detail is None else detail) and mine and viewer is not None and d.parties[viewer].fish:
        # Your fish one per line (weight, tag, time) where the room allows: what the board pane adds.
        labels = names_of(names, len(d.parties))
        mine[0].lines = break_rows(
            player_board(d, T, labels, viewer, viewer, current, right_w, True, pal, with_fish=False), right_w
        )
        count = len(d.parties[viewer].fish)
        mine.append(
            Part(
                "fish",
                "Your fish",
                [Text(f"  Your fish ({count}): weight, tag, time", style="bold")]
                + fish_detail(T, d.parties[viewer], pal),
            )
        )
    theirs = [p for p in parts_at(col_w) if p.key.startswith("party")]
    right: list[RenderableType] = []
    right_rows = 0
    for p in mine:
        right += p.lines + ([Text("")] if p.key == mine[-1].key else [])
    right_rows = len(right)
    if side_by_side:
        row = RichTable.grid(padding=(0, 2))
        for _ in theirs:
            row.add_column(width=col_w, no_wrap=True)
        row.add_row(*[Group(*p.lines) for p in theirs])
        right.append(row)
        right_rows += max((len(p.lines) for p in theirs), default=0)
    else:
        for p in theirs:
            right += p.lines + [Text("")]
        right_rows = len(right)
    stacked: list[RenderableType] = []
    for p in left:
        stacked += p.lines
        if p.key in ("ring", "grounds", "trophies"):
            stacked.append(Text(""))
    table = RichTable.grid(padding=(0, 2))
    table.add_column(width=left_w, no_wrap=True)
    table.add_column(width=right_w, no_wrap=True)
    table.add_row(Group(*stacked), Group(*right))
    return table, mine + left + theirs, max(len(stacked), right_rows)


def text_of(ps: Sequence[Part]) -> str:
    """The parts as plain text (tests and the replay viewer's text form)."""
    return "\n".join(line.plain for p in ps for line in p.lines)


__all__ = ["COLOURS", "Part", "bait", "parts", "text_of", "zone_bait"]
