"""The Port space: filling a Zone from the bait bag, and taking Master Angler cards.

Also the bag itself: each bait drawn is a chance node weighted by the bag's
counts, and the clear-white bait sends the discard pile back into the bag.
"""

from __future__ import annotations

from .actions import Bait, CrownAction, Fill, Skip, Take, TakeTop
from .model import BAIT_NAMES, WHITE, CrownData, MAProgress, Player, Task

MAX_MASTER_ANGLER = 3
_BAIT = tuple(Bait(n) for n in BAIT_NAMES)  # shared outcome objects: no allocation per draw


def start(d: CrownData, side: int) -> None:
    """A "1" gives one Port action, a "2" two, in any order."""
    d.phase = "port"
    d.port_left = side
    d.port_filled = []


def to_fill(p: Player, zone: int) -> int:
    """How many bait fill Zone `zone` (3 to 6) up: a Zone holds as many as its number."""
    return zone - sum(p.zones[zone - 3])


def fill_problem(d: CrownData, p: Player, zone: int) -> str | None:
    if zone not in (3, 4, 5, 6):
        return f"there is no Zone {zone}"
    if to_fill(p, zone) <= 0:
        return f"Zone {zone} is already full"
    if zone in d.port_filled:
        return f"you already filled Zone {zone} on this Port visit"
    if bag_empty(d) and not any(d.discard):
        return "there is no bait left in the bag or the discard pile"
    return None


def take_problem(d: CrownData, p: Player, card: int | None) -> str | None:
    if len(p.ma) >= MAX_MASTER_ANGLER:
        return f"you already hold {MAX_MASTER_ANGLER} Master Angler cards"
    if card is None:
        return None if d.ma_deck else "the Master Angler deck is empty"
    if card not in d.ma_row:
        return f"Master Angler card {card} is not in the face-up row"
    return None


def legal(d: CrownData) -> list[CrownAction]:
    p = d.parties[d.turn]
    out: list[CrownAction] = [Fill(z) for z in (3, 4, 5, 6) if fill_problem(d, p, z) is None]
    if len(p.ma) < MAX_MASTER_ANGLER:
        out += [Take(c) for c in d.ma_row]
        if d.ma_deck:
            out.append(TakeTop())
    if not out:
        out.append(Skip())
    return out


def fill(d: CrownData, zone: int) -> None:
    d.tasks.insert(0, Task("fill", d.turn, zone))
    d.port_left -= 1
    d.port_filled.append(zone)


def take(d: CrownData, card: int) -> None:
    """Take a row card; the derived chance node in turns.py refills the row."""
    d.ma_row.remove(card)
    d.parties[d.turn].ma.append(MAProgress(card, []))
    d.port_left -= 1


def take_top(d: CrownData) -> None:
    d.tasks.insert(0, Task("ma_take", d.turn))
    d.port_left -= 1


# ---- the bag ---------------------------------------------------------------------


def bag_empty(d: CrownData) -> bool:
    return not d.white_in_bag and not any(d.bag)


def bait_weights(d: CrownData) -> list[tuple[Bait, int]]:
    out = [(_BAIT[c], n) for c, n in enumerate(d.bag) if n]
    if d.white_in_bag:
        out.append((_BAIT[6], 1))
    return out


def discards_to_bag(d: CrownData) -> None:
    for c in range(6):
        d.bag[c] += d.discard[c]
        d.discard[c] = 0


def take_from_bag(d: CrownData, colour: int) -> None:
    if colour == WHITE:
        d.white_in_bag = False
        d.white_aside = True
    else:
        d.bag[colour] -= 1


def white_back(d: CrownData) -> None:
    if d.white_aside:
        d.white_aside = False
        d.white_in_bag = True


def fill_step(d: CrownData, t: Task) -> bool:
    """Advance a fill task without chance. True if it did work (or finished)."""
    z = d.parties[t.seat].zones[t.n - 3]
    if sum(z) >= t.n:
        white_back(d)  # "Then return the clear-white bait back to the bag"
        d.tasks.pop(0)
        return True
    if bag_empty(d):
        if any(d.discard):
            # Ruling: an empty bag acts like the clear-white bait: discards go back in.
            discards_to_bag(d)
            return True
        white_back(d)  # Ruling: fill as far as bag and discards allow.
        d.tasks.pop(0)
        return True
    return False


def fill_draw(d: CrownData, t: Task, colour: int) -> None:
    take_from_bag(d, colour)
    if colour == WHITE:
        discards_to_bag(d)
        if d.players == 1:
            # Practice Pond: every clear-white draw also feeds the silent player.
            d.tasks[0:0] = [Task("ma_silent"), Task("white_choice")]
        return
    d.parties[t.seat].zones[t.n - 3][colour] += 1
