"""Words for people: why an action is refused, and a log line for an action.

Log lines never name a sealed value (a card's weight, a tackle kind, a contest
pick): they are shown to every seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from .actions import (
    CHANCE_TYPES,
    Bait,
    Catch,
    CrownAction,
    Discard,
    EndTurn,
    Fill,
    Lose,
    Lure,
    MAFlip,
    MWFlip,
    Place,
    Reel,
    Remove,
    Reveal,
    Route,
    SilentDraws,
    Skip,
    Submit,
    TackleDraw,
    TagTile,
    Take,
    TakeTackle,
    TakeTop,
    WhiteOption,
    Zone6,
)
from .contests import location as contest_location
from .model import COLOUR_LOCATION, LOCATION_INDEX, LOCATION_TITLES, LOCATIONS, SPACE_INDEX, ZONES, Player

if TYPE_CHECKING:
    from .state import CrownState


def _who(s: CrownState) -> str:
    d = s.data
    if d.phase == "submit" and d.cur is not None and d.cur >= 0:
        return f"Seat {d.cur + 1}"
    if d.tasks and d.tasks[0].kind in ("white_choice", "silent_n"):
        return "Seat 1"  # the Practice Pond's one person decides for the silent player
    p = d.parties[d.turn] if d.parties else None
    if p is not None and p.silent:
        return "The silent player"
    return f"Seat {d.turn + 1}"


_LETTERS = ("B", "R", "P", "K", "G", "Y")


def _ma(s: CrownState, card: int) -> str:
    """A Master Angler card in words: its fish and its spots (people never see card numbers)."""
    T = s.TABLES
    if not 0 < card < len(T.ma_species):
        return "that Master Angler card"
    sp = T.ma_species[card]
    spots = " ".join(_LETTERS[c] for c in T.ma_spots[card])
    return f"the {T.ma_species_name.get(sp, sp)} Master Angler card ({spots})"


def why_illegal(s: CrownState, a: CrownAction) -> str:
    d = s.data
    T = s.TABLES
    if not isinstance(a, CrownAction):  # a direct call; apply() refuses such objects itself
        return f"{a!r} is not a Coldwater Crown action"
    if d.cur == -1 and not isinstance(a, CHANCE_TYPES):
        return "a chance draw is pending; no player decides now"
    if d.cur != -1 and isinstance(a, CHANCE_TYPES):
        return f"'{a}' is a chance outcome, but a player decides now"
    if isinstance(a, CHANCE_TYPES):
        return f"'{a}' is not a possible outcome of this draw"
    interrupt = d.tasks[0].kind if d.tasks else ""
    if isinstance(a, SilentDraws):
        if interrupt != "silent_n":
            return "you may choose the silent player's number of draws only when you have fewer fish than it"
        return "the silent player draws 1 or 2 bait"
    if isinstance(a, WhiteOption):
        if interrupt != "white_choice":
            return "that choice comes only when the clear-white bait is drawn in Practice Pond"
        return "the Master Angler deck is empty"
    if interrupt:
        return "first decide for the silent player (the clear-white bait or the number of draws)"
    p = d.parties[d.turn]
    ph = d.phase
    match a:
        case Place():
            if ph != "idle" or d.step != 1:
                return "you place your Angler token in Step 1, at the start of your turn"
            if a.space not in SPACE_INDEX:
                return f"there is no {a.space} space"
            return f"the {a.space} space is occupied"
        case Remove():
            if ph != "idle" or d.step != 2:
                return "you remove an Angler token in Step 2, after placing yours"
            if a.space not in SPACE_INDEX:
                return f"there is no {a.space} space"
            if SPACE_INDEX[a.space] == d.placed:
                return "you cannot remove the token you placed this turn"
            return f"there is no Angler token on the {a.space} space"
        case EndTurn():
            return "you end your turn in Step 3, after removing a token"
        case Fill() | Take() | TakeTop() | Skip():
            if ph != "port":
                return "that is a Port action; take the Port space first"
            if isinstance(a, Fill):
                from .port import fill_problem

                return fill_problem(d, p, a.zone) or "you cannot fill that Zone now"
            if isinstance(a, Skip):
                return "you still have a Port action you can take"
            from .port import take_problem

            return take_problem(d, p, None if isinstance(a, TakeTop) else a.card) or "you cannot take that card now"
        case Route() | Discard():
            if ph != "route":
                return "no cast bait is waiting to be placed"
            assert isinstance(a, Route)
            if not any(m.card == a.card for m in p.ma):
                return f"you are not attempting {_ma(s, a.card)}"
            return f"{_ma(s, a.card)} has no open {COLOUR_NAMES[d.colour]} spot"
        case TakeTackle():
            return "no tackle is on offer (the Zone 5 bonus comes from emptying Zone 5)"
        case Catch() | Zone6() | Lose():
            if ph != "catch" or d.offer_tackle:
                return "no catch is waiting to be resolved" if ph != "catch" else "first decide on the Zone 5 tackle"
            zone = 6 if isinstance(a, Zone6) else a.zone
            pend = next((x for x in d.pending if x.zone == zone), None)
            if pend is None:
                return f"no catch is owed for Zone {zone}"
            home = COLOUR_LOCATION[pend.colour]
            if isinstance(a, Zone6):
                return f"the {LOCATION_TITLES[home]} deck is empty"
            if isinstance(a, Lose):
                return (
                    f"Zone {zone} at the {LOCATION_TITLES[home]} holds a fish: you must catch a fish "
                    "(a Rod or a Line may change which)"
                )
            if a.loc not in LOCATION_INDEX or a.at not in ZONES:
                return "there is no such Zone"
            li = LOCATION_INDEX[a.loc]
            from .tackle import usable

            if abs(a.at - a.zone) > 1:
                return "a Line reaches only an adjacent Zone"
            if li != home and usable(p, "rod") < 0:
                return _tackle_msg(p, "rod", "catching at another location needs a Rod")
            if a.at != a.zone and usable(p, "line") < 0:
                return _tackle_msg(p, "line", "catching from an adjacent Zone needs a Line")
            if d.zones[li][a.at - 3] is None:
                return (
                    f"Zone {a.at} at the {LOCATION_TITLES[li]} holds no fish (it is restocked at the end of the Step)"
                )
            return "you cannot catch that fish now"
        case Reel() | Lure():
            kind = "reel" if isinstance(a, Reel) else "lure"
            if ph != "idle":
                return f"play a {kind.title()} between the steps of your turn, not in the middle of one"
            from .tackle import usable

            if usable(p, kind) < 0:
                return _tackle_msg(p, kind, f"you hold no {kind.title()}")
            if isinstance(a, Reel):
                return f"you need two {a.colour} bait in those Zones (Zone {a.a} and Zone {a.b}, listed lowest first)"
            return "a Lure swaps two different-coloured bait in two different Zones (lower Zone first)"
        case Submit():
            if ph != "submit":
                return "fish are submitted to the contests at the end of the game"
            loc = LOCATIONS[contest_location(d)]
            if T.species_location.get(a.species) != LOCATION_INDEX[loc]:
                return f"the {loc.title()} contest takes only {loc.title()} fish"
            return f"you cannot submit that {T.fish_name(a.species)} (already chosen, or you have fewer of them)"
        case Bait() | Reveal() | MAFlip() | MWFlip() | TackleDraw() | TagTile() | SilentDraws() | WhiteOption():
            return f"'{a}' is not legal now"  # (chance and the silent player's choices: answered above)
        case _:
            assert_never(a)


def _tackle_msg(p: Player, kind: str, base: str) -> str:
    if any(t.kind == kind and t.fresh for t in p.tackle):
        return f"{base}; the {kind.title()} you drew this Step can be played from the next Step on"
    return f"{base}, and you hold none you can play"


COLOUR_NAMES = ("blue", "red", "purple", "black", "green", "yellow")


def describe(s: CrownState, a: CrownAction) -> str:
    d = s.data
    T = s.TABLES
    who = _who(s)
    match a:
        case Bait():
            if d.tasks and d.tasks[0].kind == "silent":
                return (
                    f"the silent player draws a {a.colour} bait"
                    if a.colour != "white"
                    else ("the silent player draws the clear-white bait!")
                )
            return (
                f"a {a.colour} bait is drawn from the bag" if a.colour != "white" else "the clear-white bait is drawn!"
            )
        case Reveal():
            return f"the {a.loc.title()} deck now shows a {T.fish_name(a.species)}"
        case MAFlip():
            task = d.tasks[0].kind if d.node < 0 and d.tasks else ""
            if task == "ma_silent":
                return f"{_ma(s, a.card)} goes to the silent player's score pile"
            if task == "ma_take":
                return f"Seat {d.tasks[0].seat + 1} takes {_ma(s, a.card)} from the top of the deck"
            return f"{_ma(s, a.card)} is turned face up"
        case MWFlip():
            return f"the Mystery Weight is now {a.weight} lb"
        case TackleDraw():
            return f"Seat {d.tasks[0].seat + 1} draws a tackle piece" if d.tasks else "a tackle piece is drawn"
        case TagTile():
            return f"the Tag tile is {a.colour}"
        case Place():
            side = d.parties[d.turn].token
            return f"{who} places a {side} on the {a.space} space"
        case Remove():
            shown = d.tokens[SPACE_INDEX[a.space]] if a.space in SPACE_INDEX else "?"
            return f"{who} removes the {shown} from the {a.space} space"
        case EndTurn():
            return f"{who} flips the removed token and ends the turn"
        case Fill():
            return f"{who} fills Zone {a.zone} from the bag"
        case Take():
            return f"{who} takes {_ma(s, a.card)}"
        case TakeTop():
            return f"{who} takes the top card of the Master Angler deck"
        case Skip():
            return f"{who} has no Port action left to take"
        case Route():
            sp = T.ma_species[a.card] if 0 < a.card < len(T.ma_species) else ""
            line = (
                f"{who} puts a {COLOUR_NAMES[d.colour]} bait on the {T.ma_species_name.get(sp, 'Master Angler')} card"
            )
            m = next((m for m in d.parties[d.turn].ma if m.card == a.card), None)
            if m is not None and len(m.filled) + 1 == len(T.ma_spots[a.card]):
                line += " and catches it"
            return line
        case Discard():
            return f"{who} casts a {COLOUR_NAMES[d.colour]} bait to the discard pile"
        case Catch():
            li = LOCATION_INDEX.get(a.loc, 0)
            f = d.zones[li][a.at - 3] if a.at in ZONES else None
            name = T.fish_name(f.species) if f is not None else "fish"
            pend = next((x for x in d.pending if x.zone == a.zone), None)
            extra = []
            if pend is not None and li != COLOUR_LOCATION[pend.colour]:
                extra.append("a Rod")
            if a.at != a.zone:
                extra.append("a Line")
            how = f" with {' and '.join(extra)}" if extra else ""
            return f"{who} catches the {name} in Zone {a.at} at the {a.loc.title()}{how}"
        case Zone6():
            pend = next((x for x in d.pending if x.zone == 6), None)
            home = COLOUR_LOCATION[pend.colour] if pend else 0
            top = d.tops[home]
            name = T.fish_name(top.species) if top else "fish"
            return f"{who} takes the Zone 6 bonus: the {name} on top of the {LOCATION_TITLES[home]} deck"
        case Lose():
            return f"{who} catches nothing for Zone {a.zone}: that Zone is empty"
        case TakeTackle():
            return f"{who} takes the Zone 5 tackle" if a.take else f"{who} declines the Zone 5 tackle"
        case Reel():
            return f"{who} plays a Reel: one {a.colour} bait from Zone {a.a} and one from Zone {a.b}"
        case Lure():
            return f"{who} plays a Lure: swaps the {a.ca} bait in Zone {a.a} with the {a.cb} bait in Zone {a.b}"
        case SilentDraws():
            return f"{who} lets the silent player draw {a.n} bait this turn"
        case WhiteOption():
            return (
                f"{who} gives the silent player a second Master Angler card"
                if a.choice == "card"
                else f"{who} has 7 bait drawn from the bag onto the discard pile"
            )
        case Submit():
            return f"{who} chooses which {T.fish_name(a.species)} to submit"
        case _:
            assert_never(a)
