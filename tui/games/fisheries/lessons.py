"""Learn to play Fisheries of Gloucester: a lesson for each kind of decision and for the flow.

Written from the rulebook's day (Take Ocean Tiles, Add Time, Taking Turns,
Ending the Day), its four actions with their examples, the Fleet Rule, the
lobster's double turn, Preserve's card requirements and icons, and Game End.
See ``coldwater.tui.tutor`` for how the tutor picks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from coldwater.core.fisheries.actions import CODEC, Flip, Reveal, Start, Stock
from coldwater.core.fisheries.model import Data
from coldwater.core.notation import Action
from coldwater.core.state import State
from coldwater.tui.tutor import Lesson, closing_lesson, decision_kinds, plural, seat_to_move

GAME: Final = "fisheries"
KINDS: Final = decision_kinds(CODEC.types, (Start, Stock, Reveal, Flip))
FLOW: Final = ("flow.day", "flow.overnight", "flow.end")
GENTLE_LOSS: Final = 0.7
"""A gentle word only this far below the best: the greedy ranks its own pick 1.0 and every other
move by its kind (preserve 0.8 … end the day 0.3), so 0.7 is a low kind of move where it saw a
clearly better one."""
SAME: Final[dict[str, str]] = {}
SEED: Final = "learn-fisheries"
"""The first game's fixed seed (tutor.Book)."""
FIRST_OPTIONS: Final[dict[str, Any]] = {}
"""The base rules: board A, no market variant."""
HINT_LOSS: Final = 4.0
"""A greedy player clearly gives this up in 10% of its decisions (a random player in 7%: the greedy
bot's slips are as costly as random's, as the review found)."""
BOT_LOSS: Final = {"random": 1.16, "greedy": 0.41, "hard": 0.17}
"""Points behind the evaluator per decision (tui/coachfigures.py); three games a level."""
DAYS: Final = 6


def _d(view: State[Any, Any]) -> Data:
    d: Data = view.data
    return d


def teach(kind: str, view: State[Any, Any], acts: Sequence[Action]) -> Lesson:
    d = _d(view)
    s = seat_to_move(view)
    hours = d.time[s]
    if kind == "chart":
        tiles = sum(d.supply[s])
        return Lesson(
            kind,
            "Chart a Course (free)",
            f"Place one ocean tile from your supply ({tiles} tiles) on calm water next to any ship (not "
            "diagonally), yours or your rival's; never over fish, islands, shore, ships or rough water. Ships "
            "never sail on calm water, so charting builds the sea lanes. One tile a turn, no hours.",
            "board",
            {"tiles": tiles},
        )
    if kind == "sail":
        return Lesson(
            kind,
            "Sail (1+ hours)",
            f"You have {plural(hours, 'hour')}. Move one ship along tiles: 1 hour a space, 2 to enter rough "
            "water or to pass through a ship. An island costs 1 hour; the ship stays there and scores its helms "
            "at the end. No ship may go more than 3 columns past your leftmost one.",
            "board",
            {"hours": hours},
        )
    if kind == "fish":
        n = len(acts)
        return Lesson(
            kind,
            "Fish (1 hour a fish)",
            f"Take fish next to your ships (not diagonally), 1 hour each; fish you can take now: {n}; you have "
            f"{plural(hours, 'hour')}. Fishing is one action however many fish you take: choose Done to stop.",
            "board",
            {"fish": n, "hours": hours},
        )
    if kind == "preserve":
        have = sum(d.catch[s])
        return Lesson(
            kind,
            "Preserve fish (once a day, free)",
            f"Discard fish from your board ({have} now) as a card asks (N of one kind, N different, or one of "
            "a colour) to take it: its points count at the end, and its icons may give hours, a sail or a tile "
            f"now. Ways open now: {len(acts)}.",
            "choices",
            {"fish": have, "ways": len(acts)},
        )
    if kind == "bsail":
        return Lesson(
            kind,
            "The card's ship icon",
            f"Move one of your ships up to {plural(d.bonus_move, 'space')}, following the sailing rules, "
            "free; hours cannot make it go further. You need not move.",
            "board",
            {"move": d.bonus_move},
        )
    if kind == "btile":
        return Lesson(
            kind,
            "The card's tile icon",
            "Place the card's ocean tile from the general supply, by the charting rules, before or after the "
            "ship's move. You may skip it.",
            "board",
        )
    if kind == "done":
        return Lesson(
            kind, "Done", "Stop here: no more fish this action (or skip the rest of the card's icons).", "choices"
        )
    if kind == "lobster":
        return Lesson(
            kind,
            "The lobster's double turn",
            f"You hold {d.lobster[s]} lobster. Discard it to take another action at once: two actions in a row, "
            "before your rival answers. It does not let you preserve twice in a day.",
            "choices",
            {"lobsters": d.lobster[s]},
        )
    if kind == "pass":
        return Lesson(kind, "Keep the lobster", "Pass keeps your lobster for a better moment.", "choices")
    if kind == "end":
        first = not any(d.ended)
        if d.day >= DAYS:
            why = "It is the last day: once you both end it, the game is scored."
        elif first:
            why = (
                "You would end first: you take the initiative and choose to go first tomorrow (+6 hours) "
                "or second (+7)."
            )
        else:
            why = "Your rival has ended; you may go on acting until you end too."
        return Lesson(
            kind,
            "End the day",
            f"Day {d.day} of {DAYS}; you have {plural(hours, 'hour')}. Unspent hours carry over, but no more "
            f"than 12 after tomorrow's are added. {why}",
            "status",
            {"day": d.day, "hours": hours},
        )
    if kind == "keep":
        tiles = sum(d.supply[s])
        return Lesson(
            kind,
            "Overnight: keep one tile",
            f"You may keep 1 of your {plural(tiles, 'ocean tile')} for tomorrow; the rest go back.",
            "choices",
            {"tiles": tiles},
        )
    if kind == "put":
        return Lesson(
            kind,
            "B-side setup",
            "Place the islands, rough water and fish where you see fit; keep the first two columns clear.",
            "board",
        )
    raise KeyError(f"no Fisheries of Gloucester lesson for {kind!r}")


def flow_due(view: State[Any, Any], seat: int) -> list[str]:
    d = _d(view)
    out = []
    if d.day >= 1:
        out.append("flow.day")
    if d.phase == "keep":
        out.append("flow.overnight")
    if d.day >= DAYS:
        out.append("flow.end")
    return out


def flow(key: str, view: State[Any, Any], seat: int) -> Lesson:
    d = _d(view)
    if key == "flow.day":
        return Lesson(
            key,
            "Fisheries: how a day goes",
            f"{DAYS} days. Each day a chart card gives both of you ocean tiles, and time is added (6 hours to "
            f"who goes first, 7 to the other, 12 at most; you have {d.time[seat]}). Then you take turns, one "
            "action each: "
            "chart, sail, fish or preserve, until both end the day.",
            "status",
            {"days": DAYS, "hours": d.time[seat]},
        )
    if key == "flow.overnight":
        return Lesson(
            key,
            "Overnight",
            f"Day {d.day} is over. Keep at most one ocean tile for tomorrow; your preservation cards are safe.",
            "choices",
            {"day": d.day},
        )
    if key == "flow.end":
        return Lesson(
            key,
            "The last day: how it scores",
            "This is the last day. At the end, add your preservation cards' points, their helm icons, and "
            "1 point per helm on each island your ships reached. Ties: most fish left on your board, then who "
            "took the initiative today.",
            "standings",
        )
    raise KeyError(f"no Fisheries of Gloucester lesson for {key!r}")


def closing(view: State[Any, Any], seat: int) -> Lesson:
    return closing_lesson(
        view,
        seat,
        "Fisheries of Gloucester",
        "Islands with many helms and the big preservation cards win games: chart toward them early. Next: "
        "Solo against a normal bot, or the Replays.",
    )
