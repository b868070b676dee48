"""The Coldwater Crown board, every player's board, and the viewer's secrets.

Drawn entirely from a view (``table.view(seat)``): other players' fish show their
species only, their tackle only as a count. The widget is one Static of Rich
text, rebuilt on every update; a Crown position is small, so this stays well
within a frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from coldwater.core.state import State
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.games.crown import info
from coldwater.tui.games.crown.info import bait, colour_word, zone_bait


def heading(text: str) -> Text:
    return Text(text, style="bold underline")


class CrownBoard(BoardView):
    """Board, player boards and secrets, top to bottom; the viewer's own board first."""

    def __init__(self, game: Any, *, id: str | None = None) -> None:
        super().__init__(game, id=id)
        self.tables = info.tables_of(game)

    def show(self, view: State[Any, Any], names: Sequence[str], viewer: int | None) -> None:
        d = view.data
        parts: list[RenderableType] = []
        labels = list(names) + ["Silent player"] * (len(d.parties) - len(names))
        if viewer is not None and 0 <= viewer < len(d.parties):
            parts += self.party(d, viewer, labels, viewer, current=view.current)
            parts += self.secrets(d, viewer)
        parts += self.board(d)
        for i in range(len(d.parties)):
            if i != viewer:
                parts += self.party(d, i, labels, viewer, current=view.current)
        self.shown = Group(*parts)
        self.update(self.shown)

    # ---- the shared board ------------------------------------------------------
    def board(self, d: Any) -> list[RenderableType]:
        t = self.tables
        out: list[RenderableType] = [heading("The board")]
        spaces = Text("Anglers ")
        for i, name in enumerate(info.SPACES):
            side = d.tokens[i] if i < len(d.tokens) else 0
            label = Text("Port", style="bold") if i == 0 else colour_word(info.SPACE_COLOUR[i])
            spaces.append_text(label)
            spaces.append(f"[{side}]" if side else "[ ]", style="bold reverse" if side else "dim")
            spaces.append(" ")
        out.append(spaces)
        head = Text(f"{'':7}", style="bold")
        for z in (3, 4, 5, 6):
            head.append(f"{'Zone ' + str(z):<11}", style="bold")
        head.append("Deck", style="bold")
        out.append(head)
        for loc in range(3):
            row = Text(f"{info.LOCATION_TITLES[loc]:<7}", style="bold")
            zones = d.zones[loc] if loc < len(d.zones) else []
            for zi in range(4):
                fish = zones[zi] if zi < len(zones) else None
                name = info.fish_name(t, fish.species) if fish is not None else "—"
                row.append(f"{name[:10]:<11}", style="" if fish is not None else "dim")
            size = len(d.decks[loc]) if loc < len(d.decks) else 0
            top = d.tops[loc] if loc < len(d.tops) else None
            row.append(f"{size:>2}")
            if top is not None:
                row.append(f" top {info.fish_name(t, top.species)}", style="italic")
            out.append(row)
        ma = Text("Master Angler ", style="")
        for card in d.ma_row:
            ma.append(info.ma_name(t, card), style="bold")
            ma.append(" ")
            for c in t.ma_spots[card]:
                ma.append_text(bait(c))
            ma.append("  ")
        ma.append(f"deck {len(d.ma_deck)}", style="dim")
        out.append(ma)
        misc = Text()
        if d.mw_top is not None:
            misc.append("Mystery Weight ", style="bold")
            misc.append(f"{d.mw_top} lb")
            misc.append(f" ({len(d.mw_stack)} below)  ", style="dim")
        else:
            misc.append("Mystery Weight —  ", style="dim")
        misc.append("Tag ", style="bold")
        if d.no_tags:
            misc.append("not used  ", style="dim")
        elif d.tag:
            misc.append(d.tag, style=f"bold {info.TAG_STYLES.get(d.tag, '')}")
            misc.append("  ")
        else:
            misc.append("—  ", style="dim")
        misc.append("Tackle ", style="bold")
        misc.append(f"{len(d.tackle_stack)}  ")
        misc.append("Bag ", style="bold")
        misc.append(f"{sum(d.bag) + (1 if d.white_in_bag else 0)}  ")
        misc.append("Discard ", style="bold")
        misc.append_text(zone_bait(list(d.discard[:6])) if sum(d.discard[:6]) else Text("—", style="dim"))
        out.append(misc)
        st = d.stacks
        tro = Text("Trophies ", style="bold")
        for kind in ("first_to_12", "small_species", "fastest_to_8", "shore", "lake", "river",
                     "three_same", "four_different"):
            stack = getattr(st, kind, [])
            tro.append(f"{info.TROPHY_SHORT[kind]}:", style="")
            tro.append(",".join(str(p) for p in stack) if stack else "—", style="bold" if stack else "dim")
            tro.append("  ")
        out.append(tro)
        out.append(Text(""))
        return out

    # ---- one player's board ------------------------------------------------------
    def party(self, d: Any, i: int, labels: Sequence[str], viewer: int | None, *, current: int | None) -> list[RenderableType]:
        t = self.tables
        p = d.parties[i]
        name = labels[i] if i < len(labels) else f"Seat {i + 1}"
        title = Text()
        title.append("▶ " if current == i else "  ", style="bold")
        title.append(name + (" (you)" if i == viewer and name.lower() != "you" else ""), style="bold underline")
        if not p.silent:
            title.append("  token ")
            title.append(f"[{p.token}]" if p.token else "on board", style="bold")
            title.append(f"  tackle {len(p.tackle)}")
        title.append(f"  fish {len(p.fish)}  MA caught {len(p.ma_done)}")
        out: list[RenderableType] = [title]
        if not p.silent:
            zones = Text("  Zones ")
            for zi, z in enumerate((3, 4, 5, 6)):
                zones.append(f"{z}:", style="bold")
                zones.append_text(zone_bait(p.zones[zi]))
                zones.append("  ")
            out.append(zones)
        if p.ma:
            ma = Text("  Attempting ")
            for prog in p.ma:
                ma.append(info.ma_name(t, prog.card), style="bold")
                ma.append(" ")
                filled = list(prog.filled)
                for c in t.ma_spots[prog.card]:
                    if c in filled:
                        filled.remove(c)
                        ma.append_text(bait(c, info.BAIT_LETTERS[c]))
                        ma.append("✓", style="green")
                    else:
                        ma.append(info.BAIT_LETTERS[c].lower(), style="dim")
                        ma.append("·", style="dim")
                ma.append("  ")
            out.append(ma)
        if p.ma_done:
            done: dict[str, int] = {}
            for card in p.ma_done:
                n = info.ma_name(t, card)
                done[n] = done.get(n, 0) + 1
            out.append(Text("  Caught MA " + ", ".join(f"{k} ×{v}" if v > 1 else k for k, v in done.items())))
        if p.fish:
            counts: dict[str, int] = {}
            for f in p.fish:
                n = info.fish_name(t, f.species)
                counts[n] = counts.get(n, 0) + 1
            fish = Text("  Fish ")
            fish.append(", ".join(f"{k} ×{v}" if v > 1 else k for k, v in sorted(counts.items())))
            shown = [f for f in p.fish if f.shown and f.card is not None and i != viewer]
            if shown:
                fish.append("  shown: " + ", ".join(f"{info.fish_name(t, f.species)} {t.weight[f.card]} lb"
                                                   for f in shown), style="italic")
            out.append(fish)
        if p.trophies:
            out.append(Text("  Trophies " + ", ".join(
                f"{info.TROPHY_SHORT.get(tr.kind, tr.kind)}{' ' + str(tr.weight) + ' lb' if tr.weight else ''} ({tr.points})"
                for tr in p.trophies)))
        if p.submitted:
            out.append(Text("  Submitted " + ", ".join(
                info.fish_name(t, f.species) + (f" {t.weight[f.card]} lb" if f.card is not None else "")
                for f in p.submitted)))
        out.append(Text(""))
        return out

    # ---- what only the viewer knows ---------------------------------------------
    def secrets(self, d: Any, viewer: int) -> list[RenderableType]:
        t = self.tables
        p = d.parties[viewer]
        out: list[RenderableType] = []
        kinds = [k.kind for k in p.tackle if k.kind]
        line = Text("  Your tackle ", style="bold")
        line.append(", ".join(k.capitalize() for k in kinds) if kinds else "none")
        out.append(line)
        mine = sorted((f for f in p.fish if f.card is not None), key=lambda f: (f.species, -t.weight[f.card]))
        if mine:
            out.append(Text("  Your fish (weight, tag, time)", style="bold"))
            row = Text("   ")
            for n, f in enumerate(mine):
                w, tag, when = info.fish_secret(t, f.card)
                row.append(f"{info.fish_name(t, f.species)} {w} lb ")
                row.append("●", style=info.TAG_STYLES.get(tag, ""))
                row.append(f"{tag} {when}")
                row.append(";  " if n < len(mine) - 1 else "")
            out.append(row)
        out.append(Text(""))
        return out
