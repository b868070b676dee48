"""The Aquatica table for a narrow board (80×24): everything a turn is decided on,
one line per thing, most needed first.

The full sheet (:mod:`.draw`) gives each card a line of its own and fills some
forty rows, so at 80×24 a player saw their hand and little else and had to open
F4 to read the Ocean before every purchase. Here the same view is written in
short forms: the Character row with prices, both Location rows with cost, power,
PP and Depths, your board with each Location's visible Depth, the Goals or
Tribes, your PP by category, then the others. Rows are broken at " · " (never
cut), so a long row takes two lines and loses nothing. Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from coldwater.core.aquatica.content import Deck
from coldwater.core.aquatica.model import LOC_TYPES, RIVAL, AqData, Loc
from coldwater.core.aquatica.tribes_solo import LEVELS
from coldwater.tui.games.aquatica import cards
from coldwater.tui.games.aquatica.draw import PHASE_WORDS, frame_text

LABEL = 8
"""Width of the label column; a row that takes more lines is indented by it."""

TYPE_CODE: dict[str, str] = {"shark": "Sh", "ships": "Sp", "civ": "Ci", "volcano": "Vo", "frosty": "Fr"}
"""Two letters per Location type (in its colour): a full type name would leave room
for one Location a line instead of two."""


def grid(head: str, cells: Sequence[Text], width: int, empty: str = "empty") -> list[Text]:
    """``head`` in the label column, then the cells in as many equal columns as fit;
    a cell never wraps or is cut (one a line when none fits beside another)."""
    first = Text(f"{head:<{LABEL}}", style="bold")
    if not cells:
        return [first + Text(empty, style="dim")]
    col = max(c.cell_len for c in cells) + 2
    n = max(1, (width - LABEL + 2) // col)
    out: list[Text] = []
    for i in range(0, len(cells), n):
        line = first if not out else Text(" " * LABEL)
        for j, cell in enumerate(cells[i : i + n]):
            line = line + cell
            if j < n - 1 and i + j + 1 < len(cells):
                line.append(" " * (col - cell.cell_len))
        out.append(line)
    return out


def wrap(
    first: Text, pieces: Sequence[tuple[str, Text]], width: int, indent: int = LABEL, label: bool = False
) -> list[Text]:
    """`first`, then each piece after its own separator (none after a `label`
    column); a new line, indented by `indent`, where the next piece would not fit.
    A piece is never cut."""
    out: list[Text] = []
    line, fresh = first.copy(), label
    for sep, piece in pieces:
        if not fresh and line.cell_len + len(sep) + piece.cell_len > width:
            out.append(line)
            line, fresh = Text(" " * indent), True
        if not fresh:
            line.append(sep)
        line = line + piece
        fresh = False
    out.append(line)
    return out


def flow(head: str, items: Sequence[Text], width: int, empty: str = "none", sep: str = " · ") -> list[Text]:
    """``head`` in the label column, then the items one after another (see :func:`wrap`)."""
    first = Text(f"{head:<{LABEL}}", style="bold")
    if not items:
        return [first + Text(empty, style="dim")]
    return wrap(first, [(sep, item) for item in items], width, label=True)


def loc_cell(k: Deck, loc_id: int, on_top: bool) -> Text:
    """``Jaw Cove Sh 3¢/2p 2PP ✦`` for an Ocean row (power 1 less in the top row)."""
    t = Text(str(k.loc_name[loc_id]), style="bold")
    kind = cards.loc_type(k, loc_id)
    t.append(f" {TYPE_CODE[kind]}", style=cards.TYPE_STYLES[kind])
    t.append(f" {cards.loc_cost(k, loc_id, on_top)} {k.loc_pp[loc_id]}PP")
    if k.loc_manta[loc_id]:
        t.append(f" {cards.WILD_ICON}", style="bold cyan")
    return t


def board_loc(k: Deck, loc: Loc) -> Text:
    """``Jaw Cove ▸+1¢ 2 left`` (a Location on a player board, its visible Depth)."""
    depths = k.loc_depths[loc.id]
    t = Text(str(k.loc_name[loc.id]), style="bold")
    if loc.risen or loc.pos >= len(depths):
        t.append(" risen ✓", style="green")
        return t
    t.append(" ▸", style="bold")
    t.append(cards.eff_text(depths[loc.pos], short=True), style="dim" if loc.used else "bold")
    t.append(f" {len(depths) - loc.pos} left", style="italic")
    return t


def turn_lines(k: Deck, d: AqData, labels: list[str], me: int | None) -> list[Text]:
    """Where the turn stands; nothing before your own Main Action, where the title
    and the choices' prompt say it already."""
    if d.phase in ("over", "setup"):
        return []
    if d.phase == "kings":
        who = "your pick" if me is not None and d.draft_order[:1] == [me] else "the Kings are being chosen"
        return [Text(f"Choosing Kings: {who}", style="bold")]
    out: list[Text] = []
    if d.turn != me or d.phase != "pre" or d.trigger:
        whose = "Your turn" if d.turn == me else f"{labels[d.turn]}'s turn"
        head = Text(f"{whose} — {PHASE_WORDS.get(d.phase, d.phase)}", style="bold")
        if d.playing >= 0:
            head.append(f" · {cards.char_name(k, d.playing)}", style="italic")
        if d.trigger:
            left = f" ({d.final_left} turns left)" if d.final_left > 0 else ""
            head.append(f" · final round{left}", style="bold red")
        out.append(head)
    ft = frame_text(k, d)
    if ft is not None:
        out.append(ft)
    if d.phase == "main":
        out.append(Text("Gathered: ", style="bold") + pool(d))
    return out


def pool(d: AqData) -> Text:
    """``2 coins · 3 power (+1 Ships, +1 Civ)``: the power toward a type by its short name."""
    t = Text()
    t.append(f"{d.coins} coin{'s' if d.coins != 1 else ''}", style="bold yellow")
    t.append(" · ")
    t.append(f"{d.power} power", style="bold red")
    toward = [f"+{v} {cards.TYPE_SHORT[LOC_TYPES[i]]}" for i, v in enumerate(d.tpower) if v]
    if toward:
        t.append(f" ({', '.join(toward)})", style="red")
    return t


def ocean_lines(k: Deck, d: AqData, width: int) -> list[Text]:
    chars = []
    for i, c in enumerate(d.char_row):
        t = Text(f"{i}{cards.COIN} ", style="bold yellow")
        t.append(cards.char_name(k, c))
        chars.append(t)
    out = grid("Recruit", chars, width)
    out += grid("Top row", [loc_cell(k, x, True) for x in d.loc_top], width)
    out += grid("Bottom", [loc_cell(k, x, False) for x in d.loc_bottom], width)
    return out


def own_lines(
    k: Deck, d: AqData, me: int, width: int, scores: tuple[Sequence[str], Sequence[int]] | None, hand: bool
) -> list[Text]:
    p = d.ps[me]
    out = grid("Board", [board_loc(k, loc) for loc in p.board], width, "no Locations yet")
    mine: list[Text] = [cards.manta_text(k, m, i) for i, m in enumerate(p.mantas)]
    if scores is not None:
        cats, row = scores
        parts = [f"{cat} {v}" for cat, v in zip(cats, row) if v]
        mine.append(Text(f"{sum(row)} PP" + (f" = {' + '.join(parts)}" if parts else ""), style="bold"))
    out += flow("Mantas", mine, width, sep="  ")
    if hand:
        out += grid(f"Hand {len(p.hand)}", [Text(cards.char_name(k, c)) for c in sorted(p.hand)], width)
    return out


def goal_lines(k: Deck, d: AqData, labels: list[str], width: int) -> list[Text]:
    def who(s: int) -> str:
        return "Rival" if s == RIVAL else labels[s] if 0 <= s < len(labels) else f"Seat {s + 1}"

    if d.module == "goals":
        goals = []
        for pos, g in enumerate(d.goals):
            track = d.tracks[pos] if pos < len(d.tracks) else []
            nxt = k.spots[len(track)] if len(track) < len(k.spots) else 0
            t = Text(f"{cards.goal_name(k, g)} ")
            t.append(f"{nxt}PP", style="bold")
            if track:
                t.append(" ⚑" + ",".join(who(s) for s in track), style="magenta")
            goals.append(t)
        out = flow("Goals", goals, width)
        if d.players == 1:
            out.append(Text(f"{'':<{LABEL}}virtual rival: {d.rival_placed} of 4 Mantas placed", style="magenta"))
        return out
    tribes = []
    for i, tribe in enumerate(d.tribes):
        sp = cards.tribe_spec(k, tribe)
        line = Text(f"{sp.name} {sp.cost}{cards.COIN}")
        seats = d.tribe_mantas[i] if i < len(d.tribe_mantas) else []
        if seats:
            line.append(" ⚑" + ",".join(who(s) for s in seats), style="magenta")
        tribes.append(line)
    out = flow("Tribes", tribes, width)
    if d.solo_level:
        level = f"Tribes Solo level {d.solo_level}: {LEVELS.get(d.solo_level, '')}"
        out.append(Text(f"{'':<{LABEL}}{level} · recruited {len(d.ps[0].tribes)} of {len(d.tribes)}", style="magenta"))
    return out


def other_lines(k: Deck, d: AqData, s: int, labels: list[str], width: int) -> list[Text]:
    """One other player: what the table shows of them (never a hidden card)."""
    p = d.ps[s]
    first = Text(("▶ " if d.turn == s and d.phase != "over" else "") + labels[s], style="bold")
    first.append(":")
    pieces: list[tuple[str, Text]] = [(" ", Text(f"hand {len(p.hand)}"))]
    if p.king:
        pieces.append((" · ", Text(f"King {p.king}")))
    ready = sum(1 for m in p.mantas if m.ready and not m.placed)
    pieces.append((" · ", Text(f"Mantas {ready}/{len(p.mantas)} ready")))
    if p.discard:
        pieces.append((" · ", Text(f"discard top {cards.char_name(k, p.discard[-1])}")))
    if not p.board:
        pieces.append((" · ", Text("board empty")))
    for i, loc in enumerate(p.board):
        pieces.append((" · board " if i == 0 else ", ", Text(str(k.loc_name[loc.id]))))
    return wrap(first, pieces, width, indent=4)


def lines(
    k: Deck,
    d: AqData,
    labels: list[str],
    me: int | None,
    width: int,
    scores: tuple[Sequence[str], Sequence[Sequence[int]]] | None = None,
    hand: bool = True,
) -> list[Text]:
    """The compact table for viewer `me` (None: the public view), `width` columns.
    `scores` is the score sheet's categories and rows, for the viewer's PP by
    category; `hand` False leaves the hand out when the choices list it already.
    Rows longer than `width` are left for :func:`draw.fit` to break at " · "."""
    out = turn_lines(k, d, labels, me)
    out += ocean_lines(k, d, width)
    if me is not None:
        mine = (scores[0], scores[1][me]) if scores is not None and me < len(scores[1]) else None
        out += own_lines(k, d, me, width, mine, hand)
    out += goal_lines(k, d, labels, width)
    order = [(me + i) % d.players for i in range(1, d.players)] if me is not None else list(range(d.players))
    out += [line for s in order for line in other_lines(k, d, s, labels, width)]
    return out
