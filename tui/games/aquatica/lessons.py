"""Learn to play Aquatica (Cold Waters): a lesson for each kind of decision and for the flow.

Written from the rulebook's turn (extras, one Main Action, extras), Characters
and the Character row, Locations (buy with coins, conquer with power; raise,
exploit Depths, score), Mantas, the Goals module, the expansion's Tribes,
Delayed Effects, Frosty Depths and game end. The learner's game uses the Goals
module; the Tribes and solo kinds have lessons too. See ``coldwater.tui.tutor``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from coldwater.core.aquatica.actions import CODEC, Deal, Recruit
from coldwater.core.aquatica.model import AqData
from coldwater.core.notation import Action
from coldwater.core.state import State
from coldwater.tui.tutor import Lesson, closing_lesson, decision_kinds, lesson, plural, seat_to_move

GAME: Final = "aquatica"
KINDS: Final = decision_kinds(CODEC.types, (Deal,))
FLOW: Final = ("flow.turn", "flow.goals", "flow.end")
GENTLE_LOSS: Final = 5.0
"""A gentle word only this far below the best: the greedy values are rough estimates in
prosperity points (a Location, a Goal spot), and 5 is more than a typical Location is worth."""
SAME: Final[dict[str, str]] = {}
SEED: Final = "learn-aquatica"
"""The first game's fixed seed (tutor.Book)."""
FIRST_OPTIONS: Final[dict[str, Any]] = {"module": "goals"}
"""The base rules: the Goals module, as the base game plays."""
HINT_LOSS: Final = 3.0
"""PP a greedy player clearly gives up in 8% of its decisions (a random player in 36%)."""
BOT_LOSS: Final = {"random": 1.47, "greedy": 0.20, "hard": 0.13}
"""PP behind the evaluator per decision (tui/coachfigures.py); three games a level."""


def _d(view: State[Any, Any]) -> AqData:
    d: AqData = view.data
    return d


def teach(kind: str, view: State[Any, Any], acts: Sequence[Action]) -> Lesson:
    d = _d(view)
    p = d.ps[seat_to_move(view)]
    ready = sum(1 for m in p.mantas if m.ready and not m.placed)
    if kind == "play":
        return lesson(
            kind,
            "Main Action: play a Character",
            f"Once a turn, play one of the {len(p.hand)} Characters in your hand: its effects run in printed "
            "order, each as far as it can. It then lies on your discard pile until an effect takes it back; "
            "Matrona instead stays in hand, takes your discard pile back and readies your Mantas.",
            hand=len(p.hand),
        )
    if kind == "end":
        return lesson(
            kind,
            "End your turn",
            "Your Main Action is done. Use what is still ready (Mantas, Depths, Goals), then press e to end the turn.",
        )
    if kind == "skip":
        return lesson(
            kind,
            "Skip an effect",
            "Skip passes over the rest of the effect being resolved (say, a Scout, which is optional since "
            "Cold Waters): the effects after it still come.",
        )
    if kind == "flip":
        return lesson(
            kind,
            "Flip a Manta",
            f"You have {plural(ready, 'ready Manta')}. Flip one for its effect (before or after the Main "
            "Action) or for its resource while you pay. A flipped Manta is spent until something readies it.",
            "board",
            ready=ready,
        )
    if kind == "expl":
        return lesson(
            kind,
            "Exploit a Depth",
            f"Exploit the visible Depth of a Location on your board ({len(p.board)} there): take its icon, "
            "and the Location slides up one Depth. Coins and power only while paying in your Main Action "
            "(one per Location); effects only before or after it.",
            "board",
            locations=len(p.board),
        )
    if kind == "tribe":
        return lesson(
            kind,
            "Use a Tribe",
            "A dark blue (type I) Tribe you recruited gives its ongoing bonus once in each of your turns.",
        )
    if kind == "spend":
        return lesson(
            kind,
            "Pay with a scored Location",
            "To pay for a Tribe you may discard a Location from your Scoring Pile: it gives coins equal to its "
            "points, and is lost for good (it no longer scores).",
        )
    if kind == "goal":
        return lesson(
            kind,
            "Claim a Goal",
            f"You meet a Goal's requirement: place one of your Trained Mantas, ready or flipped, on its track "
            f"({len(p.goals)} claimed so far; once per Goal). Earlier spots are worth more; that Manta stays "
            "there for good.",
            "board",
            claimed=len(p.goals),
        )
    if kind == "rival":
        return lesson(kind, "Solo: the rival's Goal", "Choose the Goal track where the virtual rival places a Manta.")
    if kind == "rc":
        prices = sorted({a.slot for a in acts if isinstance(a, Recruit)})
        cheap = prices[0] if prices else 0
        return lesson(
            kind,
            "Recruit a Character",
            f"A Character in the row costs its slot's price in coins (0 at the left); "
            f"you have {plural(d.coins, 'coin')}. "
            f"The cheapest you can take costs {cheap}. It joins your hand, and the row slides left and refills. "
            "Short of coins? Ready Mantas and coin Depths pay the rest (one Depth per Location).",
            coins=d.coins,
            cheapest=cheap,
        )
    if kind == "rt":
        return lesson(
            kind,
            "Recruit a Tribe",
            "Pay a Tribe's cost (plus 1 per rival's Manta on it) and place a Trained Manta on it. This uses the "
            "Recruit: no Character is recruited with it this turn.",
        )
    if kind == "place":
        return lesson(
            kind,
            "Place a Manta on the Tribe",
            "Choose which Trained Manta goes on the Tribe you paid for; it stays there.",
        )
    if kind == "buy":
        return lesson(
            kind,
            "Buy a Location",
            f"Pay a Location's price in coins (you have {d.coins}); ready Mantas and coin Depths pay the rest "
            "(one Depth per Location). It goes into an empty slot of your board, first Depth showing; "
            "exploiting and raising slide it up until it is fully risen, ready to score.",
            "board",
            coins=d.coins,
        )
    if kind == "conq":
        return lesson(
            kind,
            "Conquer a Location",
            f"Pay a Location's price in power (you have {d.power}; power toward a type counts for that type "
            "only; the top row costs 1 less); ready Mantas and power Depths pay the rest (one Depth per "
            "Location). It goes onto your player board, like a bought one.",
            "board",
            power=d.power,
        )
    if kind == "raise":
        return lesson(
            kind,
            "Raise a Location",
            f"Raise one of your {len(p.board)} Locations: it slides up, and the Depths it passes are lost "
            "unexploited. Fully risen, it can be scored into your Scoring Pile, and a Wild Manta it shows "
            "joins you.",
            "board",
            locations=len(p.board),
        )
    if kind == "score":
        return lesson(
            kind,
            "Score a Location",
            f"Move a fully raised Location into your Scoring Pile ({len(p.scored)} there): its points count at "
            "the end, and its board slot is free again.",
            "board",
            scored=len(p.scored),
        )
    if kind == "scout":
        top, bottom = len(d.loc_top), len(d.loc_bottom)
        return lesson(
            kind,
            "Scout",
            f"Scouting (optional) discards the top Location row ({top} now), slides the bottom row ({bottom}) "
            "up, at most 4 of it, and deals 6 new Locations below: fresh choices to buy or conquer.",
            "board",
            top=top,
            bottom=bottom,
        )
    if kind == "cut":
        bottom = len(d.loc_bottom)
        return lesson(
            kind,
            "Scouting: discard a Location",
            f"The bottom row holds {bottom} Locations, more than 4: discard the ones you choose down to 4 "
            "before they slide up.",
            "board",
            bottom=bottom,
        )
    if kind == "back":
        return lesson(
            kind,
            "Take a Character back",
            f"Take a played Character from your discard pile ({len(p.discard)} there) back into your hand.",
            discard=len(p.discard),
        )
    if kind == "rise":
        return lesson(
            kind,
            "Fully raise a Location",
            "Raise one of your Locations all the way at once (its Depths are lost): it can be scored now.",
            "board",
        )
    if kind == "copy":
        return lesson(
            kind,
            "Copy a Depth",
            "Copy the effect of a visible Depth of another of your Locations (effects only, not resources).",
            "board",
        )
    if kind == "replay":
        return lesson(kind, "Replay a Character", "Play the effects of a Character on your discard pile once more.")
    if kind == "oflip":
        return lesson(
            kind,
            "A rival's effect: flip a Manta",
            "A rival's effect makes you flip one of your ready Mantas, with no effect for you: choose which.",
        )
    if kind == "odisc":
        return lesson(
            kind,
            "A rival's effect: discard",
            f"A rival's effect makes you discard a Character from your hand ({len(p.hand)} there).",
            hand=len(p.hand),
        )
    if kind == "king":
        return lesson(
            kind, "Choose a King", "Take one King into your hand: a strong Character, and at the end a tie-break."
        )
    raise KeyError(f"no Aquatica lesson for {kind!r}")


def flow_due(view: State[Any, Any], seat: int) -> list[str]:
    d = _d(view)
    out = []
    if d.phase in ("pre", "main", "post"):
        out.append("flow.turn")
        if d.module == "goals" and d.phase == "post":
            out.append("flow.goals")  # after your first Main Action: one thing at a time
    if d.trigger or d.final_left >= 0:
        out.append("flow.end")
    return out


def flow(key: str, view: State[Any, Any], seat: int) -> Lesson:
    d = _d(view)
    if key == "flow.turn":
        return lesson(
            key,
            "Aquatica: how a turn goes",
            f"{d.players} players. A turn: any extras (flip Mantas, exploit Depths, claim Goals), one Main "
            "Action (play a Character), more extras, end. Locations on your board give Depths; scored ones "
            "give points. Characters left in hand score 1 point each at the end.",
            "board",
            players=d.players,
        )
    if key == "flow.goals":
        return lesson(
            key,
            "The Goal tracks",
            f"{len(d.goals)} Goals lie on the tracks. Meet one (say, Locations of some kind on your board) "
            "and place a Trained Manta on its track: the first spot pays most. A player who claims all 4 "
            "starts the end.",
            "board",
            goals=len(d.goals),
        )
    if key == "flow.end":
        return lesson(
            key,
            "The end is coming",
            "A player claimed every Goal, or a deck ran out: the turn finishes and everyone, that player too, "
            "plays one more turn. Then: Goals' points, the Scoring Pile's, 1 per Character in hand; Locations "
            "still on boards score nothing.",
            "status",
        )
    raise KeyError(f"no Aquatica lesson for {key!r}")


def closing(view: State[Any, Any], seat: int) -> Lesson:
    return closing_lesson(
        view,
        seat,
        "Aquatica",
        "Scored Locations and early Goals decide most games. Next: Solo against a normal bot, or try the "
        "Tribes module.",
        unit="prosperity points",
    )
