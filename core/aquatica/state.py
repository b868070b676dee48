"""The Aquatica State: dispatches to the rule modules; views and messages."""

from __future__ import annotations

from typing import ClassVar, assert_never

from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE, SETUP, Openings, Scores, Slot, State, Turn

from . import main_action, scoring, sealing, setup, solo, why
from .actions import (
    CODEC,
    AqAction,
    Buy,
    ClaimGoal,
    Conquer,
    Copy,
    Cut,
    Deal,
    End,
    Exploit,
    Flip,
    OppDiscard,
    OppFlip,
    PickKing,
    Place,
    Play,
    Raise,
    Recruit,
    RecruitTribe,
    Replay,
    Rise,
    Rival,
    Score,
    Scout,
    Skip,
    Spend,
    TakeBack,
    UseTribe,
)
from .content import Deck
from .depths import top
from .mantas import effect as manta_effect
from .model import HIDDEN, HIDDEN_KING, LOC_TYPES, AqData
from .raise_ import find

_STAGE = {"pre": 0, "main": 1, "post": 2}
"""A turn's stages (see AqState.turn)."""
TYPE_NAMES = {
    "shark": "Shark Bay",
    "ships": "Sunken Ships",
    "civ": "Decayed Civilizations",
    "volcano": "Ocean Volcanoes",
    "frosty": "Frosty Depths",
}


class AqState(State[AqAction, AqData]):
    GAME = "aquatica"
    DATA = AqData
    CODEC = CODEC
    DECK: ClassVar[Deck]

    @property
    def deck(self) -> Deck:
        return self.DECK

    @property
    def players(self) -> int:
        return self.data.players

    def _current(self) -> int | None:
        return main_action.current(self.data)

    def solo_goal(self, seat: int, sc: Scores) -> tuple[float, bool]:
        """Tribes Solo is won by recruiting every Tribe; the base solo by its title (see
        :mod:`.solo`): the evaluator weighs them so (:func:`.solo.goal`)."""
        return solo.goal(self.data, seat, sc.totals[seat])

    def fit_mode(self) -> str:
        return "tribes" if solo.tribes_solo(self.data) else ""

    def turn(self) -> Turn | None:
        d = self.data
        if d.phase in ("setup", "kings"):
            return Turn(SETUP)  # the Kings draft is part of the setup
        # pre → main → post, then End: the stage drops, so a solo game's turns
        # (all seat 0's) still count one by one. Answers to another seat's
        # Character and the rival's Mantas belong to the turn they interrupt.
        return Turn(d.turn, _STAGE.get(d.phase, 0))

    def _legal_actions(self) -> list[AqAction]:
        return main_action.legal(self.data, self.DECK)

    def _apply(self, action: AqAction) -> None:
        main_action.apply(self.data, self.DECK, action)

    def _chance_weights(self) -> list[tuple[AqAction, int]]:
        return [(Deal(c), 1) for c in setup.outcomes(self.data, self.DECK) if c >= 0]

    def _scores(self) -> Scores:
        return scoring.scores(self.data, self.DECK)

    def _redact(self, seat: int | None) -> AqData:
        d = self.copy_data(self.data)
        k = self.DECK
        for s, p in enumerate(d.ps):
            if s != seat:
                if d.kings_mode == "advanced" and p.king and k.king_id(p.king) in p.hand:
                    p.king = 0  # a drafted King in hand is secret (basic Kings are dealt in the open)
                # Already-sealed markers (< 0) stay as they are, so redacting a view
                # again gives the same view (peers compare public digests of views).
                p.hand = [
                    c if c < 0 or k.seat_of_starting(c) >= 0 else (HIDDEN_KING if k.is_king(c) else HIDDEN)
                    for c in p.hand
                ]
        d.char_deck = [HIDDEN] * len(d.char_deck)
        d.char_box = [HIDDEN] * len(d.char_box)
        d.loc_deck = [HIDDEN] * len(d.loc_deck)
        d.loc_box = [HIDDEN] * len(d.loc_box)
        d.king_pool = [HIDDEN_KING] * len(d.king_pool)
        d.king_box = [HIDDEN_KING] * len(d.king_box)
        # The first drafter sees the Kings as they are drawn for it (the deal opens
        # each to it alone), the later ones as they are passed on.
        if not (d.draft_order and d.draft_order[0] == seat):
            d.draft = [HIDDEN_KING] * len(d.draft)
        d.tribe_pool = [HIDDEN] * len(d.tribe_pool)
        d.goal_pool = [HIDDEN] * len(d.goal_pool)
        return d

    # ---- words for people ---------------------------------------------------
    def _who(self) -> str:
        cur = self.current
        return f"Seat {cur + 1}" if cur is not None and cur >= 0 else "Chance"

    def _loc(self, x: int) -> str:
        k = self.DECK
        return f"{k.loc_name[x]} ({TYPE_NAMES[LOC_TYPES[k.loc_type[x]]]}, {k.loc_pp[x]} PP)"

    def _char(self, c: int) -> str:
        return self.DECK.char_name[c] if c >= 0 else "a hidden Character"

    def describe(self, action: AqAction) -> str:
        d, k = self.data, self.DECK
        who = self._who()
        a = action
        match a:
            case Deal():
                dr = d.draws[0] if d.draws else None
                where = {
                    "crow": "the Character row",
                    "lbot": "the bottom Location row",
                    "cbox": "the box",
                    "lbox": "the box",
                    "ldeck": "the Location deck",
                    "goals": "a goal track",
                    "tribes": "the Tribe board",
                    "draft": "the King draft",
                    "wild": "a player",
                }.get(dr.to if dr else "", "play")
                if dr is None:
                    return f"deal {a.card}"
                if dr.deck in ("cd", "cd_disc"):
                    return f"{self._char(a.card) if dr.deck == 'cd' else 'a Character'} goes to {where}"
                if dr.deck in ("ld", "ld_keep", "ld_disc"):
                    return f"{self._loc(a.card) if dr.deck == 'ld' else 'a Location'} goes to {where}"
                if dr.deck == "wild":
                    return f"Seat {dr.arg + 1} takes a Wild Manta ({k.wild[a.card].text()})"
                if dr.deck == "goal":
                    return f"Goal '{k.goals[a.card].name}' is laid on a track"
                if dr.deck == "king":
                    return "a King is drawn face down for the draft"
                return f"Tribe {k.content.tribes.tribes[a.card].name} comes to the Tribe board"
            case PickKing():
                return f"{who} picks a King"
            case Play():
                return f"{who} plays {self._char(a.card)}"
            case End():
                return f"{who} ends the turn"
            case Skip():
                e = d.stack[-1].effs[0] if d.stack and d.stack[-1].effs else None
                return f"{who} skips {e.text() if e else 'the effect'}"
            case Flip():
                m = d.ps[d.turn].mantas[a.manta]
                return f"{who} flips a Manta ({manta_effect(k, m).text()})"
            case Exploit():
                loc = find(d, d.turn, a.loc)
                e = top(k, loc) if loc else None
                return f"{who} exploits {k.loc_name[a.loc]} ({e.text() if e else '?'})"
            case UseTribe():
                return f"{who} uses the Tribe {k.content.tribes.tribes[a.tribe].name}"
            case Spend():
                return f"{who} discards {self._loc(a.loc)} from the Scoring Pile to pay"
            case ClaimGoal():
                return f"{who} claims the Goal '{k.goals[d.goals[a.goal]].name}'"
            case Rival():
                return f"the virtual rival places a Manta on '{k.goals[d.goals[a.goal]].name}'"
            case Recruit():
                free = bool(d.stack and d.stack[-1].effs and d.stack[-1].effs[0].op == "free_recruit")
                price = "free" if free else f"{a.slot} coins"
                return f"{who} recruits {self._char(d.char_row[a.slot])} ({price})"
            case RecruitTribe():
                return f"{who} recruits the Tribe {k.content.tribes.tribes[a.tribe].name}"
            case Place():
                return f"{who} {'flips the Tribe card' if a.manta < 0 else 'places a Manta on the Tribe'}"
            case Buy():
                return f"{who} buys {self._loc(a.loc)} for {k.loc_coins[a.loc]} coins"
            case Conquer():
                return f"{who} conquers {self._loc(a.loc)}"
            case Raise():
                return f"{who} raises {k.loc_name[a.loc]} by {a.by}"
            case Score():
                return f"{who} scores {self._loc(a.loc)}"
            case Scout():
                return f"{who} scouts"
            case Cut():
                return f"{who} discards {self._loc(a.loc)} from the bottom row"
            case TakeBack():
                return f"{who} takes back {self._char(a.card)}"
            case Rise():
                return f"{who} fully raises {k.loc_name[a.loc]}"
            case Copy():
                return f"{who} copies a Depth of {k.loc_name[a.loc]} ({k.loc_depths[a.loc][a.depth].text()})"
            case Replay():
                return f"{who} replays {self._char(a.card)}"
            case OppFlip():
                return f"{who} flips a ready Manta"
            case OppDiscard():
                return f"{who} discards {self._char(a.card)}"
            case _:
                assert_never(a)

    def why_illegal(self, action: AqAction) -> str:
        return why.why_illegal(self, action)

    # ---- a view that advances itself (core/aquatica/sealing.py) ---------------------------
    SEALED = True

    def seen_outcome(self, outcome: AqAction, seat: int | None) -> AqAction:
        if self.current != CHANCE or not self.is_legal(outcome):
            raise IllegalAction(f"'{outcome}' is not a chance outcome pending here")
        return sealing.seen_outcome(self.data, outcome, seat)

    def apply_seen(self, action: AqAction, seat: int | None) -> None:
        kept = self.data
        self.data = self.copy_data(kept)
        self._legal = self._legal_set = None
        try:
            if self.current == CHANCE:
                action = sealing.prepare_deal(self.data, self.DECK, action, seat)
            elif not self.is_legal(action) and sealing.prepare_move(self.data, self.DECK, action):
                self._legal = self._legal_set = None  # a blank now holds the card the action names
            self.apply(action)
        except IllegalAction:
            self.data = kept
            self._legal = self._legal_set = None
            raise
        self.data = self._redact(seat)
        self._legal = self._legal_set = None

    def reveal(self, slot: Slot, value: object) -> None:
        sealing.reveal(self.data, self.DECK, slot, value)
        self._legal = self._legal_set = None

    def opens(self, action: AqAction, seat: int | None) -> Openings:
        def legal() -> bool:
            if self.is_legal(action):
                return True
            probe = type(self)(self.copy_data(self.data), ply=self.ply)
            try:
                return sealing.prepare_move(probe.data, self.DECK, action) and probe.is_legal(action)
            except IllegalAction:
                return False

        # Who must show cards is read from the public view after the action, the same for every seat.
        public = type(self)(self._redact(None), ply=self.ply)
        shown: list[int] = []
        if public.current not in (None, CHANCE):
            try:
                sealing.prepare_move(public.data, self.DECK, action)
                public._legal = public._legal_set = None
                if public.is_legal(action) or sealing.claims_on_hidden(public.data, self.DECK, action):
                    public.apply_legal(action)
                    shown = sealing.must_show(public.data, self.DECK)
            except IllegalAction:
                pass
        return sealing.opens(self.data, self.DECK, action, seat, legal, shown)

    def sealed_value(self, slot: Slot) -> object:
        return sealing.sealed_value(self.data, slot)
