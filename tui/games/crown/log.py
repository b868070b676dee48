"""Coldwater Crown's log in words: what a step changed that the move's own line does not say
(trophies, Master Angler catches, the end triggered, contest results), the silent player's turn,
and runs of chance lines in fewer words. Pure (no Textual); :class:`~.words.CrownWords` calls it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from coldwater.core.crown.content import Tables
from coldwater.core.crown.model import (
    COLOUR_LOCATION,
    COLOURS,
    CONTEST_ORDER,
    LOCATION_TITLES,
    LOCATIONS,
    SPACES,
    CrownData,
    Fish,
)

from .names import TROPHY_NAMES, fish_name, ma_name, names_of


def announcements(before: CrownData, after: CrownData, T: Tables, names: Sequence[str]) -> list[str]:
    """Lines for the log about what a step changed that the move's own line does not say."""
    labels = names_of(names, len(after.parties))
    out: list[str] = []
    if len(before.parties) != len(after.parties):
        return out
    for i, (a, b) in enumerate(zip(before.parties, after.parties)):
        name = labels[i]
        new = b.trophies[len(a.trophies) :] if len(b.trophies) >= len(a.trophies) else []
        for t in new:
            if t.kind == "mystery_weight":
                fish = next(
                    (f for f in reversed(b.fish) if f.shown and f.card is not None and T.weight[f.card] == t.weight),
                    None,
                )
                what = (
                    f" with a {t.weight} lb {fish_name(T, fish.species)}" if fish is not None else f" ({t.weight} lb)"
                )
                out.append(f"{name} wins the Mystery Weight trophy{what}")
            elif t.kind in ("shore", "lake", "river"):
                continue  # contest results are told together, below
            else:
                out.append(f"{name} wins the {TROPHY_NAMES.get(t.kind, t.kind)} trophy ({t.points} points)")
        for card in b.ma_done[len(a.ma_done) :]:
            out.append(f"{name} catches the {ma_name(T, card)} Master Angler fish (1 point)")
    if after.end_triggered and not before.end_triggered:
        mover = labels[before.turn] if before.turn < len(labels) else "Someone"
        why = (
            f"{mover} has 12 fish"
            if any(t.kind == "first_to_12" for t in after.parties[before.turn].trophies)
            else "a location could not be restocked to four fish"
        )
        out.append(f"The end is triggered ({why}): everyone else has one final turn")
    if after.step == 4:
        # Several contests can resolve in one step (nobody has a choice to make in them).
        for c in range(before.contest if before.step == 4 else 0, min(after.contest, 3)):
            out.append(contest_result(after, T, labels, LOCATIONS[CONTEST_ORDER[c]]))
    return out


def contest_result(d: CrownData, T: Tables, labels: Sequence[str], loc: str) -> str:
    li = LOCATIONS.index(loc)
    rows = []
    for i, p in enumerate(d.parties):
        sub = [f for f in p.submitted if T.species_location.get(f.species) == li and f.card is not None]
        if not sub:
            continue
        won = next((t.points for t in p.trophies if t.kind == loc), 0)
        rows.append((-sum(T.weight[f.card] for f in sub if f.card is not None), labels[i], won))
    rows.sort()
    parts = [f"{n} {-w} lb" + (f" → {pts} points" if pts else "") for w, n, pts in rows]
    return f"{loc.title()} contest: " + ("; ".join(parts) if parts else "nobody submitted a fish")


def silent_turn(before: CrownData, after: CrownData, T: Tables, colour: int) -> str:
    """The silent player's draw of `colour` in words: its token move and any catch."""
    if colour == 6:
        return "Silent player draws the clear-white bait: a Master Angler card goes to its score pile"
    words = [f"Silent player draws {COLOURS[colour]}"]
    moved = [i for i in range(7) if before.tokens[i] != after.tokens[i]]
    if len(moved) == 2:
        src = next(i for i in moved if before.tokens[i])
        dst = next(i for i in moved if after.tokens[i])
        words.append(f"moves the token on {SPACES[src]} to {SPACES[dst]}")
    else:
        words.append("no token moves")
    k = after.discard[colour]
    s_before, s_after = before.parties[-1], after.parties[-1]
    caught: list[Fish] = s_after.fish[len(s_before.fish) :]
    if caught:
        f = caught[0]
        li = COLOUR_LOCATION[colour]
        weight = f" ({T.weight[f.card]} lb)" if f.card is not None else ""
        words.append(
            f"{k} {COLOURS[colour]} in the discard → catches the {fish_name(T, f.species)}{weight} "
            f"at the {LOCATION_TITLES[li]}, Zone {k}"
        )
    else:
        words.append(f"{k} {COLOURS[colour]} in the discard, no catch (needs 3 to 6)")
    return "; ".join(words)


BAIT_DRAWN = re.compile(r"an? (\w+) bait is drawn from the bag")
DECK_SHOWS = re.compile(r"the (\w+) deck now shows an? (.+)")
MA_FLIP = re.compile(r"the (.+) Master Angler card \(.*\) is turned face up")


def summarize_chance(lines: Sequence[str]) -> list[str]:
    """Runs of bait draws become one line ("bait drawn: red, blue, blue"), and so do
    runs of deck reveals ("decks now show: Lake Pike, Shore Wrasse") and of Master
    Angler cards turned up. Other lines stay as they are, in order."""
    heads = {
        "bait": ("a bait drawn: ", "bait drawn: "),
        "deck": ("the deck now shows: ", "decks now show: "),
        "ma": ("turned up in the Master Angler row: ", "turned up in the Master Angler row: "),
    }
    out: list[str] = []
    kind = ""
    run: list[str] = []

    def flush() -> None:
        if run:
            one, many = heads[kind]
            out.append((one if len(run) == 1 else many) + ", ".join(run))
            run.clear()

    for line in lines:
        if m := BAIT_DRAWN.fullmatch(line):
            k, item = "bait", m[1]
        elif m := DECK_SHOWS.fullmatch(line):
            k, item = "deck", f"{m[1]} {m[2]}"
        elif m := MA_FLIP.fullmatch(line):
            k, item = "ma", m[1]
        else:
            flush()
            kind = ""
            out.append(line)
            continue
        if k != kind:
            flush()
            kind = k
        run.append(item)
    flush()
    return out
