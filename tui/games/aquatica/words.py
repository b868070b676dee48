"""Aquatica's table in words: standings, safe defaults, where a multi-step Main
Action stands, the log's announcements, and :class:`AqWords`, the words object the
table screen is given (labels and groups from the card data, prompts, the card
behind the highlighted choice, the status line, deals in a few words).

Pure (no Textual): each function takes the engine's data (``AqData``) and the
compiled deck, so it is unit-tested from a position. Seats are written
``Seat N``; the table screen puts the players' names in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Never, assert_never

from rich.text import Text

from coldwater.core.aquatica import actions as A
from coldwater.core.aquatica import payment, tribes
from coldwater.core.aquatica.actions import AqAction
from coldwater.core.aquatica.content import Deck
from coldwater.core.aquatica.game import AquaticaGame
from coldwater.core.aquatica.model import LOC_TYPES, RIVAL, AqData
from coldwater.core.aquatica.state import AqState
from coldwater.core.aquatica.tribes_solo import LEVELS
from coldwater.core.state import Game
from coldwater.tui.games.aquatica import cards, compact
from coldwater.tui.games.aquatica.draw import frame_text
from coldwater.tui.games.words import Choice, TableWords, Won

COSTLY: tuple[type, ...] = (
    A.Spend,
    A.Flip,
    A.Exploit,
    A.UseTribe,
    A.ClaimGoal,
    A.OppDiscard,
    A.OppFlip,
    A.Cut,
    A.Recruit,
    A.RecruitTribe,
    A.Buy,
    A.Conquer,
    A.Place,
)
"""Choices that spend coins or power, tire or retire a Manta, use up a Depth or a
Tribe, or discard: never the highlighted default."""


def is_costly(action: AqAction) -> bool:
    return isinstance(action, COSTLY)


def standings(d: AqData, totals: Sequence[int]) -> str:
    """Prestige points so far per player: ``Seat 1 12 PP · Seat 2 9 PP`` (plus the
    final round, when it has been triggered)."""
    line = " · ".join(f"Seat {s + 1} {totals[s]} PP" for s in range(min(d.players, len(totals))))
    if d.trigger and d.phase != "over":
        line += " · final round"
    return line


def step_note(k: Deck, d: AqData) -> str:
    """ "effect 2 of 3" while the played Character's effects resolve one at a time."""
    if not d.stack or d.pay is not None or d.playing < 0:
        return ""
    fr = d.stack[-1]
    if not fr.main or not fr.effs:
        return ""
    pile = d.ps[d.turn].discard
    delayed = k.char_delayed[pile[-1]] if pile and pile[-1] >= 0 else ()
    total = len(delayed) + len(k.char_effs[d.playing])
    if total <= 1 or len(fr.effs) > total:
        return ""
    return f"effect {total - len(fr.effs) + 1} of {total}"


def announcements(k: Deck, before: AqData, after: AqData) -> list[str]:
    """★ lines: Goals claimed (and the rival's Mantas), Tribes recruited, the end triggered."""
    out: list[str] = []
    for pos, track in enumerate(after.tracks):
        old = before.tracks[pos] if pos < len(before.tracks) else []
        for i in range(len(old), len(track)):
            name = cards.goal_name(k, after.goals[pos]) if pos < len(after.goals) else "a Goal"
            pp = k.spots[i] if i < len(k.spots) else 0
            who = track[i]
            if who == RIVAL:
                out.append(f"The virtual rival's Manta takes the Goal {name} ({pp} PP spot)")
            else:
                out.append(f"Seat {who + 1} claims the Goal {name}: {pp} PP")
    for s in range(min(len(before.ps), len(after.ps))):
        for t in after.ps[s].tribes:
            if t not in before.ps[s].tribes:
                out.append(f"Seat {s + 1} recruits the Tribe {cards.tribe_spec(k, t).name}")
    if after.trigger and not before.trigger:
        out.append(
            "The end is triggered: everyone finishes the round"
            if after.players > 1
            else "The end is triggered: one last turn"
        )
    return out


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
RIVAL_NAME = "Virtual rival"
"""The solo game's rival, as the end screen names it."""
SEAT_RE = re.compile(r"\bSeat (\d)\b")
DEALT = re.compile(r"(.+) goes to (the Character row|the bottom Location row|the box|the Location deck)")


class AqWords(TableWords[AqState, AqAction, Never]):
    """Aquatica's table in words: labels from the card data, prompts, the card behind a choice,
    the status and standings lines, the log's announcements and deals, in the players' names."""

    HINT_TERMS: ClassVar[dict[str, str]] = {
        "Characters": "characters",
        "Goals": "goals",
        "Scoring Pile": "the scoring pile",
        "Tribes": "tribes",
    }

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
    CONTENT_FILES: ClassVar[str] = (
        "a folder with kings.json, characters.json, goals.json, locations.json, mantas.json, tribes.json"
    )
    NOTHING_WON: ClassVar[str] = "Nothing was won along the way: no Goal or Tribe."

    @staticmethod
    def variant(options: dict[str, Any], players: int) -> str:
        """The Tribes module, and Tribes Solo with its level (issue 45: Resume and Replays said only the title)."""
        if options.get("module") != "tribes":
            return ""
        return f"Tribes Solo, level {options.get('solo_level') or 1}" if players == 1 else "Tribes"

    def milestones(self, before: AqState | None, after: AqState) -> list[Won]:
        """Each Goal and Tribe won, and the solo game's virtual rival's Manta placed on a Goal track."""
        out = []
        d = after.data
        for seat, p in enumerate(d.ps):
            was = before.data.ps[seat] if before is not None else None
            out += [Won(seat, self.goal_title(d, g)) for g in p.goals[len(was.goals) if was else 0 :]]
            out += [Won(seat, self.tribe_title(t)) for t in p.tribes[len(was.tribes) if was else 0 :]]
        if before is not None:
            for pos, (b, a) in enumerate(zip(before.data.tracks, d.tracks)):
                if RIVAL in a and RIVAL not in b:
                    spot = list(a).index(RIVAL) + 1
                    out.append(Won(-1, f"{self.goal_title(d, pos)}, spot {spot}", who=RIVAL_NAME))
        return out

    def rival_result(self, final: AqState) -> str:
        """Where the solo Goals game's virtual rival's Mantas ended up."""
        d = final.data
        if d.players != 1 or d.module != "goals":
            return ""
        text = f"{RIVAL_NAME}: {d.rival_placed} of 4 Mantas placed on the Goal tracks"
        return text + ("; its 4th ended the game" if d.rival_placed >= 4 else "")

    def goal_title(self, d: AqData, place: int) -> str:
        """A Goal by its place on the table's row of Goals (what a player's Goal records)."""
        goal = d.goals[place] if 0 <= place < len(d.goals) else None
        goals = self.deck.goals
        return f"Goal: {goals[goal].name}" if goal is not None and 0 <= goal < len(goals) else f"Goal {place}"

    def tribe_title(self, tribe: int) -> str:
        tribes = self.deck.content.tribes.tribes
        return f"Tribe: {tribes[tribe].name}" if 0 <= tribe < len(tribes) else f"Tribe {tribe}"

    def __init__(self, game: Game[Any, Any], names: list[str]) -> None:
        super().__init__(game, names)
        if not isinstance(game, AquaticaGame):  # the catalog pairs Aquatica's screen with Aquatica only
            raise TypeError(f"Aquatica's words were given a {game.title} table")
        self.deck: Deck = game.deck
        """The compiled cards this game is played with (packaged or the person's own)."""

    def named(self, text: str) -> str:
        """The engine's ``Seat N`` replaced by the seat's name."""
        return SEAT_RE.sub(lambda m: self.seat_name(int(m.group(1)) - 1), text).replace("You takes ", "You take ")

    # ---- the decision -----------------------------------------------------------------------
    def choice_items(
        self, view: AqState, legal: list[AqAction], label: Callable[[AqState, AqAction], str]
    ) -> tuple[list[Choice[AqAction]], int | None]:
        order = {t: n for n, t in enumerate(GROUP_ORDER)}
        d: AqData = view.data
        ranked = sorted(enumerate(legal), key=lambda ia: (order.get(type(ia[1]), len(order)), ia[0]))
        items = [Choice(label(view, a), a, group=self.group(view, a)) for _, a in ranked]
        pre: int | None = None
        for n, (_, a) in enumerate(ranked):
            if (d.phase == "pre" and isinstance(a, A.Play) and not self.is_matrona(a)) or (
                d.phase == "post" and isinstance(a, A.End)
            ):
                pre = n
                break
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

    def label(self, view: AqState, a: AqAction, viewer: int | None) -> str:
        # (The frame calls it through its guard, with plain_label when it fails.)
        return self._label(view.data, a)

    def plain_label(self, view: AqState, a: AqAction) -> str:
        return self.named(super().plain_label(view, a))  # a new action still gets a readable label

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
                return self.named(str(a))
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

    def status(self, view: AqState, viewer: int | None) -> str:
        base = super().status(view, viewer)
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

    # ---- standings, safe defaults, announcements ------------------------------------
    def standings(self, view: AqState, viewer: int | None) -> str:
        return standings(view.data, view.scores().totals)

    def is_done(self, view: AqState, action: AqAction) -> bool:
        # Only ending the turn gets **e**: a Skip declines one effect, and is listed with a digit.
        return isinstance(action, A.End)

    def is_matrona(self, action: AqAction) -> bool:
        """Matrona takes back the discard pile and, solo, moves the virtual rival (which
        shortens the game): never the highlighted default, though listed first."""
        return isinstance(action, A.Play) and any(e.op == "matrona" for e in self.deck.char_effs[action.card])

    def is_costly(self, view: AqState, action: AqAction) -> bool:
        return is_costly(action)

    def step_note(self, view: AqState) -> str:
        return step_note(self.deck, view.data)

    def announcements(self, before: AqState, after: AqState, seat: int, action: AqAction) -> list[str]:
        return announcements(self.deck, before.data, after.data)

    def look(self, view: AqState, row: str, viewer: int | None) -> list[str]:
        """The Characters, Locations (with their Depths) and Tribes named on a board row, each
        with its whole card text; the row itself where it names none."""
        k = self.deck
        out: list[str] = []
        found: list[tuple[int, str]] = []
        for c, name in enumerate(k.char_name):
            if name and name in row:
                found.append((row.index(name), cards.char_details(k, c).plain))
        for loc, name in enumerate(k.loc_name):
            if name and name in row:
                found.append((row.index(name), cards.loc_details(k, loc).plain))
        for t in view.data.tribes:
            spec = cards.tribe_spec(k, t)
            if spec.name and spec.name in row:
                found.append((row.index(spec.name), cards.tribe_details(k, t).plain))
        seen: set[str] = set()
        for _, text in sorted(found):
            if text not in seen:  # (two copies of one card on a row: said once)
                seen.add(text)
                out += text.split("\n") + [""]
        return out[:-1] if out else [row.strip()]

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


WORDS = AqWords
"""This game's words (tui.games.words_of)."""
