"""The Coldwater Crown table screen: the generic table with Crown's board and
choices written for people (grouped, named, with the relevant bait shown).

Choices are recognised by their notation tag (``place``, ``route``, ...), so the
screen needs nothing from the engine beyond its actions' public fields.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from coldwater.core.state import State
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import Item
from coldwater.tui.games.crown import info
from coldwater.tui.games.crown.board import CrownBoard

GROUP_ORDER: tuple[str, ...] = ("place", "remove", "fill", "take", "taketop", "skip", "route", "discard",
                                "catch", "zone6", "lose", "tackle", "reel", "lure", "submit", "silent", "white",
                                "end")


BAIT_DRAWN = re.compile(r"an? (\w+) bait is drawn from the bag")


def tag_of(action: Any) -> str:
    return str(action).split()[0]


class CrownTableScreen(TableScreen):
    BOARD: ClassVar[type[BoardView]] = CrownBoard
    HELP: ClassVar[str] = TableScreen.HELP + """
**Coldwater Crown.** Your own board and secrets (fish weights, tags, timestamps,
tackle) are at the top, then the shared board, then the other players. Bait shows
as letters: **B** blue, **R** red, **P** purple, **K** black, **G** green, **Y**
yellow. A turn: place your token (Step 1), remove another (Step 2), end the turn.
Each cast bait goes to a matching Master Angler spot or the discard pile. In the
contests your heaviest fish is pre-selected. The full rules: Esc, then *Rules*.
"""

    @property
    def tables(self) -> Any:
        return self.query_one("#board", CrownBoard).tables

    def summarize_chance(self, lines: list[str]) -> list[str]:
        """Runs of bait draws become one line: "bait drawn: red, blue, blue"."""
        out: list[str] = []
        run: list[str] = []
        for line in lines + [""]:
            m = BAIT_DRAWN.fullmatch(line)
            if m:
                run.append(m[1])
                continue
            if run:
                out.append(("bait drawn: " if len(run) > 1 else "a bait drawn: ") + ", ".join(run))
                run = []
            if line:
                out.append(line)
        return out

    # ---- the decision --------------------------------------------------------
    def choice_items(self, view: State[Any, Any], legal: list[Any]) -> tuple[list[Item], int | None]:
        order = {g: n for n, g in enumerate(GROUP_ORDER)}
        ranked = sorted(enumerate(legal), key=lambda ia: (order.get(tag_of(ia[1]), len(order)), ia[0]))
        items = [Item(self.label(view, a), a, group=self.group(view, a)) for _, a in ranked]
        return items, self.preferred(view, [a for _, a in ranked])

    def preferred(self, view: State[Any, Any], ordered: list[Any]) -> int | None:
        """In a contest, the heaviest fish on offer; elsewhere the first choice."""
        best: tuple[int, int] | None = None
        for n, a in enumerate(ordered):
            if tag_of(a) == "submit":
                w = self._submit_weight(view, a)
                if w is not None and (best is None or w > best[0]):
                    best = (w, n)
        return best[1] if best else None

    def _my_fish(self, view: State[Any, Any], species: str) -> list[int]:
        d = view.data
        seat = view.current
        if seat is None or seat < 0 or seat >= len(d.parties):
            return []
        t = self.tables
        cards = [f.card for f in d.parties[seat].fish if f.species == species and f.card is not None]
        return sorted(cards, key=lambda c: (-t.weight[c], t.time[c]))

    def _submit_weight(self, view: State[Any, Any], a: Any) -> int | None:
        cards = self._my_fish(view, a.species)
        if 1 <= a.rank <= len(cards):
            return int(self.tables.weight[cards[a.rank - 1]])
        return None

    def group(self, view: State[Any, Any], a: Any) -> str:
        d = view.data
        tag = tag_of(a)
        if tag == "place":
            return "Step 1 · place your Angler token"
        if tag == "remove":
            return "Step 2 · remove another token"
        if tag in ("fill", "take", "taketop", "skip"):
            return f"Port · {d.port_left} action{'s' if d.port_left != 1 else ''} left"
        if tag in ("route", "discard"):
            return f"Cast {info.COLOURS[d.colour]} bait · {d.route_left} to place"
        if tag in ("catch", "zone6", "lose"):
            return "Catch a fish"
        if tag == "tackle":
            return "Zone 5 bonus"
        if tag == "reel":
            return "Play a Reel (remove two bait of one colour)"
        if tag == "lure":
            return "Play a Lure (swap two bait)"
        if tag == "submit":
            return f"Contest · which {info.fish_name(self.tables, a.species)} do you submit?"
        if tag in ("silent", "white"):
            return "Silent player"
        if tag == "end":
            return "Step 3"
        return ""

    def label(self, view: State[Any, Any], a: Any) -> str:
        d = view.data
        t = self.tables
        tag = tag_of(a)
        try:
            if tag in ("place", "remove"):
                i = info.SPACES.index(a.space)
                side = d.parties[view.current].token if tag == "place" else d.tokens[i]
                if a.space == "port":
                    what = "one Port action" if side == 1 else "two Port actions"
                    return f"Port [{side}] — {what}"
                amount = "one" if side == 1 else "all"
                return f"{a.space.capitalize()} [{side}] — cast {amount} {a.space} bait"
            if tag == "fill":
                have = sum(d.parties[view.current].zones[a.zone - 3])
                return f"Fill Zone {a.zone} (draw {a.zone - have})"
            if tag == "take":
                spots = " ".join(info.BAIT_LETTERS[c] for c in t.ma_spots[a.card])
                return f"Take {info.ma_name(t, a.card)} ({spots})"
            if tag == "taketop":
                return "Take the top Master Angler card (unseen)"
            if tag == "skip":
                return "Skip (no Port action possible)"
            if tag == "route":
                spots = " ".join(info.BAIT_LETTERS[c] for c in t.ma_spots[a.card])
                return f"Onto your {info.ma_name(t, a.card)} ({spots})"
            if tag == "discard":
                return "To the discard pile"
            if tag == "catch":
                fish = d.zones[info.LOCATION_TITLES.index(a.loc.capitalize())][a.at - 3]
                name = info.fish_name(t, fish.species) if fish is not None else "nothing"
                extra = []
                pend = next((p for p in d.pending if p.zone == a.zone), None)
                if pend is not None:
                    home = (2, 2, 0, 1, 0, 1)[pend.colour]
                    if info.LOCATION_TITLES[home].lower() != a.loc:
                        extra.append("Rod")
                if a.at != a.zone:
                    extra.append("Line")
                use = f" — plays your {' and '.join(extra)}" if extra else ""
                return f"{name} ({a.loc.capitalize()} Zone {a.at}) for Zone {a.zone}{use}"
            if tag == "zone6":
                return "Zone 6 bonus: take the top card of the deck instead"
            if tag == "lose":
                return f"Lose the catch for Zone {a.zone} (no fish there)"
            if tag == "tackle":
                return "Take the top tackle piece" if a.take else "No tackle, thanks"
            if tag == "reel":
                return f"{a.colour} from Zone {a.a} and Zone {a.b}"
            if tag == "lure":
                return f"{a.ca} in Zone {a.a} ⇄ {a.cb} in Zone {a.b}"
            if tag == "submit":
                cards = self._my_fish(view, a.species)
                if 1 <= a.rank <= len(cards):
                    w, tag_colour, when = info.fish_secret(t, cards[a.rank - 1])
                    return f"{info.fish_name(t, a.species)} {w} lb ({tag_colour} tag, {when})"
                return f"{info.fish_name(t, a.species)} #{a.rank}"
            if tag == "end":
                return "End your turn (flip the removed token)"
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            pass  # an engine change should not hide a legal choice: fall back to its description
        return super().label(view, a)

    def prompt(self, view: State[Any, Any]) -> str:
        legal = view.legal()
        tags = {tag_of(a) for a in legal}
        if "place" in tags:
            return "Step 1: place your Angler token"
        if "remove" in tags:
            return "Step 2: remove another token"
        if tags & {"route", "discard"}:
            return f"Where does this {info.COLOURS[view.data.colour]} bait go?"
        if "submit" in tags:
            return "Contest: which fish do you submit? (heaviest pre-selected)"
        if tags & {"catch", "zone6", "lose"}:
            return "Which fish do you catch?"
        if tags & {"fill", "take", "taketop"}:
            return "Port: fill a Zone or take a card"
        if tags == {"end"}:
            return "Step 3: end your turn"
        return "Your choice"

    def status(self, view: State[Any, Any]) -> str:
        base = super().status(view)
        d = view.data
        extra = []
        if view.current is not None and 1 <= getattr(d, "step", 0) <= 3:
            extra.append(f"Step {d.step}")
        if getattr(d, "end_triggered", False):
            extra.append("final round")
        if getattr(d, "step", 0) == 4:
            extra.append("contests")
        return base + (f" · {' · '.join(extra)}" if extra else "")
