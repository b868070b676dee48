"""``coldwater review FILE --json``: one object a reviewed seat, built here so the command (and
any other front end) only prints it. The fields and formulas are in docs/coach.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from . import evaluate, grading
from .luck import ChanceLuck, SeatLuck, final_result, seat_luck
from .record import GameRecord, initial_state
from .review import SeatReview
from .state import Game


def chance_curve(record: GameRecord, game: Game[Any, Any]) -> Any:
    """The win-chance curve of this game's setup (:func:`.evaluate.win_chance` bound to its key)."""
    key = evaluate.fit_key(game.name, initial_state(record, game)[1])
    return lambda points: evaluate.win_chance(key, points)


def lucks(record: GameRecord, game: Game[Any, Any], events: Sequence[ChanceLuck]) -> list[SeatLuck]:
    """Every seat's luck over the game, from every event's."""
    result = final_result(record, game)
    return [seat_luck(s, result[s], events) for s in range(record.players)]


def moment(sl_ply: int, events: Sequence[ChanceLuck], seat: int, moves: grading.Moves) -> dict[str, Any] | None:
    ev = next((e for e in events if e.ply == sl_ply), None)
    if ev is None:
        return None
    return {"ply": ev.ply, "move": moves.after(ev.ply), "outcome": ev.outcome, "luck": round(ev.luck[seat], 2)}


def seat_json(
    sr: SeatReview,
    name: str,
    record: GameRecord,
    game: Game[Any, Any],
    events: Sequence[ChanceLuck],
    luck: SeatLuck | None = None,
) -> dict[str, Any]:
    """The JSON object of one seat's review (its decisions, grades, luck and win-chance series)."""
    moves = grading.Moves(record)
    if luck is None:
        luck = lucks(record, game, events)[sr.seat]
    series = grading.win_series(sr.seat, sr.reviewed, events, moves, chance_curve(record, game))
    worst = []
    for d in sr.worst:
        w = {k: v for k, v in msgspec.to_builtins(d).items() if k != "choices"}
        w["loss"] = round(d.loss, 2)
        w["move"] = moves.move(d.ply)
        w["where"] = moves.where(d.round, d.turn, d.ply)
        w["label"] = grading.label(d)
        w["why"] = grading.why(d, game.unit)
        worst.append(w)
    labels = {k: sum(1 for d in sr.reviewed if grading.label(d) == k) for k in grading.LABELS}
    return {
        "game": sr.game,
        "seat": sr.seat + 1,
        "name": name,
        "decisions": sr.decisions,
        "total_loss": round(sr.total_loss, 2),
        "mean_loss": round(sr.mean_loss, 3),
        "points_behind": round(sr.points_behind, 2),
        "points_behind_se": round(sr.points_behind_se, 2),
        "accuracy": grading.accuracy(sr.reviewed),
        "labels": labels,
        "result": round(luck.result, 2),
        "luck": round(luck.luck, 2),
        "luck_se": round(luck.luck_se, 2),
        "luck_adjusted": round(luck.luck_adjusted, 2),
        "luckiest": moment(luck.luckiest, events, sr.seat, moves),
        "unluckiest": moment(luck.unluckiest, events, sr.seat, moves),
        "win_chance": [[m, c] for m, c, _ in series],
        "worst": worst,
    }
