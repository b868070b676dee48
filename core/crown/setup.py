"""Setup A–L (and the Practice Pond changes): the opening position.

Nothing random is decided here. Deck tops, the Master Angler row, the Mystery
Weight tile, the Tag tile, starting tackle and the starting bait are chance
draws queued as tasks (and the derived reveals in ``turns.py``), so that every
outcome is an input.
"""

from __future__ import annotations

from .content import Tables
from .model import TACKLE_COUNTS, CrownData, Fish, Player, Stacks, Task, Trophy


def contest_stack(stack: list[int], players: int) -> list[int]:
    """F4: a 5-4-3-2 stack without its 4 at 3 players, without its 4 and 2 at 2 (and solo)."""
    if players >= 4:
        return list(stack)
    if players == 3:
        return [stack[0], stack[2], stack[3]]
    return [stack[0], stack[2]]


def new_data(players: int, no_tags: bool, T: Tables) -> CrownData:
    solo = players == 1
    parties = [Player(zones=[[0] * 6 for _ in range(4)], token=1) for _ in range(players)]
    tr = T.content.trophies
    # Practice Pond plays with the 2-player trophy stacks (components ruling).
    n = 2 if solo else players
    stacks = Stacks(
        first_to_12=list(tr.first_to_12),
        three_same=list(tr.three_same),
        four_different=list(tr.four_different),
        small_species=contest_stack(tr.small_species, n),
        fastest_to_8=contest_stack(tr.fastest_to_8, n),
        shore=contest_stack(tr.shore, n),
        lake=contest_stack(tr.lake, n),
        river=contest_stack(tr.river, n),
    )
    if solo:
        silent = Player(zones=[[0] * 6 for _ in range(4)], token=0, silent=True)
        # "Lastly, give the silent player the 5-point Small Species Challenge trophy."
        silent.trophies.append(Trophy("small_species", stacks.small_species.pop(0)))
        parties.append(silent)
    decks = [[Fish(T.species_of[c], c) for c in T.fish_by_location[li]] for li in range(3)]
    tackle: list[str | None] = [k for k in sorted(k for k, m in TACKLE_COUNTS.items() for _ in range(m))]
    tasks = [Task("tag"), Task("stock")]
    tasks += [Task("tackle", s) for s in range(players)]
    if solo:
        tasks.append(Task("ppdiscard", 0, 7))
    for s in range(players):
        tasks += [Task("fill", s, 3), Task("fill", s, 4)]
    tasks += [Task("white_in"), Task("begin")]
    return CrownData(
        players=players,
        no_tags=no_tags,
        parties=parties,
        stacks=stacks,
        tasks=tasks,
        # H: tokens with the 1 showing on the red, yellow and green spaces.
        tokens=[0, 0, 1, 0, 1, 1, 0],
        zones=[[None] * 4 for _ in range(3)],
        tops=[None, None, None],
        decks=decks,
        bag=[9] * 6 if solo else [16] * 6,
        discard=[0] * 6,
        box=[7] * 6 if solo else [0] * 6,
        ma_deck=list(range(1, len(T.content.master_angler) + 1)),
        mw_stack=sorted(T.mw_tiles),
        tackle_stack=tackle,
    )
