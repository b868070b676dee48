"""Aquatica cards in words: effect text rendered from the card data.

Every text a person reads about a card (the board, the choice labels, the
details pane) comes from here, built from the engine's compiled content
(``game.deck``: Characters, Locations, Mantas, Tribes, Goals). Nothing is
hard-coded per card, so a person's own content file reads correctly too.
"""

from __future__ import annotations

from rich.text import Text

from coldwater.core.aquatica.content import Deck
from coldwater.core.aquatica.model import (
    HIDDEN,
    HIDDEN_KING,
    KING_BASE,
    LOC_TYPES,
    OCEAN_BASE,
    Eff,
    Loc,
    Manta,
    TribeSpec,
)

TYPE_NAMES: dict[str, str] = {
    "shark": "Shark Bay",
    "ships": "Sunken Ships",
    "civ": "Decayed Civilizations",
    "volcano": "Ocean Volcanoes",
    "frosty": "Frosty Depths",
}
TYPE_SHORT: dict[str, str] = {
    "shark": "Shark",
    "ships": "Ships",
    "civ": "Civ",
    "volcano": "Volcano",
    "frosty": "Frosty",
}
# Rich's basic colour names: they follow the terminal palette in the ANSI theme.
TYPE_STYLES: dict[str, str] = {
    "shark": "bold red",
    "ships": "bold yellow",
    "civ": "bold green",
    "volcano": "bold magenta",
    "frosty": "bold cyan",
}
COIN = "¢"
WILD_ICON = "✦"
READY, TIRED, PLACED = "●", "○", "⚑"

_WORDS: dict[str, str] = {
    "recruit": "recruit a Character (pay its price)",
    "free_recruit": "recruit a Character for free",
    "buy": "buy a Location (coins)",
    "conquer": "conquer a Location (power)",
    "scout": "scout (optional)",
    "score": "score a fully risen Location",
    "take_back": "take back a Character from your discard pile",
    "fully_rise": "fully raise a Location",
    "ready": "ready your Mantas",
    "matrona": "take back every discarded Character and ready your Mantas (stays in hand)",
    "opp_flip": "every other player flips a ready Manta",
    "opp_discard": "every other player discards a Character",
    "copy": "copy a visible effect Depth of another of your Locations",
    "replay": "replay a Character from your discard pile",
    "wild_manta": "take a Wild Manta",
    "empty": "empty Depth (blocks until raised past)",
}
_SHORT: dict[str, str] = {
    "recruit": "recruit",
    "free_recruit": "free recruit",
    "buy": "buy",
    "conquer": "conquer",
    "scout": "scout",
    "score": "score",
    "take_back": "take back",
    "fully_rise": "fully raise",
    "ready": "ready Mantas",
    "matrona": "take back all + ready Mantas",
    "opp_flip": "others flip a Manta",
    "opp_discard": "others discard",
    "copy": "copy a Depth",
    "replay": "replay",
    "wild_manta": "Wild Manta",
    "empty": "empty",
}


def loc_type(k: Deck, loc_id: int) -> str:
    return LOC_TYPES[k.loc_type[loc_id]]


def eff_text(e: Eff, short: bool = False) -> str:
    """One effect in words (``short``: a few words, for tight spots)."""
    if e.op == "coins":
        return f"+{e.n}{COIN}" if short else f"+{e.n} coin{'s' if e.n != 1 else ''}"
    if e.op == "power":
        return f"+{e.n} power"
    if e.op == "tpower":
        return f"+{e.n} power→{TYPE_SHORT[e.t]}" if short else f"+{e.n} power toward {TYPE_NAMES[e.t]}"
    if e.op == "raise":
        if short:
            return f"raise {e.n}" + (" split" if e.split else "")
        return f"raise {e.n}" + (" (split as you like)" if e.split else " (one Location)")
    return (_SHORT if short else _WORDS).get(e.op, e.op.replace("_", " "))


def effs_text(effs: tuple[Eff, ...] | list[Eff], short: bool = False, sep: str = " · ") -> str:
    if not effs:
        return "—"
    if not short:
        return sep.join(eff_text(e) for e in effs)
    # Short lines must fit a hand row at 80 columns: a run of equal typed power
    # reads as one, "+1 power→Volcano/Ships/Civ".
    parts: list[str] = []
    prev: Eff | None = None
    for e in effs:
        if e.op == "tpower" and prev is not None and prev.op == "tpower" and prev.n == e.n:
            parts[-1] += f"/{TYPE_SHORT[e.t]}"
        else:
            parts.append(eff_text(e, True))
        prev = e
    return sep.join(parts)


# ---- Characters ----------------------------------------------------------------
def char_name(k: Deck, c: int) -> str:
    if c == HIDDEN:
        return "a hidden Character"
    if c == HIDDEN_KING:
        return "a hidden King"
    return str(k.char_name[c])


def char_kind(k: Deck, c: int) -> str:
    if c < 0:
        return ""
    if c >= KING_BASE:
        return f"King {c - KING_BASE + 1}"
    if c >= OCEAN_BASE:
        return "Ocean Character"
    return "Starting Character"


def char_line(k: Deck, c: int, short: bool = True) -> str:
    """``Sea Horse: scout · +1 power · conquer`` (and its Delayed Effect)."""
    if c < 0:
        return char_name(k, c)
    out = f"{k.char_name[c]}: {effs_text(k.char_effs[c], short)}"
    if k.char_delayed[c]:
        out += f"  [delayed: {effs_text(k.char_delayed[c], short)}]"
    return out


def char_details(k: Deck, c: int) -> Text:
    t = Text()
    if c < 0:
        t.append(char_name(k, c), style="bold")
        return t
    t.append(k.char_name[c], style="bold")
    t.append(f"  {char_kind(k, c)}\n", style="dim")
    effs = k.char_effs[c]
    if effs:
        t.append("Effects in order: ")
        t.append(effs_text(effs, sep=" → "))
    else:
        t.append("No effects: discarded at setup for a Wild Manta.")
    if k.char_delayed[c]:
        t.append("\nDelayed Effect ", style="bold magenta")
        t.append(
            f"(while on top of your discard pile, before your next Main Action): "
            f"{effs_text(k.char_delayed[c], sep=' → ')}"
        )
    return t


# ---- Locations -------------------------------------------------------------------
def type_tag(k: Deck, loc_id: int, short: bool = True) -> Text:
    t = loc_type(k, loc_id)
    return Text(TYPE_SHORT[t] if short else TYPE_NAMES[t], style=TYPE_STYLES[t])


def loc_cost(k: Deck, loc_id: int, on_top: bool) -> str:
    power = max(0, k.loc_power[loc_id] - (1 if on_top else 0))
    return f"{k.loc_coins[loc_id]}{COIN}/{power}p"


def loc_summary(k: Deck, loc_id: int, on_top: bool = False) -> Text:
    """``Jaw Cove Shark 3¢/2p 2PP 1D ✦`` for a row."""
    t = Text()
    t.append(k.loc_name[loc_id], style="bold")
    t.append(" ")
    t.append_text(type_tag(k, loc_id))
    t.append(f" {loc_cost(k, loc_id, on_top)} {k.loc_pp[loc_id]}PP {len(k.loc_depths[loc_id])}D")
    if k.loc_manta[loc_id]:
        t.append(f" {WILD_ICON}", style="bold cyan")
    return t


def loc_line(k: Deck, loc_id: int, on_top: bool = False, name_width: int = 16) -> Text:
    """A Location in an Ocean row with its Depths, top first:
    ``Jaw Cove  Shark  3¢ or 2 power  2 PP  ✦ Depths +1¢, raise 1``."""
    t = Text()
    t.append(f"{k.loc_name[loc_id]:<{name_width}} ", style="bold")
    tag = type_tag(k, loc_id)
    tag.pad_right(8 - len(tag.plain))
    t.append_text(tag)
    power = max(0, k.loc_power[loc_id] - (1 if on_top else 0))
    t.append(f"{k.loc_coins[loc_id]:>2}{COIN} or {power} power {k.loc_pp[loc_id]:>2} PP ")
    t.append(WILD_ICON if k.loc_manta[loc_id] else " ", style="bold cyan")
    depths = k.loc_depths[loc_id]
    t.append(
        " Depths " + (", ".join(eff_text(e, short=True) for e in depths) if depths else "none (risen)"), style="dim"
    )
    return t


def loc_details(k: Deck, loc_id: int, on_top: bool = False, pos: int = 0) -> Text:
    t = Text()
    t.append(k.loc_name[loc_id], style="bold")
    t.append("  ")
    t.append_text(type_tag(k, loc_id, short=False))
    power = max(0, k.loc_power[loc_id] - (1 if on_top else 0))
    t.append(
        f"  buy {k.loc_coins[loc_id]} coins · conquer {power} power"
        + (" (top row: 1 less)" if on_top else "")
        + f" · {k.loc_pp[loc_id]} PP\n"
    )
    depths = k.loc_depths[loc_id]
    if not depths:
        t.append("No Depths: it arrives fully risen.")
    else:
        t.append("Depths, top first: ")
        for i, e in enumerate(depths):
            if i:
                t.append(" → ")
            t.append(eff_text(e, short=True), style="dim strike" if i < pos else ("bold reverse" if i == pos else ""))
    if k.loc_manta[loc_id]:
        t.append(f"\n{WILD_ICON} Fully risen, it gives a Wild Manta.", style="cyan")
    return t


def board_loc(k: Deck, loc: Loc) -> Text:
    """A Location on a player board: visible Depth, what is left, PP, Wild Manta."""
    depths = k.loc_depths[loc.id]
    t = Text()
    t.append(f"{k.loc_name[loc.id]:<18}", style="bold")
    t.append(" ")
    tag = type_tag(k, loc.id)
    tag.pad_right(7 - len(tag.plain))
    t.append_text(tag)
    t.append(f" {k.loc_pp[loc.id]}PP ")
    t.append(WILD_ICON if k.loc_manta[loc.id] else " ", style="bold cyan")
    t.append(" ")
    if loc.risen or loc.pos >= len(depths):
        t.append("fully risen ✓", style="bold green")
        return t
    left = len(depths) - loc.pos
    e = depths[loc.pos]
    t.append("▸", style="bold")
    t.append(eff_text(e, short=True), style="bold reverse" if not loc.used else "dim")
    if loc.used:
        t.append(" (paid this action)", style="dim")
    rest = depths[loc.pos + 1 :]
    if rest:
        t.append(" then " + ", ".join(eff_text(x, short=True) for x in rest), style="dim")
    t.append(f"  {left} left", style="italic")
    return t


# ---- Mantas, Tribes, Goals -------------------------------------------------------------
def manta_effect(k: Deck, m: Manta) -> Eff:
    return k.trained[m.kind] if m.wild < 0 else k.wild[m.wild]


def manta_text(k: Deck, m: Manta, i: int) -> Text:
    """``●T1 +1¢`` ready, ``○`` tired, ``⚑`` placed; T trained, W wild."""
    mark = PLACED if m.placed else (READY if m.ready else TIRED)
    style = "dim" if m.placed or not m.ready else ("bold cyan" if m.wild >= 0 else "bold")
    t = Text()
    t.append(f"{mark}{'W' if m.wild >= 0 else 'T'}{i + 1} {eff_text(manta_effect(k, m), short=True)}", style=style)
    return t


def manta_name(k: Deck, m: Manta, i: int) -> str:
    kind = "Wild" if m.wild >= 0 else "Trained"
    state = "placed" if m.placed else ("ready" if m.ready else "tired")
    return f"{kind} Manta {i + 1} ({eff_text(manta_effect(k, m), short=True)}, {state})"


def tribe_spec(k: Deck, t: int) -> TribeSpec:
    return k.content.tribes.tribes[t]


_PER: dict[str, str] = {
    "wild": "Wild Manta",
    "hand": "Character in hand",
    "tribes": "Tribe recruited",
    "scored": "Location in your Scoring Pile",
    "big": "Scoring-Pile Location of 5+ PP",
    "risen": "fully risen Location on your board",
    "mantas": "Manta not placed",
}


def tribe_pp_text(sp: TribeSpec) -> str:
    per = sp.pp_per
    if per is None:  # type I (content validation: exactly the Tribes without pp_per)
        return f"{sp.pp} PP"
    what = _PER.get(per.what) or (
        f"{TYPE_NAMES[per.what[5:]]} in your Scoring Pile" if per.what.startswith("type:") else per.what
    )
    if per.every > 1:
        noun, _, rest = what.partition(" in ")
        every = f" per {per.every} {noun}s" + (f" in {rest}" if rest else "")
    else:
        every = f" per {what}"
    cap = f" (at most {per.max})" if per.max else ""
    return f"{per.pp} PP{every}{cap}"


def tribe_bonus(sp: TribeSpec, short: bool = False) -> str:
    if sp.ongoing is not None:  # type I (content validation: exactly the Tribes with one)
        return ("ongoing " if short else "Ongoing, once in each of your turns: ") + eff_text(sp.ongoing, short)
    return ("instant " if short else "Instant, when recruited: ") + effs_text(sp.instant, short)


def tribe_details(k: Deck, t: int, cost: int | None = None) -> Text:
    sp = tribe_spec(k, t)
    out = Text()
    out.append(sp.name, style="bold")
    out.append(
        f"  Tribe {'I' * sp.tier} · base cost {sp.cost}"
        + (f" (now {cost} for you)" if cost is not None and cost != sp.cost else "")
        + "\n",
        style="dim",
    )
    out.append(tribe_bonus(sp) + "\n")
    out.append("End of game: " + tribe_pp_text(sp))
    return out


def goal_name(k: Deck, g: int) -> str:
    return "a hidden Goal" if g < 0 else str(k.goals[g].name)
