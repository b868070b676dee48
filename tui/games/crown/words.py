"""Coldwater Crown's words for the table, as pure functions (no Textual).

Everything here takes the engine's position data (a view: ``CrownData`` as the
person looking may know it) and its content tables, and returns plain strings or
small decisions, so it can be unit-tested without running the app:

* :func:`label`, :func:`group`, :func:`prompt`: a choice in words, never an id;
* :func:`preferred`: which choice is highlighted; it never spends tackle,
  discards bait, or ends the turn (see "No traps" in docs/tui.md);
* :func:`sensible`: the one answer worth giving, when a question has only one
  (a cast bait with a single Master Angler card to go on), so it need not be asked;
* :func:`preview` (preview.py): what a choice will do, where that is knowable now;
* :func:`standings`: the contest weights you would submit now and trophies held;
* :class:`CrownWords`: all of it for one table's seats, the object the table screen
  is given (``tui/games/words.py``), with the log's words (log.py: trophies, Master
  Angler catches, the end trigger, the silent player's turn) and the game's facts the
  screens around the table show (its option, Practice Pond, the trophies won).

The small names every part shares (fish, cards, trophies, bait letters) are in names.py;
what a move will do, in preview.py. Every function here words the same decision with the
same names, so a reader who looks up how one choice is worded finds its neighbours beside
it; a count a rule decides (open spots, a fill's bait, the tackle a catch plays, a contest's
rank order and weights) is the engine's own, asked of ``core/crown``. The same file name in
every game's folder (``words.py``) holds that game's words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Never, assert_never

from coldwater.core.crown import casting, contests, port
from coldwater.core.crown.actions import (
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
from coldwater.core.crown.content import Tables
from coldwater.core.crown.model import (
    COLOUR_INDEX,
    COLOUR_LOCATION,
    COLOURS,
    CONTEST_ORDER,
    LOCATION_TITLES,
    LOCATIONS,
    SPACES,
    TROPHY_TITLES,
    CrownData,
    Player,
)
from coldwater.core.crown.state import CrownState
from coldwater.core.state import CHANCE, Game
from coldwater.tui.games.words import Choice, TableWords, Won

from .log import announcements, silent_turn, summarize_chance
from .names import TROPHY_SHORT, clock, fish_name, ma_name, names_of, spots_letters
from .preview import my_fish, preview, tackle_used, take_words

GROUP_ORDER: tuple[str, ...] = (
    "place",
    "remove",
    "fill",
    "take",
    "taketop",
    "skip",
    "route",
    "discard",
    "catch",
    "zone6",
    "lose",
    "tackle",
    "silent",
    "white",
    "submit",
    "reel",
    "lure",
    "end",
)
"""Choices in this order: the step's own choices first, tackle plays after, ending last."""

SPENDS: frozenset[str] = frozenset({"reel", "lure", "discard", "end"})
"""Choices never highlighted by default: they use up tackle or bait, or end the turn."""

DONE_TAGS: frozenset[str] = frozenset({"end"})
"""The "done" action of a decision, for the table's fixed end-turn key."""

REVEALS: frozenset[str] = frozenset({"fill", "taketop", "tackle"})
"""Choices that draw something unseen (bait, a card, a tackle piece): never answered for you."""


def tag_of(action: CrownAction) -> str:
    return str(action).split()[0]


def port_total(d: CrownData) -> int:
    """How many Port actions this visit gives: the side of the token placed (Step 1) or removed (Step 2)."""
    if d.step == 1 and 0 <= d.placed < len(d.tokens):
        return max(d.tokens[d.placed], d.port_left)
    return max(d.removed, d.port_left)


def step_note(d: CrownData, legal: Sequence[CrownAction]) -> str:
    """ "1 of 2" on a Port visit with two actions."""
    if not any(tag_of(a) in ("fill", "take", "taketop", "skip") for a in legal):
        return ""
    total = port_total(d)
    return f"{total - d.port_left + 1} of {total}" if total > 1 else ""


def repeat_key(d: CrownData, legal: Sequence[CrownAction]) -> str | None:
    """Where each cast bait goes is asked again and again: "!" can answer it for the game."""
    tags = {tag_of(a) for a in legal}
    return f"route {COLOURS[d.colour]}" if tags == {"route", "discard"} else None


# ---- the choice list -----------------------------------------------------------------


def group(d: CrownData, T: Tables, action: CrownAction) -> str:
    tag = tag_of(action)
    if tag in ("place", "remove"):
        return "Angler spaces"
    if tag in ("fill", "take", "taketop", "skip"):
        return "Port: fill a Zone" if tag == "fill" else "Port: take a Master Angler card"
    if tag in ("route", "discard"):
        return f"Cast {COLOURS[d.colour]} bait · {d.route_left} to place"
    if tag in ("catch", "zone6", "lose"):
        return "Catch a fish"
    if isinstance(action, TakeTackle):
        return "Zone 5 bonus"
    if isinstance(action, Reel):
        return "Play your Reel"
    if isinstance(action, Lure):
        return "Play your Lure"
    if isinstance(action, Submit):
        return f"Contest · which {fish_name(T, action.species)}?"
    if tag in ("silent", "white"):
        return "For the silent player"
    if isinstance(action, EndTurn):
        return "Step 3"
    return ""


def label(d: CrownData, T: Tables, action: CrownAction, seat: int | None) -> str:
    """One choice in words. Raises on an action it does not know (the caller falls back)."""
    tag = tag_of(action)
    match action:
        case Place() | Remove():
            i = SPACES.index(action.space)
            side = d.parties[d.turn].token if tag == "place" else d.tokens[i]
            if action.space == "port":
                return f"Port [{side}]: {'one Port action' if side == 1 else 'two Port actions'}"
            amount = "one" if side == 1 else "all"
            return f"{action.space.capitalize()} [{side}]: cast {amount} {action.space}"
        case Fill():
            return f"Fill Zone {action.zone} (draw {port.to_fill(d.parties[d.turn], action.zone)})"
        case Take():
            # Which card first (two of one fish differ by their spots): a narrow list wraps the rest.
            return f"Take the {ma_name(T, action.card)} ({spots_letters(T, action.card)}) Master Angler card"
        case TakeTop():
            return "Take the top Master Angler card, unseen"
        case Skip():
            return "No Port action is possible: go on"
        case Route():
            m = next(m for m in d.parties[d.turn].ma if m.card == action.card)
            open_ = casting.spots_left(T, m)
            return f"Onto your {ma_name(T, action.card)} ({open_} open spot{'s' if open_ != 1 else ''})"
        case Discard():
            return "To the discard pile"
        case Catch():
            li = LOCATIONS.index(action.loc)
            fish = d.zones[li][action.at - 3]
            name = fish_name(T, fish.species) if fish is not None else "nothing"
            uses = tackle_used(d, action)
            use = f", plays your {' and '.join(uses)}" if uses else ""
            where = f"{LOCATION_TITLES[li]} Zone {action.at}"
            return f"The {name} ({where}) for your Zone {action.zone}{use}"
        case Zone6():
            pend = next(p for p in d.pending if p.zone == 6)
            home = COLOUR_LOCATION[pend.colour]
            top = d.tops[home]
            name = fish_name(T, top.species) if top is not None else "fish"
            return f"Zone 6 bonus: the {name} on top of the {LOCATION_TITLES[home]} deck instead"
        case Lose():
            return f"Nothing for Zone {action.zone}: that Zone on the board is empty"
        case TakeTackle():
            return "Take the top tackle piece" if action.take else "Leave the tackle"
        case Reel():
            if action.a == action.b:
                return f"Reel: two {action.colour} from Zone {action.a}"
            return f"Reel: one {action.colour} from Zone {action.a} and one from Zone {action.b}"
        case Lure():
            return f"Lure: {action.ca} in Zone {action.a} ⇄ {action.cb} in Zone {action.b}"
        case Submit():
            cards = my_fish(d, T, d.cur if d.cur is not None and d.cur >= 0 else -1, action.species)
            if 1 <= action.rank <= len(cards):
                c = cards[action.rank - 1]
                return f"{fish_name(T, action.species)} {T.weight[c]} lb ({T.tag[c]} tag, {clock(T.time[c])})"
            return f"{fish_name(T, action.species)}, number {action.rank} by weight"
        case SilentDraws():
            return f"The silent player draws {action.n} bait" + (" (you have fewer fish)" if action.n == 1 else "")
        case WhiteOption():
            if action.choice == "card":
                return "Give the silent player a second Master Angler card"
            return "Draw 7 bait from the bag onto the discard pile"
        case EndTurn():
            return "End your turn"
        case Bait() | Reveal() | MAFlip() | MWFlip() | TackleDraw() | TagTile():
            raise KeyError(tag)  # chance: never a person's choice (the caller falls back)
        case _:
            assert_never(action)


def spends(d: CrownData, action: CrownAction) -> bool:
    """True if choosing `action` uses up tackle or bait, or ends the turn (never a default)."""
    tag = tag_of(action)
    if tag in SPENDS:
        return True
    if isinstance(action, Catch):
        return bool(tackle_used(d, action))
    if isinstance(action, TakeTackle):
        return not action.take
    return False


def order(actions: Sequence[CrownAction]) -> list[CrownAction]:
    rank = {g: n for n, g in enumerate(GROUP_ORDER)}
    return [a for _, a in sorted(enumerate(actions), key=lambda ia: (rank.get(tag_of(ia[1]), len(rank)), ia[0]))]


def preferred(d: CrownData, T: Tables, ordered: Sequence[CrownAction]) -> int | None:
    """Index of the choice to highlight, or None (nothing is safe to pre-select).

    In a contest, the heaviest fish; when bait is cast, the Master Angler card
    closest to being caught; elsewhere the first choice that spends nothing.
    """
    best: tuple[int, int] | None = None
    seat = d.cur if d.cur is not None else -1
    for n, a in enumerate(ordered):
        if isinstance(a, Submit):
            cards = my_fish(d, T, seat, a.species)
            w = T.weight[cards[a.rank - 1]] if 1 <= a.rank <= len(cards) else -1
            if best is None or w > best[0]:
                best = (w, n)
        elif isinstance(a, Route):
            m = next((m for m in d.parties[d.turn].ma if m.card == a.card), None)
            left = casting.spots_left(T, m) if m is not None else 99
            if best is None or -left > best[0]:
                best = (-left, n)
    if best is not None:
        return best[1]
    for n, a in enumerate(ordered):
        if not spends(d, a):
            return n
    return None


def sensible(d: CrownData, T: Tables, legal: Sequence[CrownAction]) -> CrownAction | None:
    """The only answer worth giving, or None when the question is a real one.

    A cast bait with exactly one Master Angler card it can go on goes there:
    a spot filled is never worse than the discard pile (the bait returns to the
    discard when the card is caught).
    """
    tags = {tag_of(a) for a in legal}
    if tags == {"route", "discard"}:
        routes = [a for a in legal if tag_of(a) == "route"]
        if len(routes) == 1:
            return routes[0]
    return None


def prompt(d: CrownData, T: Tables, legal: Sequence[CrownAction]) -> str:
    tags = {tag_of(a) for a in legal}
    if "place" in tags:
        return "Step 1: place your Angler token"
    if "remove" in tags:
        return "Step 2: remove another token"
    if tags & {"route", "discard"}:
        return f"Where does this {COLOURS[d.colour]} bait go?"
    if "submit" in tags:
        loc = LOCATION_TITLES[CONTEST_ORDER[d.contest]] if d.contest < 3 else ""
        return f"{loc} contest: which fish do you submit? (heaviest highlighted)"
    if "tackle" in tags:
        return "Zone 5 emptied: take the top tackle piece?"
    if tags & {"catch", "zone6", "lose"}:
        pend = ", ".join(f"Zone {p.zone} ({COLOURS[p.colour]})" for p in d.pending)
        return f"Which fish do you catch? Owed for {pend}"
    if tags & {"fill", "take", "taketop", "skip"}:
        return "Port: fill a Zone or take a Master Angler card"
    if "silent" in tags:
        return "You have fewer fish: how many bait does the silent player draw?"
    if "white" in tags:
        return "The clear-white bait: what else happens for the silent player?"
    if "end" in tags:
        return "Step 3: end your turn"  # with key e; tackle you can still play is listed too
    return "Your choice"


# ---- standings -----------------------------------------------------------------------


def contest_weights(d: CrownData, T: Tables, seat: int) -> tuple[int, int, int] | None:
    """Shore, Lake, River weights `seat` would submit now (the engine's own count), or None if unknown."""
    shore, river, lake = (contests.weight(T, d.parties[seat], li) for li in range(3))
    if shore is None or lake is None or river is None:
        return None
    return shore, lake, river


def trophy_points(p: Player) -> int:
    return sum(t.points for t in p.trophies)


def trophy_list(p: Player) -> str:
    """Trophies held, short: "Mystery 3+5 lb, Small 5"."""
    weights = [t.weight for t in p.trophies if t.kind == "mystery_weight"]
    parts = [f"Mystery {'+'.join(str(w) for w in weights)} lb"] if weights else []
    parts += [f"{TROPHY_SHORT.get(t.kind, t.kind)} {t.points}" for t in p.trophies if t.kind != "mystery_weight"]
    return ", ".join(parts)


def standings(d: CrownData, T: Tables, names: Sequence[str], viewer: int | None) -> str:
    """Your contest weights now, then points in hand (trophies + caught Master Angler cards) for all."""
    labels = names_of(names, len(d.parties))
    out = []
    if viewer is not None and 0 <= viewer < len(d.parties):
        w = contest_weights(d, T, viewer)
        if w is not None:
            out.append(f"Weights now: Shore {w[0]} · Lake {w[1]} · River {w[2]}")
    pts = []
    for i, p in enumerate(d.parties):
        pts.append(f"{'you' if i == viewer else labels[i]}: {trophy_points(p) + len(p.ma_done)}")
    out.append("Points " + " · ".join(pts))
    return " │ ".join(out)


def tables_of(game: object) -> Tables:
    """The engine's content tables (weights, tags, spots) for `game`."""
    t = getattr(game, "tables", None)
    if isinstance(t, Tables):
        return t
    from coldwater.core.crown.content import load_default

    return load_default()


_STEP_PART = {"port": ": Port actions", "route": ": casting", "catch": ": catching", "silent": ""}
"""What a Step is doing, in the title: a Port action is taken in Step 1 or Step 2."""


class CrownWords(TableWords[CrownState, CrownAction, Never]):
    """Coldwater Crown's table in words: the functions above, for one table's seats."""

    HINT_TERMS: ClassVar[dict[str, str]] = {
        "First to 12 Fish Challenge": "the 12-fish challenge",
        "Mystery Weight Challenge": "the Mystery Weight challenge",
        "Master Angler: Three Same": "Master Angler sets of three alike",
        "Master Angler: Four Different": "Master Angler sets of four species",
        "Small Species Challenge": "the Small Species challenge",
        "Fastest to 8 Species Challenge": "the race to 8 species",
        "Shore Contest": "the Shore contest",
        "Lake Contest": "the Lake contest",
        "River Contest": "the River contest",
        "Master Angler cards": "Master Angler cards",
        "Tagged fish": "tagged fish",
    }

    OPTION_LABELS: ClassVar[dict[str, str]] = {"no_tags": "No-tag variant"}
    OPTION_HINTS: ClassVar[dict[str, str]] = {
        "no_tags": "The optional rule: tagged fish score nothing, so there is less luck"
    }
    SOLO_NOTE: ClassVar[str] = (
        "Practice Pond: you play alone against the silent player, who catches fish as bait is drawn."
    )
    CONTENT_FILES: ClassVar[str] = "crown.json"
    NOTHING_WON: ClassVar[str] = "Nothing was won along the way: no trophy."

    def __init__(self, game: Game[Any, Any], names: list[str]) -> None:
        super().__init__(game, names)
        self.tables = tables_of(game)

    def milestones(self, before: CrownState | None, after: CrownState) -> list[Won]:
        """Each trophy taken; what a party holds from the setup (Practice Pond gives the silent player the
        5-point Small Species trophy) is won at the setup."""
        out = []
        for seat, p in enumerate(after.data.parties):
            held = len(before.data.parties[seat].trophies) if before is not None else 0
            for t in p.trophies[held:]:
                title = TROPHY_TITLES.get(t.kind, t.kind)
                out.append(Won(seat, f"{title} ({t.points} point{'' if t.points == 1 else 's'})"))
        return out

    # ---- the decision ----------------------------------------------------------------
    def choice_items(
        self, view: CrownState, legal: list[CrownAction], label: Callable[[CrownState, CrownAction], str]
    ) -> tuple[list[Choice[CrownAction]], int | None]:
        d: CrownData = view.data
        ordered = order(legal)
        items = [Choice(label(view, a), a, group=group(d, self.tables, a)) for a in ordered]
        return items, preferred(d, self.tables, ordered)

    def label(self, view: CrownState, action: CrownAction, viewer: int | None) -> str:
        return label(view.data, self.tables, action, viewer)

    def prompt(self, view: CrownState) -> str:
        return prompt(view.data, self.tables, view.legal())

    def step_note(self, view: CrownState) -> str:
        return step_note(view.data, view.legal())

    def is_costly(self, view: CrownState, action: CrownAction) -> bool:
        return spends(view.data, action) and tag_of(action) not in DONE_TAGS

    def reveals(self, view: CrownState, action: CrownAction) -> bool:
        return tag_of(action) in REVEALS

    def repeat_key(self, view: CrownState) -> str | None:
        return repeat_key(view.data, view.legal())

    def look(self, view: CrownState, row: str, viewer: int | None) -> list[str]:
        """The Master Angler cards named on a board row (on offer, or being worked on), each
        with its spots and what catching it takes; then the row itself, in full."""
        d = view.data
        T = self.tables
        named = [c for c in dict.fromkeys([*d.ma_row, *(m.card for p in d.parties for m in p.ma)])]
        named = [c for c in named if f"{ma_name(T, c)} " in f"{row} "]
        squeezed = row.replace(" ", "")
        # Two cards of one fish differ by their spots, which the row shows after the name.
        exact = [c for c in named if spots_letters(T, c).replace(" ", "") in squeezed]
        out = [f"{take_words(T, c)}." for c in (exact or named)]
        return out + ([""] if out else []) + [row.strip()]

    def always_label(self, view: CrownState, action: CrownAction, viewer: int | None) -> str:
        # Without the open spots: "!" gives this answer again after they change.
        colour = COLOURS[view.data.colour]
        if isinstance(action, Route):
            return f"{colour} bait onto your {ma_name(self.tables, action.card)}"
        return f"{colour} bait to the discard pile" if isinstance(action, Discard) else self.label(view, action, viewer)

    def preview(self, view: CrownState, action: CrownAction) -> str:
        return preview(view.data, self.tables, action)

    # ---- the lines above the board ------------------------------------------------------
    def standings(self, view: CrownState, viewer: int | None) -> str:
        return standings(view.data, self.tables, self.names, viewer)

    def status(self, view: CrownState, viewer: int | None) -> str:
        d: CrownData = view.data
        title = self.game.title
        cur = view.current
        if cur is None:
            return f"{title} — game over"
        names = names_of(self.names, len(d.parties))
        if cur == viewer:
            base = f"{title} — your turn"
        elif d.step == 4 and cur != CHANCE:
            base = f"{title} — {names[cur]} is choosing"
        else:
            whose = names[d.turn] if 0 <= d.turn < len(names) else "?"
            base = f"{title} — {whose}'s turn"
        extra = []
        if 1 <= d.step <= 3:
            extra.append(f"Step {d.step} of 3" + _STEP_PART.get(d.phase, ""))
        if d.end_triggered and d.step < 4:
            extra.append("final round")
        if d.step == 4:
            extra.append("the contests")
        return base + (f" · {' · '.join(extra)}" if extra else "")

    # ---- the log ----------------------------------------------------------------------------
    def party_name(self, party: int) -> str:
        return names_of(self.names, party + 1)[party]

    def summarize_chance(self, lines: list[str]) -> list[str]:
        return summarize_chance(lines)

    def announcements(self, before: CrownState, after: CrownState, seat: int, action: CrownAction) -> list[str]:
        d0: CrownData = before.data
        d1: CrownData = after.data
        out: list[str] = []
        if seat == CHANCE and d0.tasks and d0.tasks[0].kind == "silent" and isinstance(action, Bait):
            out.append(silent_turn(d0, d1, self.tables, COLOUR_INDEX.get(action.colour, 6)))
        return out + announcements(d0, d1, self.tables, self.names)


WORDS = CrownWords
"""This game's words (tui.games.words_of)."""
