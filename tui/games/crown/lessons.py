"""Learn to play Coldwater Crown: a lesson for each kind of decision and for the flow.

Written from the rulebook's Turn Steps, Spaces & Actions chart, Catching Fish,
Zone 5/6 bonuses, Tackle, Contests, Game End and Scoring, and its Gameplay
Examples 1-4 (the numbers come from the position, not the examples). See
``coldwater.tui.tutor`` for how the tutor picks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from coldwater.core.crown.actions import ACTION_TYPES, CHANCE_TYPES, Catch, Fill, Lose, Route, Submit
from coldwater.core.crown.model import (
    COLOUR_LOCATION,
    COLOURS,
    CONTEST_ORDER,
    LOCATION_INDEX,
    LOCATION_TITLES,
    CrownData,
)
from coldwater.core.notation import Action
from coldwater.core.state import State
from coldwater.tui.tutor import Lesson, closing_lesson, decision_kinds, plural, seat_to_move

GAME: Final = "crown"
KINDS: Final = decision_kinds(ACTION_TYPES, CHANCE_TYPES)
FLOW: Final = ("flow.turn", "flow.catch", "flow.end", "flow.scoring")
GENTLE_LOSS: Final = 1.5
"""A gentle word only this far below the best: the greedy values put a new fish at about 2.5
and a bait's progress at 0.4, so 1.5 is about a fish given away, never a close call."""
SAME: Final = {"taketop": "take", "discard": "route"}
SEED: Final = "learn-crown"
"""The first game's fixed seed (tutor.Book)."""
FIRST_OPTIONS: Final[dict[str, Any]] = {}
"""The base rules; two players, never Practice Pond: a first game should meet the turn a real
opponent plays (tokens left on the board, contests), not the silent player's rules."""
HINT_LOSS: Final = 3.0
"""A greedy player clearly gives this up in 11% of its decisions (a random player in 9%: the greedy
bot's slips are as costly as random's, as the review found)."""
BOT_LOSS: Final = {"random": 0.56, "greedy": 0.35, "hard": 0.03}
"""Points behind the evaluator per decision (tui/coachfigures.py); three games a level."""

_HOME = "Purple and green bait fish the Shore, black and yellow the River, blue and red the Lake."


def _d(view: State[Any, Any]) -> CrownData:
    d: CrownData = view.data
    return d


def _species(name: str) -> str:
    return name.replace("_", " ").title()


def teach(kind: str, view: State[Any, Any], acts: Sequence[Action]) -> Lesson:
    d = _d(view)
    p = d.parties[seat_to_move(view)]
    if kind == "place":
        n = len(acts)
        return Lesson(
            kind,
            "Step 1: place your Angler token",
            f"Your token shows its {p.token}-side; {n} spaces are open. A colour space casts that colour's bait "
            "from your Zones: one from each Zone with a 1, all of it with a 2. Port fills a Zone with bait or "
            "takes a Master Angler card (two of these with a 2). Emptying a Zone catches a fish.",
            "board",
            {"side": p.token, "open": n},
        )
    if kind == "remove":
        n = len(acts)
        return Lesson(
            kind,
            "Step 2: remove another token",
            f"Take one of the {plural(n, 'other token')} off the board (not the one you just placed) and take "
            "its space's action with the side that token shows. You keep it, flipped, for your next turn: "
            "a 1 becomes a 2, a 2 a 1. So removing a 1 now gives you a strong 2 next turn.",
            "board",
            {"tokens": n},
        )
    if kind == "end":
        return Lesson(
            kind,
            "Step 3: end your turn",
            "Press e to end the turn: the token you removed is flipped for next time. Tackle you may still "
            "play (a Reel or a Lure) is listed beside End turn.",
            "choices",
        )
    if kind == "fill":
        zones = [sum(z) for z in p.zones]
        have = ", ".join(f"Zone {z}: {n}" for z, n in zip((3, 4, 5, 6), zones, strict=True))
        fills = [a.zone for a in acts if isinstance(a, Fill)]
        return Lesson(
            kind,
            "Port: fill a Zone with bait",
            f"Filling draws bait from the bag until Zone N holds N bait. Your Zones hold {have}. "
            f"You can fill Zone {', '.join(map(str, fills)) or '-'} now. If the clear-white bait comes out, "
            "the discard pile goes back into the bag first.",
            "player",
            {"zone3": zones[0], "zone4": zones[1], "zone5": zones[2], "zone6": zones[3]},
        )
    if kind in ("take", "taketop"):
        return Lesson(
            kind,
            "Port: take a Master Angler card",
            f"You attempt {plural(len(p.ma), 'Master Angler card')} (at most 3, never given up); "
            f"{len(d.ma_row)} lie face up, or take the deck's top. Cast bait can go on a card's spots of its "
            "colour instead of the discard. A full card is caught: 1 point, and it counts toward Three Same "
            "and Four Different (2 points each).",
            "board",
            {"attempting": len(p.ma), "row": len(d.ma_row)},
        )
    if kind == "skip":
        return Lesson(
            kind,
            "Port: nothing to take",
            "Every Zone is full and no card can be taken: skip this Port action.",
            "choices",
        )
    if kind in ("route", "discard"):
        colour = COLOURS[d.colour]
        spots = [a.card for a in acts if isinstance(a, Route)]
        return Lesson(
            kind,
            "Where does the cast bait go?",
            f"You cast a {colour} bait: it goes on an open {colour} spot of a Master Angler card you attempt, or "
            f"to the discard pile. Your cards with an open {colour} spot: {len(spots)}. "
            "Bait on a card stays there until the card is full.",
            "choices",
            {"colour": colour, "cards": len(spots)},
        )
    if kind == "catch":
        pend = d.pending[0] if d.pending else None
        if pend is None:
            return Lesson(
                kind,
                "Catch a fish",
                "An emptied Zone catches the fish of the same Zone at the location of the last bait's colour. " + _HOME,
                "board",
            )
        zone, colour = pend.zone, COLOURS[pend.colour]
        loc = COLOUR_LOCATION[pend.colour]
        fish = d.zones[loc][zone - 3]
        what = f"the {_species(fish.species)}" if fish is not None else "no fish"
        others = sum(1 for a in acts if isinstance(a, Catch) and (LOCATION_INDEX[a.loc], a.at) != (loc, zone))
        tackle = (
            f" Your tackle opens {plural(others, 'other spot')} (Rod: another location; Line: a Zone next to it)."
            if others
            else ""
        )
        return Lesson(
            kind,
            "Catch a fish",
            f"Zone {zone} is empty now, so you catch from Zone {zone} of the {LOCATION_TITLES[loc]}, the location "
            f"of the last bait's colour ({colour}): {what}. Only you see its weight.{tackle} {_HOME}",
            "board",
            {"zone": zone, "colour": colour, "location": LOCATION_TITLES[loc]},
        )
    if kind == "zone6":
        pend = next((x for x in d.pending if x.zone == 6), None)
        loc = COLOUR_LOCATION[pend.colour] if pend is not None else 0
        top = d.tops[loc]
        what = f"a {_species(top.species)}" if top is not None else "unknown"
        return Lesson(
            kind,
            "Zone 6 bonus",
            f"You emptied Zone 6: instead of the fish in Zone 6 you may catch the top card of the "
            f"{LOCATION_TITLES[loc]} deck ({what}), the deck of your bait's colour. Handy when Zone 6 holds a "
            "species you already have.",
            "board",
            {"location": LOCATION_TITLES[loc]},
        )
    if kind == "lose":
        zones = sorted({a.zone for a in acts if isinstance(a, Lose)})
        z = zones[0] if zones else 3
        return Lesson(
            kind,
            "No fish to catch",
            f"The Zone {z} spot you fish holds no fish (its deck ran out): this catch is lost.",
            "board",
            {"zone": z},
        )
    if kind == "tackle":
        return Lesson(
            kind,
            "Zone 5 bonus: tackle",
            f"You emptied Zone 5: you may take the top tackle piece. You hold {len(p.tackle)}. A Rod or a Line "
            "changes which fish you catch; a Reel casts two bait of one colour; a Lure swaps two bait. "
            "Only you see it; play it from your next Step on.",
            "choices",
            {"held": len(p.tackle)},
        )
    if kind == "reel":
        return Lesson(
            kind,
            "Tackle: a Reel",
            "A Reel takes two bait of one colour off your board, from any Zones. If that empties a Zone, you "
            "catch its fish, as when casting. Play it when it empties a Zone you want.",
            "player",
        )
    if kind == "lure":
        return Lesson(
            kind,
            "Tackle: a Lure",
            "A Lure swaps two bait of different colours between two of your Zones: it can line a Zone up to be "
            "emptied by one colour, or move a colour off a Zone you want to keep.",
            "player",
        )
    if kind == "silent":
        return Lesson(
            kind,
            "Practice Pond: the silent player",
            "You have fewer fish than the silent player: choose whether it draws 1 or 2 bait this turn.",
            "choices",
        )
    if kind == "white":
        return Lesson(
            kind,
            "Practice Pond: clear-white bait",
            "The silent player drew the clear-white bait and took the top Master Angler card. Choose: it takes a "
            "second card, or 7 bait go from the bag to the discard pile.",
            "choices",
        )
    if kind == "submit":
        loc = CONTEST_ORDER[d.contest] if d.contest < 3 else 0
        where = LOCATION_TITLES[loc]
        species = sorted({a.species for a in acts if isinstance(a, Submit)})
        stack = (d.stacks.shore, d.stacks.river, d.stacks.lake)[loc]
        prizes = ", ".join(map(str, stack)) or "none left"
        return Lesson(
            kind,
            f"The {where} contest",
            f"Submit one fish of each {where} species you caught ({len(species)} here). The heaviest total "
            f"takes the top trophy, the next the next (points: {prizes}); a tie goes to the earliest timestamp. "
            "Submit the heaviest fish of each species, as the rulebook advises. Submit nothing, win nothing.",
            "choices",
            {"location": where, "species": len(species), "trophies": prizes},
        )
    raise KeyError(f"no Coldwater Crown lesson for {kind!r}")


def flow_due(view: State[Any, Any], seat: int) -> list[str]:
    d = _d(view)
    out = []
    if d.phase not in ("setup", "wait"):
        out.append("flow.turn")
    if d.parties[seat].fish:
        out.append("flow.catch")
    # The end is taught on the learner's last turn: the one after a rival triggered it, or
    # the learner's own turn in which they reach 12 fish (or a location runs dry), while
    # "e" is still theirs to press -- not after, once only the contests are left.
    triggers_now = d.turn == seat and (len(d.parties[seat].fish) >= 12 or d.restock_failed)
    if d.end_triggered or triggers_now or d.phase == "submit":
        out.append("flow.end")
    if d.phase == "submit":
        out.append("flow.scoring")
    return out


def flow(key: str, view: State[Any, Any], seat: int) -> Lesson:
    d = _d(view)
    p = d.parties[seat]
    if key == "flow.turn":
        return Lesson(
            key,
            "Coldwater Crown: how a turn goes",
            f"{d.players} players take turns. Each turn: place your Angler token, remove another, end. Each "
            "token you place or remove casts bait from your player board or takes Port actions. Empty a Zone "
            "to catch a fish. Points come from trophies, contests, Master Angler cards and tagged fish.",
            "board",
            {"players": d.players},
        )
    if key == "flow.catch":
        mw = f"the top tile says {d.mw_top} lbs" if d.mw_top is not None else "no tile is showing"
        small = str(d.stacks.small_species[0]) if d.stacks.small_species else "all taken"
        fast = str(d.stacks.fastest_to_8[0]) if d.stacks.fastest_to_8 else "all taken"
        return Lesson(
            key,
            "Trophies while you fish",
            f"You have {len(p.fish)} fish. A fish of exactly the Mystery Weight wins its 1-point tile ({mw}). "
            f"A Roach, a Perch and a Flounder win Small Species ({small}); 8 species, Fastest to 8 ({fast}); "
            "12 fish, First to 12 (2), which starts the end.",
            "standings",
            {"fish": len(p.fish), "small": small, "fastest": fast},
        )
    if key == "flow.end":
        yours = not d.end_triggered and d.turn == seat and d.phase != "submit"
        why = (
            "When you end this turn the end is triggered (you have 12 fish, or a location could not be "
            "restocked): every other player has one final turn."
            if yours
            else "Someone has 12 fish, or a location could not be restocked: every other player has one final "
            "turn, so this may be your last."
        )
        return Lesson(
            key,
            "The end is coming",
            f"{why} Then the Shore, Lake and River contests, in that order, weigh the one fish of each species "
            "each player submits.",
            "status",
        )
    if key == "flow.scoring":
        tag = d.tag or "none"
        return Lesson(
            key,
            "How Coldwater Crown scores",
            "Trophies count their face value, each caught Master Angler card 1 point, and each submitted fish "
            f"whose tag matches the Tag tile 1 point (the tile is {tag}). Unfinished cards score nothing. "
            "A tie goes to the earliest timestamp submitted.",
            "standings",
            {"tag": tag},
        )
    raise KeyError(f"no Coldwater Crown lesson for {key!r}")


def closing(view: State[Any, Any], seat: int) -> Lesson:
    return closing_lesson(
        view,
        seat,
        "Coldwater Crown",
        "Next: a Solo game against a normal bot, and the Replays to see when your fish came in. Trophies and "
        "contests decide most games: plan for them early.",
    )
