"""The review's grades, as a chess player knows them: labels, accuracy, one numbering, the
win-chance series, and what the better choice gains (issue 48; docs/coach.md, "Grades").

Built on what :mod:`.review` and :mod:`.luck` measured; nothing here plays a position.

- **Labels.** A decision is an *inaccuracy*, a *mistake* or a *blunder* by the win chance
  it gave up (``win_before − win_after``): lichess's thresholds, 0.1/0.2/0.3 on its −1…1
  scale, are 5, 10 and 15 percentage points here. A decision whose points behind are within
  :data:`NOISE` standard errors of 0 is never labelled, whatever the drop.
- **Accuracy** per seat, lichess's formula on the win-chance scale (0–100): a decision's
  accuracy is ``103.1668 · e^(−0.04354 · drop%) − 3.1669 + 1``, clamped to 0–100 (the +1
  is lichess's allowance for imperfect analysis; a drop within noise counts 0), and the
  game's is the mean of the volatility-weighted mean and the harmonic mean, as lichess
  does, the weights from the spread of the seat's win chance over a sliding window.
- **Numbering.** Every place says "round R, turn T, move M": round and turn are the record's
  clock (:mod:`.clock`), and move M is the decision's number among all decisions of the
  game (record entries made by a seat, forced ones too), as the replay counts moves.

Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from .clock import Clock
from .luck import ChanceLuck
from .record import GameRecord
from .state import CHANCE

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "NOISE",
    "Moves",
    "accuracy",
    "label",
    "move_accuracy",
    "why",
    "win_series",
]

INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.15
"""Win-chance drops (0–1) from which a decision is labelled (lichess's 0.1/0.2/0.3 on −1…1)."""

NOISE = 2.0
"""Standard errors a decision's points behind must clear before it is labelled at all."""

LABELS = ("inaccuracy", "mistake", "blunder")


def _behind(d: Any) -> tuple[float, float]:
    """(points behind, its standard error): the confirmed figure where there is one."""
    return (d.loss, d.loss_se) if d.confirmed else (d.behind, d.behind_se)


def clear(d: Any) -> bool:
    """The decision is behind the evaluator's choice by more than its noise."""
    amount, se = _behind(d)
    return amount > 0 and amount > NOISE * se


def drop(d: Any) -> float:
    """The win chance the decision gave up (0–1), 0 where that is within the noise."""
    return max(0.0, d.win_before - d.win_after) if clear(d) else 0.0


def label(d: Any) -> str:
    """'inaccuracy', 'mistake', 'blunder', or '' for a decision (a ``DecisionReview``)."""
    x = drop(d)
    if x >= BLUNDER:
        return "blunder"
    if x >= MISTAKE:
        return "mistake"
    if x >= INACCURACY:
        return "inaccuracy"
    return ""


def move_accuracy(drop_pct: float) -> float:
    """Lichess's accuracy of one move from the win-chance points (0–100) it gave up."""
    if drop_pct <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop_pct) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def accuracy(reviewed: Sequence[Any]) -> float:
    """A seat's accuracy (0–100) over its reviewed decisions, in order; 100 with none.

    Lichess's game accuracy: the mean of the volatility-weighted mean and the harmonic mean
    of the moves' accuracies (a weight is the standard deviation of the seat's win chance,
    in points, over a window around the move, clamped to 0.5–12)."""
    if not reviewed:
        return 100.0
    accs = [move_accuracy(100 * drop(d)) for d in reviewed]
    wins = [100 * d.win_before for d in reviewed]
    n = len(wins)
    size = max(2, min(8, n // 10))
    weights = []
    for i in range(n):
        lo = max(0, min(i - size // 2, n - size))
        win = wins[lo : lo + size] or wins
        m = sum(win) / len(win)
        sd = math.sqrt(sum((x - m) ** 2 for x in win) / len(win))
        weights.append(max(0.5, min(12.0, sd)))
    weighted = sum(a * w for a, w in zip(accs, weights)) / sum(weights)
    harmonic = len(accs) / sum(1 / max(a, 1e-9) for a in accs)
    return round((weighted + harmonic) / 2, 2)


class Moves:
    """One numbering for a record: ``moves.before[p]`` is how many decisions were made to reach
    position ``p``; the decision made at position ``p`` is move ``before[p] + 1``."""

    def __init__(self, record: GameRecord) -> None:
        self.before = [0]
        for e in record.entries:
            self.before.append(self.before[-1] + (e.seat != CHANCE))
        self.total = self.before[-1]

    def move(self, ply: int) -> int:
        """The move made at position `ply` (a decision); a chance event there belongs to the
        move before it (the one that set it off)."""
        ply = max(0, min(ply, len(self.before) - 1))
        return self.before[ply] + 1

    def after(self, ply: int) -> int:
        """Moves made by the position after entry `ply` (what the replay shows there)."""
        return self.before[max(0, min(ply + 1, len(self.before) - 1))]

    def where(self, round: int, turn: int, ply: int) -> str:
        """'round 3, turn 12, move 41' for the decision made at `ply`."""
        return f"round {round}, turn {turn}, move {self.move(ply)}"

    def where_clock(self, clock: Clock, ply: int) -> str:
        return self.where(clock.round, clock.turn, ply)


def win_series(
    seat: int,
    decisions: Sequence[Any],
    events: Sequence[ChanceLuck],
    moves: Moves,
    chance: Callable[[float], float],
) -> list[tuple[int, float, int]]:
    """`seat`'s win chance through the game: (move, chance, ply), in order of the record.

    A point after each of its reviewed decisions (the evaluator's worth with the choice made)
    and after each chance event whose outcomes it could tell apart (the worth of the outcome
    that came, played to the end), each turned into a chance by `chance` (the fitted curve)."""
    pts: list[tuple[int, float, int]] = []
    for d in decisions:
        if d.seat == seat:
            pts.append((d.ply + 1, d.win_after, moves.move(d.ply)))
    for e in events:
        if seat < len(e.worth) and e.seen[seat]:
            pts.append((e.ply + 1, chance(e.worth[seat]), moves.after(e.ply)))
    pts.sort()
    return [(m, round(c, 4), p) for p, c, m in pts]


def _fmt(x: float, unit: str) -> str:
    return f"{x:.1f} {unit}"


def why(d: Any, unit: str, term: Callable[[str], str] | None = None, rival: str = "your best rival") -> str:
    """What the better choice gains, in second person and the score sheet's words:
    'You would have scored 4.1 points more from the Lake contest, and your best rival
    1.2 fewer.' `term` names a category as the table does (the engine's name by default);
    empty where the decision carries no breakdown (it was not confirmed)."""
    if not d.gains:
        return ""
    name = term or (lambda c: c)
    parts = sorted(((g, c) for g, c in zip(d.gains, d.categories) if abs(g) >= 0.3), key=lambda t: -t[0])
    gains = [f"{_fmt(g, unit)} more from {name(c)}" for g, c in parts if g > 0][:2]
    costs = [f"{_fmt(-g, unit)} less from {name(c)}" for g, c in parts if g < 0][-1:]
    said = []
    if gains:
        said.append("you would have scored " + " and ".join(gains))
    if d.rival_gain >= 0.3:
        said.append(f"{rival} would have ended {d.rival_gain:.1f} lower")
    if costs and said:
        said.append(f"for {costs[0]}")
    if not said:
        return f"The better choice was worth {_fmt(d.loss, unit)} more in small gains all over."
    text = ", ".join(said)
    return text[0].upper() + text[1:] + "."
