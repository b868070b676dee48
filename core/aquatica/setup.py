"""Setup by player count, and every deck draw as a chance event.

Nothing is shuffled: each card that comes off a deck is a chance outcome
(every remaining card weight 1), queued as a ``Draw`` and resolved in order.

- Characters: the ○ and ◇ decks (15 each). 5 players: both; 4: 5 random cards
  of the ◇ deck boxed; 2-3: 10 boxed (the rulebook says "1 deck": we always take
  the ◇ one, which is the same set of Characters). Solo: the ○ deck only.
  6 dealt to the row.
- Locations: 70 (14 of each type). 4 players: 2 random of each type boxed; 3: 4;
  2: 6; base solo as 2 players. Tribes Solo: 4 random of each type kept (20).
  6 dealt to the bottom row.
- Goals module: the printed Goals, or 4 random Goal tokens, each showing a
  random side. Tribes module: 4 type I and 4 type II Tribes (Tribes Solo 2 and 6
  differ). Kings: see ``kings.py``.
"""

from __future__ import annotations

from .content import Deck
from .endgame import trigger
from .kings import deal_basic, queue_draft
from .mantas import gain_wild
from .model import (
    HIDDEN,
    OCEAN_BASE,
    OCEAN_PER_DECK,
    ROW_SIZE,
    STARTING_PER_SEAT,
    AqData,
    Draw,
    Manta,
    Player,
)
from .tribes_solo import deck_ok, tribe_split

LOC_DISCARDS = {5: 0, 4: 2, 3: 4, 2: 6, 1: 6}
CHAR_DISCARDS = {5: 0, 4: 5, 3: 10, 2: 10}
DIAMOND = OCEAN_BASE + OCEAN_PER_DECK


def new_data(players: int, module: str, variable_goals: bool, kings_mode: str, level: int, k: Deck) -> AqData:
    solo = players == 1
    ps = [
        Player(
            hand=[STARTING_PER_SEAT * s + j for j in range(STARTING_PER_SEAT)],
            mantas=[Manta(-1, i) for i in range(len(k.trained))],
        )
        for s in range(players)
    ]
    circle = list(range(OCEAN_BASE, DIAMOND))
    diamond = list(range(DIAMOND, DIAMOND + OCEAN_PER_DECK))
    n_locs = len(k.loc_name)
    d = AqData(
        players=players,
        module=module,
        variable_goals=variable_goals,
        kings_mode=kings_mode,
        solo_level=level,
        phase="setup",
        turn=0,
        ps=ps,
        char_deck=circle if solo else circle + diamond,
        char_box=diamond if solo else [],
        char_row=[],
        char_discard=[],
        loc_deck=[] if level else list(range(n_locs)),
        loc_box=list(range(n_locs)) if level else [],
        loc_top=[],
        loc_bottom=[],
        loc_discard=[],
        wild_supply=list(range(len(k.wild))),
        king_pool=[k.king_id(n) for n in range(1, 12)],
        draft=[],
        king_box=[],
        tribe_pool=list(range(len(k.content.tribes.tribes))),
        tribes=[],
        tribe_mantas=[],
        goal_pool=[],
        goals=[],
        tracks=[],
    )
    if not solo:
        d.draws += [Draw("cd_disc", "cbox") for _ in range(CHAR_DISCARDS[players])]
    if level:
        d.draws += keep_draws()
    else:
        d.draws += [Draw("ld_disc", "lbox", t) for t in range(5) for _ in range(LOC_DISCARDS[players])]
    d.draws += [Draw("cd", "crow") for _ in range(ROW_SIZE)]
    d.draws += [Draw("ld", "lbot") for _ in range(ROW_SIZE)]
    if module == "goals":
        if variable_goals:
            d.goal_pool = list(range(4, len(k.goals)))
            d.draws += [Draw("goal", "goals") for _ in range(4)]
        else:
            d.goals = [0, 1, 2, 3]
        d.tracks = [[] for _ in range(4)]
    else:
        n1, n2 = tribe_split(level) if level else (4, 4)
        d.draws += [Draw("tribe1", "tribes") for _ in range(n1)] + [Draw("tribe2", "tribes") for _ in range(n2)]
    if solo or kings_mode == "advanced":
        queue_draft(d)
    else:
        deal_basic(d, k)
    return d


def keep_draws() -> list[Draw]:
    return [Draw("ld_keep", "ldeck", t) for t in range(5) for _ in range(4)]


def outcomes(d: AqData, k: Deck) -> list[int]:
    """The cards the next queued draw may produce (each weight 1)."""
    dr = d.draws[0]
    deck = dr.deck
    if deck == "cd":
        return d.char_deck
    if deck == "ld":
        return d.loc_deck
    if deck == "wild":
        return d.wild_supply
    # In a view a sealed card (HIDDEN) may be of any kind: one unknown outcome
    # stands for them all, so a view can take a face-down discard too.
    if deck == "cd_disc":
        return [c for c in d.char_deck if c >= DIAMOND or c == HIDDEN]
    if deck == "ld_disc":
        return [x for x in d.loc_deck if x == HIDDEN or k.loc_type[x] == dr.arg]
    if deck == "ld_keep":
        return [x for x in d.loc_box if x == HIDDEN or k.loc_type[x] == dr.arg]
    if deck == "goal":
        return d.goal_pool
    if deck == "king":
        return d.king_pool
    tier = 1 if deck == "tribe1" else 2
    return [t for t in d.tribe_pool if t == HIDDEN or k.content.tribes.tribes[t].tier == tier]


def deal(d: AqData, k: Deck, card: int) -> None:
    dr = d.draws.pop(0)
    deck = dr.deck
    if deck == "cd":
        d.char_deck.remove(card)
        d.char_row.append(card)
        if not d.char_deck:
            trigger(d)
    elif deck == "ld":
        d.loc_deck.remove(card)
        d.loc_bottom.append(card)
        if not d.loc_deck:
            trigger(d)
    elif deck == "wild":
        gain_wild(d, dr.arg, card)
    elif deck == "cd_disc":
        d.char_deck.remove(card)
        d.char_box.append(card)
    elif deck == "ld_disc":
        d.loc_deck.remove(card)
        d.loc_box.append(card)
    elif deck == "ld_keep":
        d.loc_box.remove(card)
        d.loc_deck.append(card)
        if not any(x.deck == "ld_keep" for x in d.draws) and not deck_ok(d, k):
            # Tribes Solo 3+: fewer than 6 Wild Mantas; build a new Location deck.
            d.loc_box += d.loc_deck
            d.loc_deck = []
            d.draws[0:0] = keep_draws()
    elif deck == "goal":
        token = (card - 4) // 2
        d.goal_pool.remove(4 + 2 * token)
        d.goal_pool.remove(4 + 2 * token + 1)
        d.goals.append(card)
    elif deck == "king":
        d.king_pool.remove(card)
        d.draft.append(card)
    else:
        d.tribe_pool.remove(card)
        d.tribes.append(card)
        d.tribe_mantas.append([])
