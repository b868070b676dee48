"""CrownState: the engine contract, dispatching each action to its rule module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, assert_never

from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE, SETUP, Openings, Scores, Slot, State, Turn

from . import anglers, casting, catching, contests, explain, port, practice_pond, sealing, tackle, turns
from .actions import (
    CHANCE_TYPES,
    CODEC,
    Catch,
    CrownAction,
    Discard,
    EndTurn,
    Fill,
    Lose,
    Lure,
    Place,
    Reel,
    Remove,
    Route,
    SilentDraws,
    Skip,
    Submit,
    TackleDraw,
    Take,
    TakeTackle,
    TakeTop,
    WhiteOption,
    Zone6,
)
from .content import Tables
from .endgame import end_of_turn
from .model import COLOUR_INDEX, SPACE_INDEX, SPACES, CrownData
from .scoring import scores
from .views import copy, redact

_PLACES = tuple(Place(s) for s in SPACES)
_REMOVES = tuple(Remove(s) for s in SPACES)
_END = EndTurn()


class CrownState(State[CrownAction, CrownData]):
    GAME = "crown"
    DATA = CrownData
    CODEC = CODEC
    TABLES: ClassVar[Tables]

    __slots__ = ()

    @property
    def players(self) -> int:
        return self.data.players

    def _current(self) -> int | None:
        return self.data.cur

    def turn(self) -> Turn | None:
        d = self.data
        if d.step == 0 or d.phase in ("setup", "wait"):
            return Turn(SETUP)
        if d.step >= 4:
            # The contests come after the last turn: every seat answers in turn order, but
            # an answer is nobody's turn (counted as turns they made up to two rounds that
            # were never played), so they belong to the last turn, as chance does.
            return Turn(SETUP)
        # d.turn counts the silent player too (the party after the seats), so
        # Practice Pond's round is your turn and then the silent player's.
        return Turn(d.turn, d.step)

    def _legal_actions(self) -> list[CrownAction]:
        d = self.data
        if d.cur == CHANCE:
            return [a for a, _ in turns.chance_weights(d, self.TABLES)]
        if d.tasks:
            k = d.tasks[0].kind
            if k == "white_choice":
                choices: list[CrownAction] = [WhiteOption("bait")]
                return choices + ([WhiteOption("card")] if d.ma_deck else [])
            if k == "silent_n":
                return [SilentDraws(1), SilentDraws(2)]
        ph = d.phase
        if ph == "idle":
            p = d.parties[d.turn]
            out: list[CrownAction]
            if d.step == 1:
                out = [_PLACES[s] for s, t in enumerate(d.tokens) if not t]
            elif d.step == 2:
                out = [_REMOVES[s] for s, t in enumerate(d.tokens) if t and s != d.placed]
            else:
                out = [_END]
            if p.tackle:
                out += tackle.reel_options(p)
                out += tackle.lure_options(p)
            return out
        if ph == "port":
            return port.legal(d)
        if ph == "route":
            return casting.legal(d, self.TABLES)
        if ph == "catch":
            if d.offer_tackle:
                return [TakeTackle(True), TakeTackle(False)]
            return catching.legal(d)
        if ph == "submit":
            assert d.cur is not None
            return list(contests.legal(d, self.TABLES, d.cur))
        if ph == "setup" or ph == "wait" or ph == "silent" or ph == "over":
            raise AssertionError(f"no decision in phase {ph}")  # chance or automatic work only
        assert_never(ph)

    def _chance_weights(self) -> list[tuple[CrownAction, int]]:
        return turns.chance_weights(self.data, self.TABLES)

    def _apply(self, a: CrownAction) -> None:
        d = self.data
        T = self.TABLES
        handler = _HANDLERS.get(type(a))
        if handler is None:
            turns.apply_chance(d, T, a)
        else:
            handler(d, T, a)
        turns.advance(d, T)

    def _redact(self, seat: int | None) -> CrownData:
        return redact(self.data, seat)

    def _scores(self) -> Scores:
        return scores(self.data, self.TABLES)

    def why_illegal(self, action: CrownAction) -> str:
        return explain.why_illegal(self, action)

    # ---- a view that advances itself (core/crown/sealing.py) ----------------------------
    SEALED = True

    def seen_outcome(self, outcome: CrownAction, seat: int | None) -> CrownAction:
        if self.data.cur != CHANCE or not self.is_legal(outcome):
            raise IllegalAction(f"'{outcome}' is not a chance outcome pending here")
        return sealing.seen_outcome(self.data, outcome, seat)

    def apply_seen(self, action: CrownAction, seat: int | None) -> None:
        blank = sealing.check_seen(self.data, action, seat)
        if blank is None:
            kept = self.data
            self.data = copy(kept)
            try:
                self.apply(sealing.heard(self.data, action))
            except IllegalAction:
                self.data = kept
                raise
        else:  # a piece this seat draws: the view draws a blank, then writes the kind in
            assert isinstance(action, TackleDraw) and action.kind is not None
            drawer = self.data.tasks[0].seat
            self.apply(blank)
            sealing.reveal(
                self.data, self.TABLES, ("tackle", drawer, len(self.data.parties[drawer].tackle) - 1), action.kind
            )
        self.data = sealing.forget(self.data, seat)
        self._legal = None
        self._legal_set = None

    def reveal(self, slot: Slot, value: object) -> None:
        sealing.reveal(self.data, self.TABLES, slot, value)
        self._legal = None
        self._legal_set = None

    def opens(self, action: CrownAction, seat: int | None) -> Openings:
        d = self.data
        if d.cur == CHANCE or d.cur is None:
            raise IllegalAction("only a player's action opens sealed values")
        here: CrownState = self
        canon = self._canonical(action)
        if canon is None and isinstance(action, CrownAction):
            # Another seat's view cannot see the pieces an action plays (its holder
            # shows them first): follow it as if they were the ones it names.
            filled = sealing.with_pieces(d, sealing.tackle_played(d, action))
            if filled is not None:
                here = type(self)(filled, ply=self.ply)
                canon = here._canonical(action)
        if canon is None:
            raise IllegalAction(f"'{action}' is not a player's legal move now")
        move = canon
        return sealing.opens(here.data, move, seat, lambda c: type(self)(c).apply_legal(move))

    def sealed_value(self, slot: Slot) -> object:
        return sealing.sealed_value(self.data, slot)

    def describe(self, action: CrownAction) -> str:
        return explain.describe(self, action)


def _space_action(d: CrownData, space: int, side: int) -> None:
    if anglers.is_port(space):
        port.start(d, side)
    else:
        casting.cast(d, anglers.space_colour(space), side)


def _place(d: CrownData, T: Tables, a: Place) -> None:
    s = SPACE_INDEX[a.space]
    _space_action(d, s, anglers.place(d, s))


def _remove(d: CrownData, T: Tables, a: Remove) -> None:
    s = SPACE_INDEX[a.space]
    _space_action(d, s, anglers.remove(d, s))


def _end(d: CrownData, T: Tables, a: EndTurn) -> None:
    anglers.flip_removed(d)
    end_of_turn(d)


def _skip(d: CrownData, T: Tables, a: Skip) -> None:
    d.port_left -= 1


def _submit(d: CrownData, T: Tables, a: Submit) -> None:
    assert d.cur is not None
    contests.submit(d, d.cur, a)


# Keyed by the action's class: each handler takes that class (Any: a dict cannot say so).
_HANDLERS: dict[type, Callable[[CrownData, Tables, Any], None]] = {
    Place: _place,
    Remove: _remove,
    EndTurn: _end,
    Fill: lambda d, T, a: port.fill(d, a.zone),
    Take: lambda d, T, a: port.take(d, a.card),
    TakeTop: lambda d, T, a: port.take_top(d),
    Skip: _skip,
    Route: lambda d, T, a: casting.route(d, T, a.card),
    Discard: lambda d, T, a: casting.discard_one(d),
    Catch: lambda d, T, a: catching.catch(d, T, a),
    Zone6: lambda d, T, a: catching.zone6(d, T),
    Lose: lambda d, T, a: catching.lose(d, a.zone),
    TakeTackle: lambda d, T, a: tackle.answer_offer(d, a.take),
    Reel: lambda d, T, a: tackle.play_reel(d, COLOUR_INDEX[a.colour], a.a, a.b),
    Lure: lambda d, T, a: tackle.play_lure(d, a.a, COLOUR_INDEX[a.ca], a.b, COLOUR_INDEX[a.cb]),
    SilentDraws: lambda d, T, a: practice_pond.choose_draws(d, a.n),
    WhiteOption: lambda d, T, a: practice_pond.white_option(d, a.choice),
    Submit: _submit,
}
assert not set(_HANDLERS) & set(CHANCE_TYPES)
