"""The Review screen's words (pure: no Textual), so they test without a terminal.

One numbering everywhere: "round R, turn T, move M" (:class:`coldwater.core.grading.Moves`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from coldwater.core import games, grading
from coldwater.core.luck import SeatLuck, luck_line
from coldwater.core.review import DecisionReview, SeatReview
from coldwater.tui import coachfigures
from coldwater.tui.screens.table import with_names


def unit(game: str) -> str:
    """What the game's points are called (the engine's ``Game.unit``: "PP" in one game)."""
    return games.get(game).unit if game in games.names() else "points"


def where(d: DecisionReview, moves: grading.Moves | None) -> str:
    if moves is None:
        return f"round {d.round}, turn {d.turn}"
    return moves.where(d.round, d.turn, d.ply)


def entry_text(d: DecisionReview, names: list[str], game: str, seat: int, moves: grading.Moves | None = None) -> str:
    """'Mistake · round 2, turn 3, move 17: Ann places a 2 on the red space. Better: places a 2
    on the port space, ~9.2 ± 1.0 points more'."""
    chosen = with_names(d.chosen_text, names)
    best = with_names(d.best_text, names)
    who = names[seat] + " " if 0 <= seat < len(names) else ""
    if who and best.startswith(who):  # the engine names the seat; once is enough
        best = best[len(who) :]
    tag = grading.label(d)
    head = f"{tag.capitalize()} · " if tag else ""
    return f"{head}{where(d, moves)}: {chosen}. Better: {best}, ~{d.loss:.1f} ± {d.loss_se:.1f} {unit(game)} more"


PLURAL = {"inaccuracy": "inaccuracies"}


def label_counts(r: SeatReview) -> str:
    """'2 mistakes, 1 inaccuracy' (the labels of every decision), or 'no labels'."""
    parts = []
    for tag in reversed(grading.LABELS):
        n = sum(1 for d in r.reviewed if grading.label(d) == tag)
        if n:
            parts.append(f"{n} {tag}" if n == 1 else f"{n} {PLURAL.get(tag, tag + 's')}")
    return ", ".join(parts) if parts else "no labels"


def seat_line(r: SeatReview, name: str) -> str:
    """'Ann: accuracy 87 · 13.0 ± 9.8 points behind in 23 decisions · 1 mistake' (points
    behind the evaluator's own choices, summed over the decisions reviewed)."""
    if not r.decisions:
        return f"{name} had no decision with more than one choice to review."
    return (
        f"{name}: accuracy {grading.accuracy(r.reviewed):.0f} · {r.points_behind:.1f} ± {r.points_behind_se:.1f} "
        f"{unit(r.game)} behind in {r.decisions} decisions · {label_counts(r)}"
    )


def summary_text(
    reviews: dict[int, SeatReview],
    lucks: Sequence[SeatLuck],
    names: list[str],
    seat: int,
    players: int,
    game: str,
    solo: bool = False,
    reference: bool = True,
    waiting: bool = True,
) -> str:
    """Every seat's line (the reviewed seat first), its luck beneath it, and (`reference`) the
    bot levels' own figures; a seat not reviewed says whether it is coming (`waiting`)."""
    lines = []
    for s in [seat, *(x for x in range(players) if x != seat)]:
        r = reviews.get(s)
        if r is not None:
            lines.append(seat_line(r, names[s]))
        else:  # still to come, or not asked for (the end screen's drill reviews one seat)
            lines.append(f"{names[s]}: {'reviewing…' if waiting else 'not reviewed'}")
        if s < len(lucks):
            sl = lucks[s]
            if s == seat:
                lines.append("  " + luck_line(sl, unit(game), "you", solo=solo))
            else:  # the others' luck in a line each, so every seat fits at 80×24
                lines.append(f"  luck {sl.luck:+.1f} ± {sl.luck_se:.1f}; on skill {sl.luck_adjusted:+.1f} {unit(game)}")
    main = reviews.get(seat)
    if main is not None and main.decisions and not main.worst:
        lines.append("No choice had a better alternative confirmed.")
    ref = coachfigures.comparison(game) if reference else ""
    return "\n".join(lines) + (f"\n{ref}" if ref else "")


def coach_note(
    d: DecisionReview,
    names: list[str],
    game: str,
    term: Callable[[str], str],
    rival: str,
    moves: grading.Moves | None = None,
) -> str:
    """What the replay says at a reviewed decision: where (the one numbering), the choice, the
    better one, and why."""
    u = unit(game)
    tag = grading.label(d)
    note = (
        f"Review{' · ' + tag if tag else ''} · {where(d, moves)}: here {with_names(d.chosen_text, names)}.\n"
        f"Better: {with_names(d.best_text, names)} (~{d.loss:.1f} ± {d.loss_se:.1f} {u} more; "
        f"win chance {d.win_after:.0%} → {d.win_before:.0%}), marked • on the board."
    )
    reason = grading.why(d, u, term, rival)
    return note + (f"\nWhy: {reason}" if reason else "")
