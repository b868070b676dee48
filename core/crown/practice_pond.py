"""Practice Pond (1 player): the silent player's turn.

Setup differences live in setup.py (9 bait of each colour, 7 to the discard,
the silent player's 5-point Small Species trophy, 2-player trophy stacks).

Rulings: the silent player's fish are public (you check their weights for it);
each of its two draws counts as a Step for the Mystery Weight limit; the
clear-white rule applies to every clear-white draw in a solo game, including
yours while filling a Zone; an empty bag is refilled from the discard pile, and
a draw with nothing to draw is skipped.
"""

from __future__ import annotations

from .anglers import silent_move
from .catching import receive
from .content import Tables
from .model import COLOUR_LOCATION, WHITE, CrownData, Task
from .port import bag_empty, discards_to_bag, take_from_bag
from .trophies import check_master_angler


def start_turn(d: CrownData) -> None:
    human, silent = d.parties[0], d.parties[1]
    if len(human.fish) < len(silent.fish):
        # "you may draw one bait instead of two": your decision.
        d.tasks[0:0] = [Task("silent_n")]
    else:
        d.tasks[0:0] = [Task("silent"), Task("silent"), Task("endturn")]


def choose_draws(d: CrownData, n: int) -> None:
    d.tasks.pop(0)
    d.tasks[0:0] = [Task("silent") for _ in range(n)] + [Task("endturn")]


def draw_step(d: CrownData) -> bool:
    """True if the queued draw resolved without chance."""
    if not bag_empty(d):
        return False
    if any(d.discard):
        discards_to_bag(d)
    else:
        d.tasks.pop(0)
    return True


def silent_draw(d: CrownData, T: Tables, colour: int) -> None:
    d.tasks.pop(0)
    take_from_bag(d, colour)
    d.mw_claimed = False
    if colour == WHITE:
        discards_to_bag(d)
        d.tasks[0:0] = [Task("ma_silent"), Task("white_choice"), Task("white_back")]
        return
    silent_move(d, colour)  # Action 1
    d.discard[colour] += 1  # Action 2
    k = d.discard[colour]
    if 3 <= k <= 6:
        li = COLOUR_LOCATION[colour]
        fish = d.zones[li][k - 3]
        if fish is not None:
            d.zones[li][k - 3] = None
            fish.shown = True
            receive(d, T, 1, fish)
            d.tasks.insert(0, Task("stock"))


def white_option(d: CrownData, choice: str) -> None:
    d.tasks.pop(0)
    if choice == "card":
        d.tasks.insert(0, Task("ma_silent"))
    else:
        d.tasks.insert(0, Task("ppdiscard", 0, 7))


def ppdiscard_draw(d: CrownData, colour: int) -> None:
    t = d.tasks[0]
    d.bag[colour] -= 1
    d.discard[colour] += 1
    t.n -= 1
    if t.n <= 0:
        d.tasks.pop(0)


def ma_to_silent(d: CrownData, T: Tables, card: int) -> None:
    d.tasks.pop(0)
    d.ma_deck.remove(card)
    s = d.parties[-1]
    s.ma_done.append(card)
    check_master_angler(d, T, s)
