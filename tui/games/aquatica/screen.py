"""The Aquatica: Cold Waters table screen: the generic table with Aquatica's
board, choices written for people, and the card behind the highlighted choice.

A turn is a walk through small decisions, each from the engine's ``legal()``:
the extras (claim a Goal, flip a Manta, exploit a Depth, use a Tribe) are
offered exactly when the engine allows them, the Main Action plays a Character
whose effects come one at a time (the prompt shows the whole card, the one now
resolving marked), and paying adds one source at a time. Choices are grouped
and labelled from the card data; the details pane under the choices shows the
full card (effect text, Depths, Tribe bonus) of the highlighted choice.
"""

from __future__ import annotations

import re
import time
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Never, assert_never

import msgspec
from rich.text import Text
from textual import events
from textual.app import ComposeResult

from coldwater.core.aquatica import actions as A
from coldwater.core.aquatica import payment, tribes
from coldwater.core.aquatica.actions import AqAction
from coldwater.core.aquatica.content import Deck
from coldwater.core.aquatica.game import AquaticaGame
from coldwater.core.aquatica.model import LOC_TYPES, AqData
from coldwater.core.aquatica.solo import TITLES
from coldwater.core.aquatica.state import AqState
from coldwater.core.aquatica.tribes_solo import LEVELS
from coldwater.core.state import Scores
from coldwater.net import records
from coldwater.net.table import seat_label
from coldwater.tui.games.aquatica import cards, compact, words
from coldwater.tui.games.aquatica.board import ALL_PARTS, COMPACT, AquaticaBoard, frame_text
from coldwater.tui.screens.table import Pane, TableScreen, records_dir
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import Item

GROUP_ORDER: tuple[type, ...] = (
    A.PickKing,
    A.OppFlip,
    A.OppDiscard,
    A.Rival,
    A.ClaimGoal,
    A.Play,
    A.Recruit,
    A.RecruitTribe,
    A.Buy,
    A.Conquer,
    A.Raise,
    A.Rise,
    A.Score,
    A.Scout,
    A.Cut,
    A.TakeBack,
    A.Copy,
    A.Replay,
    A.Place,
    A.Flip,
    A.Exploit,
    A.UseTribe,
    A.Spend,
    A.Skip,
    A.End,
)
SEAT_RE = re.compile(r"\bSeat (\d)\b")
DEALT = re.compile(r"(.+) goes to (the Character row|the bottom Location row|the box|the Location deck)")


def _stylesheet() -> str:
    return str(resources.files("coldwater.themes").joinpath("aquatica.tcss"))


class AquaticaTableScreen(TableScreen[AqState, AqAction, Never]):
    BOARD: ClassVar[type[BoardView[Any]]] = AquaticaBoard
    OWN_CONTENT: ClassVar[bool] = True  # every card is drawn from the loaded deck
    CSS_PATH = _stylesheet()
    OPTION_CHOICES: ClassVar[dict[str, list[tuple[str, Any]]]] = {
        "solo_level": [("— (not Tribes Solo)", None)] + [(f"{n} {name}", n) for n, name in LEVELS.items()],
    }
    OPTION_LABELS: ClassVar[dict[str, str]] = {
        "module": "Module",
        "variable_goals": "Variable goals",
        "kings": "Kings",
        "solo_level": "Solo level",
    }
    OPTION_HINTS: ClassVar[dict[str, str]] = {
        "module": "goals: the Goal tracks; tribes: the Tribe board (Cold Waters)",
        "variable_goals": "Goals module: 4 random Goal tokens instead of the printed Goals",
        "kings": "basic: King 1 to the first player, ...; advanced: a draft",
        "solo_level": "1 player with module tribes: Tribes Solo at this level (1 if left empty)",
    }
    HELP_KEYS = TableScreen.HELP_KEYS + (
        "\n| F4 / O | The Ocean: Character row, both Location rows with their Depths |"
        "\n| F5 / P | The players: your hand and discard pile, every player's board |"
        "\n| F6 / G | The Goal tracks or the Tribe board |"
    )
    HELP: ClassVar[str] = (
        TableScreen.HELP
        + """
**Aquatica: Cold Waters.** The line under the title: each player's PP so far.
At the top of the board: your turn (the card being played with its effects in
order, ▸ marking the one now resolving; the coins and power gathered in this
Main Action and what they pay for), then your hand and discard pile and your
player board; then the Ocean (Character row with prices, both Location rows:
name, type, coins or power, PP, ✦ a Wild Manta when fully risen, the Depths top
first), the Goal tracks or the Tribe board, and every other player. In a small
terminal the board scrolls (PgUp / PgDn) and three panes show a part on its
own, full-screen: **F4 / O** the Ocean, **F5 / P** the players, **F6 / G** the
Goals or Tribes (the same key closes it). From 110 columns of board the Ocean
and the Goals or Tribes sit beside your own things.

Mantas: ● ready, ○ tired, ⚑ placed on a Goal or Tribe; T trained, W wild. On a
board Location, ▸ is the visible Depth and "N left" the Depths still to exploit.

**A turn.** Before your Main Action you may claim Goals, flip ready Mantas,
exploit effect Depths and use Tribes, as often as they allow. Then play one
Character: its effects come one at a time; *skip* declines one. When a price is
more than you gathered, add sources one by one (Mantas, resource Depths, Tribes).
After it, the extras again, then *end your turn* (**e**, and only that; a skip is a
choice with its digit). The highlighted choice never spends anything and is never
Matrona: extras, purchases and Matrona are yours to pick. Above the choices, at
80×24: the Character row with prices, both Location rows (Sh Shark, Sp Ships,
Ci Civ, Vo Volcano, Fr Frosty; coins/power, PP, ✦ a Wild Manta), your board with
each Location's visible Depth (▸) and how many are left, your Mantas and your PP
by category, the Goals (PP of the next spot, ⚑ who is on it) or Tribes, and the
others; **F2** shows the whole sheet. Under the choices: the full card of the highlighted one. The log announces
Goals claimed, Tribes recruited and the end being triggered. The rules: Esc,
then *Rules*.
"""
    )

    # ---- layout -----------------------------------------------------------------------------
    _drawn: float = 0.0
    drawing_errors: list[str]
    _board_key: tuple[int, int | None, bool, bool] | None = None

    def on_mount(self) -> None:
        # Textual calls every class's on_mount in turn (this one first), so the frame's
        # runs after this by itself: calling it here too would mount the table twice.
        self.drawing_errors = []

    # ---- panes: the Ocean and the players, one key away at any size -----------------------
    PANES: ClassVar[tuple[Pane, ...]] = (
        Pane("ocean", "Ocean", "O"),
        Pane("players", "Players", "P"),
        Pane("goals", "Goals", "G"),
    )
    PANE_PARTS: ClassVar[dict[str, tuple[str, ...]]] = {
        "ocean": ("ocean",),
        "players": ("hand", "me", "others"),
        "goals": ("goals",),
    }

    def compose_pane(self, pane_id: str) -> ComposeResult:
        yield AquaticaBoard(self.table.game, id=f"aq-pane-{pane_id}")

    def action_pane(self, pane_id: str) -> None:
        was_board = self.pane == "board"
        super().action_pane(pane_id)
        if was_board != (self.pane == "board"):  # F2 shows the whole sheet, the table the compact form
            self.update_board(self.current_view())
        if self.pane in self.PANE_PARTS:  # a pane opens at its top, wherever it was left
            box = self.query_one(f"#pane-{self.pane}")
            box.scroll_home(animate=False, immediate=True)
            self.call_after_refresh(box.scroll_home, animate=False)

    def on_resize(self, event: events.Resize) -> None:
        # (Textual calls the frame's on_resize too, as it walks the MRO.) A new height
        # may make the whole sheet fit, or no longer fit: draw it again.
        self._board_key = None
        self.call_after_refresh(self._redraw_board)

    def _redraw_board(self) -> None:
        if self.is_mounted:
            self.update_board(self.current_view())

    def update_pane(self, pane_id: str, view: AqState) -> None:
        board = self.query_one(f"#aq-pane-{pane_id}", AquaticaBoard)
        board.show(view, self.player_names(), self.viewer, self.PANE_PARTS.get(pane_id, ()))

    def refresh_view(self) -> None:
        t = self.table
        now = time.monotonic()
        if t.current is not None and not t.waiting_for_person and now - self._drawn < 0.25:
            return  # bots and chance moving faster than a person can read: draw the next picture
        self._drawn = now
        super().refresh_view()

    def update_board(self, view: AqState) -> None:
        whole = self.pane == "board"
        key = (self.table.state.ply, self.viewer, self._handing_over, whole)
        if key == self._board_key:
            return  # the same position for the same eyes: already on screen
        self._board_key = key
        try:
            board = self.query_one("#board", AquaticaBoard)
            board.show(view, self.player_names(), self.viewer, ALL_PARTS if whole else COMPACT)
        except Exception as e:  # a drawing bug must not end a game: say so, keep playing (tests: raise)
            self.guard.failed("the board", e)
            self.drawing_errors.append(repr(e))
            self.notify(f"The board could not be drawn ({type(e).__name__}); the game goes on.", severity="error")

    @property
    def deck(self) -> Deck:
        """The compiled cards this game is played with (packaged or the person's own)."""
        game = self.table.game
        if not isinstance(game, AquaticaGame):  # the catalog pairs this screen with Aquatica only
            raise TypeError(f"the Aquatica screen was given a {game.title} table")
        return game.deck

    def player_names(self) -> list[str]:
        return [s.name for s in self.table.seats]

    def seat_name(self, seat: int) -> str:
        return seat_label(self.table.seats, seat)

    def words(self, text: str) -> str:
        """The engine's ``Seat N`` replaced by the seat's name."""
        return SEAT_RE.sub(lambda m: self.seat_name(int(m.group(1)) - 1), text).replace("You takes ", "You take ")

    # ---- the decision -----------------------------------------------------------------------
    def choice_items(self, view: AqState, legal: list[AqAction]) -> tuple[list[Item[AqAction]], int | None]:
        order = {t: n for n, t in enumerate(GROUP_ORDER)}
        d: AqData = view.data
        ranked = sorted(enumerate(legal), key=lambda ia: (order.get(type(ia[1]), len(order)), ia[0]))
        items = [Item(self.label_of(view, a), a, group=self.group(view, a)) for _, a in ranked]
        pre: int | None = None
        for n, (_, a) in enumerate(ranked):
            if (d.phase == "pre" and isinstance(a, A.Play) and not self.is_matrona(a)) or (
                d.phase == "post" and isinstance(a, A.End)
            ):
                pre = n
                break
        self._aq_items = items
        return items, pre

    def group(self, view: AqState, a: AqAction) -> str:
        d: AqData = view.data
        if d.pay is not None and isinstance(a, (A.Flip, A.Exploit, A.UseTribe, A.Spend)):
            return f"Pay with · {'coins' if d.pay.res == 'c' else 'power'}"
        if isinstance(a, A.Play):
            return "Main Action · play a Character"
        if isinstance(a, A.ClaimGoal):
            return "Claim a Goal (retires that Trained Manta)"
        if isinstance(a, A.Flip):
            return "Flip a ready Manta"
        if isinstance(a, A.Exploit):
            return "Exploit a Depth"
        if isinstance(a, A.UseTribe):
            return "Use a Tribe's ongoing bonus"
        if isinstance(a, A.Skip):
            return "Or"
        if isinstance(a, A.End):
            return "Your turn"
        return ""

    def label(self, view: AqState, a: AqAction) -> str:
        # (The frame calls it through its guard, with plain_label when it fails.)
        return self._label(view.data, a)

    def plain_label(self, view: AqState, a: AqAction) -> str:
        return self.words(super().plain_label(view, a))  # a new action still gets a readable label

    def _label(self, d: AqData, a: AqAction) -> str:
        k = self.deck
        seat = d.turn
        p = d.ps[seat]
        match a:
            case A.PickKing():
                return cards.char_line(k, k.king_id(a.number))
            case A.Play():
                return cards.char_line(k, a.card)
            case A.End():
                return "End your turn"
            case A.Skip():
                if d.stack and d.stack[-1].effs:
                    e = d.stack[-1].effs[0]
                    if e.op == "raise" and d.stack[-1].left >= 0:
                        return f"Stop raising ({d.stack[-1].left} left unused)"
                    return f"Skip: {cards.eff_text(e)}"
                return "Skip"
            case A.Flip():
                m = p.mantas[a.manta]
                kind = "Wild" if m.wild >= 0 else "Trained"
                return f"{kind} Manta {a.manta + 1}: {cards.eff_text(cards.manta_effect(k, m))}"
            case A.Exploit():
                loc = next(x for x in p.board if x.id == a.loc)
                depths = k.loc_depths[a.loc]
                left = len(depths) - loc.pos - 1
                plural = "s" if left != 1 else ""
                return f"{k.loc_name[a.loc]}: {cards.eff_text(depths[loc.pos])} ({left} Depth{plural} left after)"
            case A.UseTribe():
                sp = cards.tribe_spec(k, a.tribe)
                assert sp.ongoing is not None  # only a type I Tribe is used, and each has its bonus
                return f"{sp.name}: {cards.eff_text(sp.ongoing)}"
            case A.Spend():
                v = payment.spend_value(d, k, a.loc)
                return f"Discard {k.loc_name[a.loc]} from your Scoring Pile: +{v} coins (lost for good)"
            case A.ClaimGoal():
                g = d.goals[a.goal]
                spot = len(d.tracks[a.goal])
                pp = k.spots[spot] if spot < len(k.spots) else 0
                m = p.mantas[a.manta]
                return (
                    f"{cards.goal_name(k, g)} ({pp} PP) with Trained Manta {a.manta + 1} "
                    f"({cards.eff_text(cards.manta_effect(k, m), True)})"
                )
            case A.Rival():
                return f"Rival's Manta on: {cards.goal_name(k, d.goals[a.goal])}"
            case A.Recruit():
                free = bool(d.stack and d.stack[-1].effs and d.stack[-1].effs[0].op == "free_recruit")
                price = "free" if free else f"{a.slot}{cards.COIN}"
                return f"{price} {cards.char_line(k, d.char_row[a.slot])}"
            case A.RecruitTribe():
                sp = cards.tribe_spec(k, a.tribe)
                cost = tribes.cost(d, k, a.tribe, seat)
                return f"Tribe {sp.name} {cost}{cards.COIN}: {cards.tribe_bonus(sp, True)} · {cards.tribe_pp_text(sp)}"
            case A.Place():
                if a.manta < 0:
                    return "Flip the Tribe card instead (no bonus, keeps your Mantas)"
                return f"Place {cards.manta_name(k, p.mantas[a.manta], a.manta)}"
            case A.Buy() | A.Conquer():
                on_top = a.loc in d.loc_top
                if isinstance(a, A.Buy):
                    price = f"{k.loc_coins[a.loc]}{cards.COIN}"
                else:
                    price = f"{max(0, k.loc_power[a.loc] - (1 if on_top else 0))} power"
                t = cards.loc_type(k, a.loc)
                extra = f" {cards.WILD_ICON}" if k.loc_manta[a.loc] else ""
                return (
                    f"{k.loc_name[a.loc]} for {price} ({cards.TYPE_SHORT[t]}, {k.loc_pp[a.loc]} PP, "
                    f"{len(k.loc_depths[a.loc])} Depths{extra}){' top row' if on_top else ''}"
                )
            case A.Raise():
                loc = next(x for x in p.board if x.id == a.loc)
                left = len(k.loc_depths[a.loc]) - loc.pos - a.by
                end = "fully risen" if left <= 0 else f"{left} left"
                return f"Raise {k.loc_name[a.loc]} by {a.by} ({end})"
            case A.Rise():
                return f"Fully raise {k.loc_name[a.loc]}"
            case A.Score():
                return f"Score {k.loc_name[a.loc]} ({k.loc_pp[a.loc]} PP)"
            case A.Scout():
                return "Scout: top row out, up to 4 of the bottom row up, 6 new"
            case A.Cut():
                return (
                    f"Discard {k.loc_name[a.loc]} ({cards.TYPE_SHORT[cards.loc_type(k, a.loc)]}, {k.loc_pp[a.loc]} PP)"
                )
            case A.TakeBack():
                return f"Take back {cards.char_line(k, a.card)}"
            case A.Copy():
                return f"Copy {k.loc_name[a.loc]}: {cards.eff_text(k.loc_depths[a.loc][a.depth])}"
            case A.Replay():
                return f"Replay {cards.char_line(k, a.card)}"
            case A.OppFlip():
                m = d.ps[d.opp_seats[0]].mantas[a.manta]
                return f"Flip your {cards.manta_name(k, m, a.manta)}"
            case A.OppDiscard():
                return f"Discard {cards.char_line(k, a.card)}"
            case A.Deal():  # chance: never a person's choice
                return self.words(str(a))
            case _:
                assert_never(a)

    def prompt(self, view: AqState) -> str:
        d: AqData = view.data
        k = self.deck
        if d.phase == "kings":
            return "Pick your King (it goes to your hand)"
        if d.opp_seats:
            what = "flip one of your ready Mantas" if d.opp_kind == "flip" else "discard a Character"
            return f"{self.seat_name(d.turn)}'s card: {what}"
        if d.rival_pending:
            return f"Virtual rival: which Goal track gets its Manta? ({d.rival_placed + 1} of 4)"
        if d.pay is not None:
            pay = d.pay
            have = payment.pool(d, pay.res, LOC_TYPES.index(pay.ltype) if pay.ltype else -1)
            res = "coins" if pay.res == "c" else "power"
            return f"Pay {pay.cost} {res}: {pay.cost - have} more — add a source"
        if d.placing >= 0:
            return f"Recruiting {cards.tribe_spec(k, d.placing).name}: which Manta goes on it?"
        if d.cutting:
            return f"Scout: discard from the bottom row down to 4 ({len(d.loc_bottom)} there)"
        ft = frame_text(k, d)
        if ft is not None:
            return ft.plain
        if d.phase == "pre":
            return "Extras, or play a Character (your Main Action)"
        if d.phase == "post":
            return "Extras, or end your turn"
        return "Your choice"

    def status(self, view: AqState) -> str:
        base = super().status(view)
        d: AqData = view.data
        extra: list[str] = []
        if d.phase == "main":
            extra.append(compact.pool(d).plain)
        if d.solo_level:
            extra.append(f"Tribes Solo {d.solo_level}")
        elif d.players == 1 and d.module == "goals":
            extra.append(f"rival {d.rival_placed}/4")
        if d.trigger:
            extra.append("final round")
        return base + (f" · {' · '.join(extra)}" if extra else "")

    # ---- the card behind the highlighted choice ------------------------------------------------
    def preview(self, view: AqState, action: AqAction) -> str:
        text = self.details(view.data, action)
        return text.plain if isinstance(text, Text) else text

    # ---- frame hooks: standings, safe defaults, announcements ------------------------------------
    def standings(self, view: AqState) -> str:
        return words.standings(view.data, view.scores().totals)

    def is_done(self, view: AqState, action: AqAction) -> bool:
        # Only ending the turn gets **e**: a Skip declines one effect, and is listed with a digit.
        return isinstance(action, A.End)

    def is_matrona(self, action: AqAction) -> bool:
        """Matrona takes back the discard pile and, solo, moves the virtual rival (which
        shortens the game): never the highlighted default, though listed first."""
        return isinstance(action, A.Play) and any(e.op == "matrona" for e in self.deck.char_effs[action.card])

    def is_costly(self, view: AqState, action: AqAction) -> bool:
        return words.is_costly(action)

    def step_note(self, view: AqState) -> str:
        return words.step_note(self.deck, view.data)

    def announcements(self, before: AqState, after: AqState, seat: int, action: AqAction) -> list[str]:
        return words.announcements(self.deck, before.data, after.data)

    def details(self, d: AqData, a: AqAction) -> Text | str:
        k = self.deck
        p = d.ps[d.turn]
        if isinstance(a, (A.Play, A.TakeBack, A.Replay, A.OppDiscard)):
            return cards.char_details(k, a.card)
        if isinstance(a, A.PickKing):
            return cards.char_details(k, k.king_id(a.number))
        if isinstance(a, A.Recruit):
            return cards.char_details(k, d.char_row[a.slot])
        if isinstance(a, (A.Buy, A.Conquer, A.Cut)):
            return cards.loc_details(k, a.loc, a.loc in d.loc_top)
        if isinstance(a, (A.Exploit, A.Raise, A.Rise, A.Score, A.Copy)):
            loc = next((x for x in p.board if x.id == a.loc), None)
            return cards.loc_details(k, a.loc, pos=loc.pos if loc else 0)
        if isinstance(a, A.Spend):
            return cards.loc_details(k, a.loc)
        if isinstance(a, (A.RecruitTribe, A.UseTribe)):
            return cards.tribe_details(
                k, a.tribe, tribes.cost(d, k, a.tribe, d.turn) if isinstance(a, A.RecruitTribe) else None
            )
        if isinstance(a, A.Place) and d.placing >= 0:
            return cards.tribe_details(k, d.placing)
        if isinstance(a, A.ClaimGoal):
            spec = k.goals[d.goals[a.goal]]
            return Text(
                f"Goal: {spec.name}. Retire one of your Trained Mantas (ready or tired) on the first free "
                f"spot; earlier spots score more. Once per Goal."
            )
        if isinstance(a, A.Rival):
            return Text(
                "Solo: each time you play Matrona or Scout, the virtual rival puts a Manta on a Goal "
                "track it is not on yet; its Manta takes a spot (and its points) from you."
            )
        if isinstance(a, A.Flip):
            m = p.mantas[a.manta]
            return Text(
                f"{cards.manta_name(k, m, a.manta)}: flipping it gives "
                f"{cards.eff_text(cards.manta_effect(k, m))}. It stays tired until your Mantas are readied."
            )
        if isinstance(a, A.Scout):
            return Text(
                "Scout (optional): discard the top Location row; if more than 4 are in the bottom row, "
                "discard down to 4; they slide up; 6 new Locations fill the bottom row."
            )
        if isinstance(a, A.End):
            return Text("End your turn. Unused coins and power are already gone; ready Mantas stay ready.")
        return ""

    # ---- log and end, in the players' names ---------------------------------------------------------
    def summarize_chance(self, lines: list[str]) -> list[str]:
        """Deals in a few words: "New in the bottom Location row: A, B, C"."""
        out: list[str] = []
        runs: dict[str, list[str]] = {}
        for line in lines:
            m = DEALT.fullmatch(line)
            if m and m[2] in ("the Character row", "the bottom Location row"):
                runs.setdefault(m[2], []).append(re.sub(r" \(.*\)$", "", m[1]))
            elif not line.startswith(("a Character goes", "a Location goes", "a King is drawn")):
                out.append(line)  # Wild Mantas, Goals and Tribes laid out; hidden cards say nothing
        return [f"New in {where}: {', '.join(names)}" for where, names in runs.items()] + out

    def final_scores(self) -> Scores:
        """The engine's score sheet with the players' names, and the solo result spelt out."""
        s: Scores = self.table.state.scores()
        d: AqData = self.table.state.data
        notes = list(s.notes)
        if d.players == 1 and d.solo_level:
            n = d.solo_level
            notes.append(
                f"Tribes Solo level {n}: {LEVELS[n]}."
                + (f" Next time try level {n + 1}: {LEVELS[n + 1]}." if n < 6 else " Next time, beat your score.")
            )
        elif d.players == 1:
            bands, low = [], 0
            for top, name in TITLES:
                bands.append(f"{low}–{top} {name}")
                low = top + 1
            bands.append(f"{low}+ The Kraken")
            notes.append("Solo titles by PP: " + ", ".join(bands) + ".")
        return msgspec.structs.replace(
            s,
            labels=tuple(self.player_names()[: d.players]) + s.labels[d.players :],
            outcome=self.words(s.outcome),
            notes=tuple(notes),
        )

    def finish(self) -> None:
        if self._finished or self.app.screen is not self:
            return  # the generic table finishes once this screen is back on top
        self._finished = True
        t = self.table
        if t.save_path is not None and t.record is not None:
            records.save(t.record, records_dir() / Path(t.save_path).name)
            t.delete_save()
        from coldwater.tui.screens.score import ScoreScreen

        self.app.switch_screen(ScoreScreen(t.game.title, self.final_scores(), self.player_names()))
