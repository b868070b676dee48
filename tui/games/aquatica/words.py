"""Aquatica table wording that is not about one card: standings, safe defaults,
where a multi-step Main Action stands, and the log's announcements.

Pure (no Textual): each function takes the engine's data (``AqData``) and the
compiled deck, so it is unit-tested from a position. Seats are written
``Seat N``; the table screen puts the players' names in.
"""

from __future__ import annotations

from collections.abc import Sequence

from coldwater.core.aquatica import actions as A
from coldwater.core.aquatica.actions import AqAction
from coldwater.core.aquatica.content import Deck
from coldwater.core.aquatica.model import RIVAL, AqData
from coldwater.tui.games.aquatica import cards

COSTLY: tuple[type, ...] = (
    A.Spend,
    A.Flip,
    A.Exploit,
    A.UseTribe,
    A.ClaimGoal,
    A.OppDiscard,
    A.OppFlip,
    A.Cut,
    A.Recruit,
    A.RecruitTribe,
    A.Buy,
    A.Conquer,
    A.Place,
)
"""Choices that spend coins or power, tire or retire a Manta, use up a Depth or a
Tribe, or discard: never the highlighted default."""


def is_costly(action: AqAction) -> bool:
    return isinstance(action, COSTLY)


def standings(d: AqData, totals: Sequence[int]) -> str:
    """Prestige points so far per player: ``Seat 1 12 PP · Seat 2 9 PP`` (plus the
    final round, when it has been triggered)."""
    line = " · ".join(f"Seat {s + 1} {totals[s]} PP" for s in range(min(d.players, len(totals))))
    if d.trigger and d.phase != "over":
        line += " · final round"
    return line


def step_note(k: Deck, d: AqData) -> str:
    """ "effect 2 of 3" while the played Character's effects resolve one at a time."""
    if not d.stack or d.pay is not None or d.playing < 0:
        return ""
    fr = d.stack[-1]
    if not fr.main or not fr.effs:
        return ""
    pile = d.ps[d.turn].discard
    delayed = k.char_delayed[pile[-1]] if pile and pile[-1] >= 0 else ()
    total = len(delayed) + len(k.char_effs[d.playing])
    if total <= 1 or len(fr.effs) > total:
        return ""
    return f"effect {total - len(fr.effs) + 1} of {total}"


def announcements(k: Deck, before: AqData, after: AqData) -> list[str]:
    """★ lines: Goals claimed (and the rival's Mantas), Tribes recruited, the end triggered."""
    out: list[str] = []
    for pos, track in enumerate(after.tracks):
        old = before.tracks[pos] if pos < len(before.tracks) else []
        for i in range(len(old), len(track)):
            name = cards.goal_name(k, after.goals[pos]) if pos < len(after.goals) else "a Goal"
            pp = k.spots[i] if i < len(k.spots) else 0
            who = track[i]
            if who == RIVAL:
                out.append(f"The virtual rival's Manta takes the Goal {name} ({pp} PP spot)")
            else:
                out.append(f"Seat {who + 1} claims the Goal {name}: {pp} PP")
    for s in range(min(len(before.ps), len(after.ps))):
        for t in after.ps[s].tribes:
            if t not in before.ps[s].tribes:
                out.append(f"Seat {s + 1} recruits the Tribe {cards.tribe_spec(k, t).name}")
    if after.trigger and not before.trigger:
        out.append(
            "The end is triggered: everyone finishes the round"
            if after.players > 1
            else "The end is triggered: one last turn"
        )
    return out
