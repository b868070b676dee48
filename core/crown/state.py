"""CrownState: the engine contract, dispatching each action to its rule module."""

from __future__ import annotations

from typing import Any, ClassVar

from coldwater.core.state import Scores, State

from . import anglers, casting, catching, contests, port, practice_pond, tackle, turns
from .actions import (
    CHANCE_TYPES, Catch, CrownAction, Discard, EndTurn, Fill, Lose, Lure, Place, Reel, Remove, Route,
    SilentDraws, Skip, Submit, Take, TakeTackle, TakeTop, WhiteOption, Zone6,
)
from .content import Tables
from .model import COLOUR_INDEX, SPACE_INDEX, CrownData
from .scoring import scores
from .views import redact


class CrownState(State[CrownAction, CrownData]):
    GAME = "crown"
    DATA = CrownData
    TABLES: ClassVar[Tables]

    __slots__ = ()

    @property
    def players(self) -> int:
        return self.data.players

    def _current(self) -> int | None:
        return self.data.cur

    def _legal_actions(self) -> list[CrownAction]:
        d = self.data
        if d.cur == turns.CHANCE:
            return [a for a, _ in turns.chance_weights(d, self.TABLES)]  # type: ignore[misc]
        if d.tasks and d.tasks[0].kind == "white_choice":
            return [WhiteOption("bait")] + ([WhiteOption("card")] if d.ma_deck else [])
        if d.tasks and d.tasks[0].kind == "silent_n":
            return [SilentDraws(1), SilentDraws(2)]
        ph = d.phase
        if ph == "idle":
            p = d.parties[d.turn]
            out: list[CrownAction]
            if d.step == 1:
                out = [Place(anglers_name(s)) for s in anglers.open_spaces(d)]
            elif d.step == 2:
                out = [Remove(anglers_name(s)) for s in anglers.removable_spaces(d)]
            else:
                out = [EndTurn()]
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
            return contests.legal(d, self.TABLES, d.cur)  # type: ignore[return-value]
        raise AssertionError(f"no decision in phase {ph}")

    def _chance_weights(self) -> list[tuple[CrownAction, int]]:
        return turns.chance_weights(self.data, self.TABLES)  # type: ignore[return-value]

    def _apply(self, a: CrownAction) -> None:
        d = self.data
        T = self.TABLES
        if isinstance(a, CHANCE_TYPES):
            turns.apply_chance(d, T, a)
        elif isinstance(a, Place):
            s = SPACE_INDEX[a.space]
            _space_action(d, s, anglers.place(d, s))
        elif isinstance(a, Remove):
            s = SPACE_INDEX[a.space]
            _space_action(d, s, anglers.remove(d, s))
        elif isinstance(a, EndTurn):
            from .endgame import end_of_turn

            anglers.flip_removed(d)
            end_of_turn(d)
        elif isinstance(a, Fill):
            port.fill(d, a.zone)
        elif isinstance(a, Take):
            port.take(d, a.card)
        elif isinstance(a, TakeTop):
            port.take_top(d)
        elif isinstance(a, Skip):
            d.port_left -= 1
        elif isinstance(a, Route):
            casting.route(d, T, a.card)
        elif isinstance(a, Discard):
            casting.discard_one(d)
        elif isinstance(a, Catch):
            catching.catch(d, T, a)
        elif isinstance(a, Zone6):
            catching.zone6(d, T)
        elif isinstance(a, Lose):
            catching.lose(d, a.zone)
        elif isinstance(a, TakeTackle):
            tackle.answer_offer(d, a.take)
        elif isinstance(a, Reel):
            tackle.play_reel(d, COLOUR_INDEX[a.colour], a.a, a.b)
        elif isinstance(a, Lure):
            tackle.play_lure(d, a.a, COLOUR_INDEX[a.ca], a.b, COLOUR_INDEX[a.cb])
        elif isinstance(a, SilentDraws):
            practice_pond.choose_draws(d, a.n)
        elif isinstance(a, WhiteOption):
            practice_pond.white_option(d, a.choice)
        elif isinstance(a, Submit):
            assert d.cur is not None
            contests.submit(d, d.cur, a)
        else:
            raise AssertionError(f"unhandled action {a!r}")
        turns.advance(d, T)

    def _redact(self, seat: int | None) -> CrownData:
        return redact(self.data, seat)

    def _scores(self) -> Scores:
        return scores(self.data, self.TABLES)

    def why_illegal(self, action: Any) -> str:
        from .explain import why_illegal

        return why_illegal(self, action)

    def describe(self, action: CrownAction) -> str:
        from .explain import describe

        return describe(self, action)


def anglers_name(space: int) -> str:
    from .model import SPACES

    return SPACES[space]


def _space_action(d: CrownData, space: int, side: int) -> None:
    if anglers.is_port(space):
        port.start(d, side)
    else:
        casting.cast(d, anglers.space_colour(space), side)
