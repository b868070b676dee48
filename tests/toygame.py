"""A tiny game that exercises the core contract without any real rules.

"Pig with a secret": seats take turns to roll a die (a chance node) or hold;
a 1 loses the turn's points. Each seat is dealt a secret bonus card at the start
(sealed: only its owner sees it) that counts at the end. First to 15 banked ends it.
Used to test the shared machinery (records, tables, the net layer) in isolation.
"""

from __future__ import annotations

from typing import Any

import msgspec

from coldwater.core.content import content_hash
from coldwater.core.notation import Action, Codec
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, GameBase, Scores, State, seed_text


class Roll(Action, frozen=True, tag="roll"):
    pass


class Hold(Action, frozen=True, tag="hold"):
    pass


class Die(Action, frozen=True, tag="die"):
    face: int


class Deal(Action, frozen=True, tag="deal"):
    seat: int
    card: int


ToyAction = Roll | Hold | Die | Deal


class ToyData(msgspec.Struct):
    players: int
    banked: list[int]
    secret: list[int | None]
    dealt: int = 0
    turn: int = 0
    pot: int = 0
    rolling: bool = False
    over: bool = False


class ToyOptions(msgspec.Struct):
    target: int = 15


class ToyState(State[ToyAction, ToyData]):
    GAME = "toy"
    DATA = ToyData
    CODEC = Codec([Roll, Hold, Die, Deal])

    @property
    def players(self) -> int:
        return self.data.players

    def _current(self) -> int | None:
        d = self.data
        if d.over:
            return None
        if d.dealt < d.players or d.rolling:
            return CHANCE
        return d.turn

    def _legal_actions(self) -> list[Any]:
        if self._current() == CHANCE:
            return [a for a, _ in self._chance_weights()]
        return [Roll(), Hold()]

    def _chance_weights(self) -> list[tuple[Any, int]]:
        d = self.data
        if d.dealt < d.players:
            return [(Deal(d.dealt, c), 1) for c in range(1, 4)]
        return [(Die(f), 1) for f in range(1, 7)]

    def _apply(self, a: Any) -> None:
        d = self.data
        if isinstance(a, Deal):
            d.secret[a.seat] = a.card
            d.dealt += 1
        elif isinstance(a, Roll):
            d.rolling = True
        elif isinstance(a, Die):
            d.rolling = False
            if a.face == 1:
                d.pot = 0
                d.turn = (d.turn + 1) % d.players
            else:
                d.pot += a.face
        elif isinstance(a, Hold):
            d.banked[d.turn] += d.pot
            d.pot = 0
            if d.banked[d.turn] >= 15:
                d.over = True
            d.turn = (d.turn + 1) % d.players

    def _redact(self, seat: int | None) -> ToyData:
        d = msgspec.structs.replace(self.data, banked=list(self.data.banked), secret=list(self.data.secret))
        if not d.over:
            d.secret = [v if i == seat else None for i, v in enumerate(d.secret)]
        return d

    def _scores(self) -> Scores:
        d = self.data
        rows = tuple((b, (s or 0) if d.over else 0) for b, s in zip(d.banked, d.secret))
        totals = tuple(sum(r) for r in rows)
        ranking = tuple(sorted(range(d.players), key=lambda i: (-totals[i], i)))
        return Scores(
            tuple(f"Seat {i + 1}" for i in range(d.players)),
            ("banked", "secret"),
            rows,
            totals,
            ranking,
            d.over,
            outcome=f"Seat {ranking[0] + 1} wins" if d.over else "",
        )


class ToyGame(GameBase[ToyState, ToyAction]):
    name = "toy"
    title = "Toy"
    min_players = 1
    max_players = 4
    options_type = ToyOptions
    state_type = ToyState
    bots = ("random",)

    @property
    def content_hash(self) -> str:
        return content_hash({"toy": 1})

    def new(self, players: int, seed: int | str | bytes | None = None, options: Any = None) -> ToyState:
        self.check_players(players)
        self.make_options(options)
        return ToyState(ToyData(players, [0] * players, [None] * players), seed=seed_text(seed))

    def determinize(self, view: ToyState, rng: Rng) -> ToyState:
        s = view.clone()
        s.data.secret = [v if v is not None else rng.randint(1, 3) for v in s.data.secret]
        return s

    def bot(self, name: str) -> Any:
        from coldwater.core.bots import RandomBot

        return RandomBot()

    def with_content(self, given: Any) -> ToyGame:
        raise ValueError("the toy game has no content files")


GAME = ToyGame()
