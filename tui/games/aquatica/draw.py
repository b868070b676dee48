"""The Aquatica table in Rich text, drawn from one view (pure: no Textual).

Top to bottom: your turn (the effects of the card being played, the coins and
power gathered and what they pay for), your hand and discard pile in full, your
player board; then the Ocean (Character row with prices, both Location rows,
deck sizes), the Goal tracks or the Tribe board with the Mantas on them; then
every other player's board. Everything comes from ``table.view(seat)``: other
players' hands are a count, never a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from coldwater.core.aquatica import payment
from coldwater.core.aquatica.content import Deck
from coldwater.core.aquatica.model import BOARD_SLOTS, LOC_TYPES, RIVAL, AqData
from coldwater.tui.games.aquatica import cards

PHASE_WORDS: dict[str, str] = {
    "setup": "setting up",
    "kings": "choosing Kings",
    "pre": "before the Main Action",
    "main": "Main Action",
    "post": "after the Main Action",
    "over": "game over",
}


def columns(items: list[Text], width: int, gap: int = 1) -> list[Text]:
    """Items laid out in as many equal columns as fit `width` (one Text per line).

    Cheaper than Rich's Columns, which measures every item on every frame."""
    if not items:
        return []
    col = max(len(t.plain) for t in items) + gap
    n = max(1, min(len(items), width // col if col else 1))
    lines: list[Text] = []
    for i in range(0, len(items), n):
        line = Text()
        for j, t in enumerate(items[i : i + n]):
            line.append_text(t)
            if j < n - 1:
                line.append(" " * (col - len(t.plain)))
        lines.append(line)
    return lines


def heading(text: str) -> Text:
    return Text(text, style="bold underline")


def seat_names(names: Sequence[str], n: int) -> list[str]:
    return [names[i] if i < len(names) else f"Seat {i + 1}" for i in range(n)]


def pool_text(d: AqData) -> Text:
    t = Text()
    t.append(f"{d.coins} coin{'s' if d.coins != 1 else ''}", style="bold yellow")
    t.append(" · ")
    t.append(f"{d.power} power", style="bold red")
    for i, v in enumerate(d.tpower):
        if v:
            t.append(f" (+{v} toward {cards.TYPE_NAMES[LOC_TYPES[i]]})", style="red")
    return t


def frame_text(k: Deck, d: AqData) -> Text | None:
    """The effects of the top frame: done ones ticked, the current one marked."""
    if not d.stack:
        return None
    fr = d.stack[-1]
    done: list[Any] = []
    if fr.main and d.playing >= 0:
        pile = d.ps[d.turn].discard
        delayed = k.char_delayed[pile[-1]] if pile and pile[-1] >= 0 else ()
        full = list(delayed) + list(k.char_effs[d.playing])
        done = full[: max(0, len(full) - len(fr.effs))]
    if not done and not fr.effs:
        # A spent frame waiting on another seat's answer (an opponent's flip): a label with
        # nothing after it reads as a cut line, and the choice title already says what is asked.
        return None
    t = Text()
    t.append(f"{fr.label or 'Effect'}: ", style="bold")
    for i, e in enumerate(done):
        if i:
            t.append(" · ")
        t.append("✓" + cards.eff_text(e, short=True), style="dim")
    for i, e in enumerate(fr.effs):
        if i or done:
            t.append(" · ")
        if i == 0:
            left = f" ({fr.left} left)" if e.op == "raise" and fr.left >= 0 else ""
            t.append("▸" + cards.eff_text(e, short=True) + left, style="bold reverse")
        else:
            t.append(cards.eff_text(e, short=True))
    if len(d.stack) > 1:
        t.append(f"   (then back to {d.stack[-2].label or 'the card'})", style="dim")
    return t


def pays_for(k: Deck, d: AqData) -> list[Text]:
    """What the gathered coins and power pay for now, and with every source."""
    offered = d.loc_top + d.loc_bottom
    out: list[Text] = []
    coins_all = payment.achievable(d, k, "c")
    chars_now = [i for i in range(len(d.char_row)) if i <= d.coins]
    chars_all = [i for i in range(len(d.char_row)) if i <= coins_all]

    def slots(v: list[int]) -> str:
        if not v:
            return "none"
        return "only the free one (slot 0)" if len(v) == 1 else f"slots 0–{v[-1]}"

    buy_now = [x for x in offered if k.loc_coins[x] <= d.coins]
    conq_now, conq_all = [], []
    for x in offered:
        t = k.loc_type[x]
        price = max(0, k.loc_power[x] - (1 if x in d.loc_top else 0))
        if price <= d.power + d.tpower[t]:
            conq_now.append(x)
        elif price <= payment.achievable(d, k, "p", t):
            conq_all.append(x)
    line = Text("  Pays for now: ", style="bold")
    line.append(f"Characters {slots(chars_now)}; buy ")
    line.append(", ".join(k.loc_name[x] for x in buy_now) or "nothing")
    line.append("; conquer ")
    line.append(", ".join(k.loc_name[x] for x in conq_now) or "nothing")
    out.append(line)
    more = Text("  With your Mantas, Depths and Tribes: ", style="bold")
    more.append(f"up to {coins_all} coins (Characters {slots(chars_all)})")
    buy_all = [x for x in offered if d.coins < k.loc_coins[x] <= coins_all]
    if buy_all:
        more.append("; also buy " + ", ".join(k.loc_name[x] for x in buy_all))
    if conq_all:
        more.append("; also conquer " + ", ".join(k.loc_name[x] for x in conq_all))
    out.append(more)
    return out


class Sheet:
    """The parts of the table as lists of lines, for a board `width` columns wide."""

    def __init__(self, deck: Deck, width: int) -> None:
        self.deck = deck
        self.width = width

    # ---- the turn ----------------------------------------------------------------
    def turn_panel(self, d: AqData, labels: list[str], me: int) -> list[Text]:
        k = self.deck
        out: list[Text] = []
        if d.phase in ("over", "setup"):
            return out
        if d.phase == "kings":
            who = (
                "your pick"
                if d.draft_order[:1] == [me]
                else f"{labels[d.draft_order[0]]} picks"
                if d.draft_order
                else "the Kings are being dealt"
            )
            out.append(Text("Choosing Kings: " + who, style="bold"))
            out.append(Text(""))
            return out
        title = Text()
        whose = "Your turn" if d.turn == me else f"{labels[d.turn]}'s turn"
        title.append(f"{whose} — {PHASE_WORDS.get(d.phase, d.phase)}", style="bold underline")
        if d.trigger:
            title.append(
                "  · final round" + (f" ({d.final_left} turns left)" if d.final_left > 0 else ""), style="bold red"
            )
        out.append(title)
        if d.playing >= 0:
            out.append(Text("  Playing " + cards.char_line(k, d.playing), style="italic"))
        ft = frame_text(k, d)
        if ft is not None:
            out.append(Text("  ") + ft)
        if d.phase == "main":
            pool = Text("  Gathered: ", style="bold")
            pool.append_text(pool_text(d))
            pool.append("  (lost when the Main Action ends)", style="dim")
            out.append(pool)
            if d.pay is not None:
                out.append(Text("  " + self.pay_line(d), style="bold yellow"))
            if d.turn == me:
                out += pays_for(k, d)
        elif d.turn == me and d.phase == "pre":
            out.append(Text("  Extras first if you like, then play a Character.", style="dim"))
        elif d.turn == me and d.phase == "post":
            out.append(Text("  The extras again if you like, then end your turn.", style="dim"))
        out.append(Text(""))
        return out

    def pay_line(self, d: AqData) -> str:
        k = self.deck
        pay = d.pay
        assert pay is not None
        res = "coins" if pay.res == "c" else "power"
        if pay.what == "char":
            what = cards.char_name(k, d.char_row[pay.target]) if pay.target < len(d.char_row) else "a Character"
        elif pay.what == "loc":
            what = str(k.loc_name[pay.target])
        else:
            what = "the Tribe " + cards.tribe_spec(k, pay.target).name
        have = payment.pool(d, pay.res, LOC_TYPES.index(pay.ltype) if pay.ltype else -1)
        return f"Paying {pay.cost} {res} for {what}: {have} gathered, {max(0, pay.cost - have)} still owed"

    # ---- what only the viewer sees in full -------------------------------------------
    def secrets(self, d: AqData, me: int) -> list[Text]:
        k = self.deck
        p = d.ps[me]
        out: list[Text] = [heading(f"Your hand ({len(p.hand)})")]
        out += columns([Text("  " + cards.char_line(k, c)) for c in sorted(p.hand)], self.width)
        if p.discard:
            out.append(heading(f"Your discard pile ({len(p.discard)}, top last)"))
            items = [Text("  " + cards.char_line(k, c)) for c in p.discard]
            items[-1].append(" ◂ top", style="bold")
            out += columns(items, self.width)
        else:
            out.append(Text("Your discard pile: empty", style="dim"))
        if p.scored:
            pile = Text(
                f"Your Scoring Pile ({len(p.scored)}, {sum(k.loc_pp[x] for x in p.scored if x >= 0)} PP): ",
                style="bold",
            )
            pile.append(", ".join(f"{k.loc_name[x]} {k.loc_pp[x]}" for x in p.scored if x >= 0), style="")
            out.append(pile)
        out.append(Text(""))
        return out

    # ---- the Ocean --------------------------------------------------------------------
    def ocean(self, d: AqData) -> list[Text]:
        """The Character row with prices, then both Location rows, one Location a line
        with its Depths (top first)."""
        k = self.deck
        out: list[Text] = [heading("The Ocean")]
        out.append(
            Text(
                f"In the decks {len(d.char_deck)} Characters · {len(d.loc_deck)} Locations · "
                f"{len(d.loc_discard)} Locations discarded · {len(d.wild_supply)} Wild Mantas",
                style="dim",
            )
        )
        out.append(Text("Character row (price in coins):", style="bold"))
        row = []
        for i, c in enumerate(d.char_row):
            t = Text(f"  {i}{cards.COIN} ", style="bold yellow")
            t.append(cards.char_line(k, c))
            row.append(t)
        out += columns(row, self.width) if row else [Text("  empty", style="dim")]
        for name, locs, top in (("top", d.loc_top, True), ("bottom", d.loc_bottom, False)):
            out.append(Text(f"Location row, {name}" + (" (conquer 1 power less)" if top else "") + ":", style="bold"))
            if locs:
                wide = max(len(k.loc_name[x]) for x in d.loc_top + d.loc_bottom)
                for x in locs:
                    line = Text("  ") + cards.loc_line(k, x, top, wide)
                    if line.cell_len <= self.width:
                        out.append(line)
                    else:  # the Depths on a row of their own, under the name: nothing is cut
                        cut = line.plain.index(" Depths ")
                        out.append(line[:cut])
                        out.append(Text(" " * 4) + line[cut + 1 :])
            else:
                out.append(Text("  empty", style="dim"))
        out.append(Text(""))
        return out

    def tracks(self, d: AqData, labels: list[str]) -> list[Text]:
        k = self.deck
        spots = " ".join(str(v) for v in k.spots)
        out: list[Text] = [heading(f"Goals (spots score {spots} by arrival)")]
        for pos, g in enumerate(d.goals):
            t = Text(f"  {pos + 1} ", style="bold")
            t.append(f"{cards.goal_name(k, g):<34}")
            track = d.tracks[pos] if pos < len(d.tracks) else []
            for i, s in enumerate(track):
                who = "Rival" if s == RIVAL else labels[s] if 0 <= s < len(labels) else f"Seat {s + 1}"
                t.append(f" {who}", style="bold magenta" if s == RIVAL else "bold")
                t.append(f"({k.spots[i] if i < len(k.spots) else 0})")
            if not track:
                t.append(" —", style="dim")
            out.append(t)
        if d.players == 1:
            out.append(
                Text(
                    f"  Virtual rival: {d.rival_placed} of 4 Mantas placed (one each time you play "
                    "Matrona or Scout; at 4 you take one last turn)",
                    style="magenta",
                )
            )
        out.append(Text(""))
        return out

    def tribe_board(self, d: AqData, labels: list[str]) -> list[Text]:
        k = self.deck
        out: list[Text] = [heading("Tribe board (cost +1 per other player's Manta on it)")]
        if d.solo_level:
            from coldwater.core.aquatica.tribes_solo import LEVELS

            out.append(
                Text(f"  Tribes Solo level {d.solo_level}: {LEVELS.get(d.solo_level, '')}", style="bold magenta")
            )
        for i, t in enumerate(d.tribes):
            sp = cards.tribe_spec(k, t)
            line = Text(f"  {'I' * sp.tier:<2} ", style="bold")
            line.append(f"{sp.name:<15}", style="bold")
            line.append(f" {sp.cost}{cards.COIN} ", style="yellow")
            line.append(f"{cards.tribe_bonus(sp, short=True)} · {cards.tribe_pp_text(sp)}")
            seats = d.tribe_mantas[i] if i < len(d.tribe_mantas) else []
            who = [labels[s] for s in seats if 0 <= s < len(labels)]
            who += [f"{labels[s]} (flipped)" for s in range(d.players) if t in d.ps[s].flipped]
            if who:
                line.append("  ⚑ " + ", ".join(who), style="bold magenta")
            out.append(line)
        if d.solo_level:
            got = len(d.ps[0].tribes)
            out.append(
                Text(f"  Recruited {got} of {len(d.tribes)}: recruit them all before the game ends.", style="magenta")
            )
        out.append(Text(""))
        return out

    # ---- one player's board ----------------------------------------------------------------
    def player(self, d: AqData, s: int, labels: list[str], me: int | None) -> list[Text]:
        k = self.deck
        p = d.ps[s]
        head = Text()
        head.append("▶ " if d.turn == s and d.phase != "over" else "  ", style="bold")
        head.append(labels[s] + (" (you)" if s == me and labels[s] != "You" else ""), style="bold underline")
        if p.king:
            head.append(f" · King {p.king}")
        head.append(f" · hand {len(p.hand)}")
        top = p.discard[-1] if p.discard else None
        head.append(f" · discard {len(p.discard)}")
        if top is not None:
            head.append(f" (top {cards.char_name(k, top)}")
            if top >= 0 and k.char_delayed[top]:
                head.append(f", delayed {cards.effs_text(k.char_delayed[top], short=True)}", style="magenta")
            head.append(")")
        head.append(f" · Scoring Pile {len(p.scored)}")
        if d.module == "goals":
            head.append(f" · Goals {len(p.goals)}")
        else:
            head.append(f" · Tribes {len(p.tribes)}")
        out: list[Text] = [head]
        mantas = Text("  Mantas ")
        for i, m in enumerate(p.mantas):
            mantas.append_text(cards.manta_text(k, m, i))
            mantas.append("  ")
        out.append(mantas)
        for slot in range(BOARD_SLOTS):
            line = Text(f"  {slot + 1} ", style="dim")
            if slot < len(p.board):
                line.append_text(cards.board_loc(k, p.board[slot]))
            else:
                line.append("· empty slot", style="dim")
            out.append(line)
        if p.tribes and d.module == "tribes":
            tl = Text("  Tribes ")
            tl.append(
                ", ".join(
                    cards.tribe_spec(k, t).name
                    + (" (flipped)" if t in p.flipped else " (used)" if t in p.tribe_used else "")
                    for t in p.tribes
                )
            )
            out.append(tl)
        out.append(Text(""))
        return out

    # ---- the parts, and how they are laid out -----------------------------------------
    def parts(self, d: AqData, labels: list[str], me: int | None) -> dict[str, list[Text]]:
        """Every part of the table: "turn", "hand", "me", "ocean", "goals", "others"."""
        out: dict[str, list[Text]] = {"turn": [], "hand": [], "me": []}
        if me is not None:
            out["turn"] = self.turn_panel(d, labels, me)
            out["hand"] = self.secrets(d, me)
            out["me"] = self.player(d, me, labels, me)
        out["ocean"] = self.ocean(d)
        out["goals"] = self.tracks(d, labels) if d.module == "goals" else self.tribe_board(d, labels)
        order = [(me + i) % d.players for i in range(1, d.players)] if me is not None else list(range(d.players))
        out["others"] = [line for s in order for line in self.player(d, s, labels, me)]
        return out


TWO_COLUMNS = 110
"""From this board width the Ocean and Goals sit beside your own things."""


def fit(lines: list[Text], width: int) -> list[Text]:
    """Rows never wrap on their own: a row too long for the board is broken at its
    " · " separators onto indented rows of its own, and cut with an ellipsis only
    where no separator helps."""
    out: list[Text] = []
    for line in lines:
        while line.cell_len > width:
            plain = line.plain
            cut = plain.rfind(" · ", 0, width)
            if cut <= 4:
                line = line.copy()
                line.truncate(width, overflow="ellipsis")
                break
            out.append(line[:cut])
            line = Text("    ") + line[cut + 3 :]
        out.append(line)
    return out


def side_by_side(left: list[Text], right: list[Text], width: int, gap: int = 2) -> list[Text]:
    lw = (width - gap) // 2
    left, right = fit(left, lw), fit(right, width - gap - lw)
    out = []
    for n in range(max(len(left), len(right))):
        line = left[n].copy() if n < len(left) else Text()
        line.pad_right(lw + gap - line.cell_len)
        if n < len(right):
            line.append_text(right[n])
        out.append(line)
    return out


def layout(parts: dict[str, list[Text]], width: int, show: tuple[str, ...]) -> list[Text]:
    """The parts named in `show`, in one column or (wide boards) two."""

    def take(*names: str) -> list[Text]:
        return [line for n in names if n in show for line in parts.get(n, [])]

    if show == ("ocean",):
        # Alone in its pane, under the pane's own "Ocean" title: the heading would say it twice.
        return fit(parts.get("ocean", [])[1:], width)
    if width >= TWO_COLUMNS:
        return side_by_side(take("turn", "hand", "me", "others"), take("ocean", "goals"), width)
    return fit(take("turn", "hand", "me", "ocean", "goals", "others"), width)
