"""The end of a fair table: every deck audited, then the whole game replayed (docs/fairplay.md).

Once every seat has revealed its key and its passes (:class:`~.wire.KeyReveal`), any
process can check every deck (:func:`~.deckaudit.audit_deck`, which names the seat at
fault) and, from the cards the decks dealt, replay the full game from the public record.
What it reads is named in :func:`audit_game`'s signature: the public record, the decks as
this process followed them, what it read itself, and its own view; it changes nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from coldwater.core import record as records
from coldwater.core.dealing import Where
from coldwater.core.errors import IllegalAction
from coldwater.core.record import GameRecord
from coldwater.core.state import CHANCE, Game, State

from .. import fairplay as fp
from .deck import Deck, TableKeys
from .deckaudit import Claim, DeckAudit, audit_deck
from .mapping import checked_by_the_game
from .wire import KeyReveal


@dataclass
class FairAudit:
    ok: bool
    problems: list[str]
    culprits: list[int]
    full: State[Any, Any] | None
    """The full state replayed from the record and the cards every deck dealt (None when not ok)."""
    record: GameRecord | None = None
    """The whole game replayed, as a record the replay viewer reads (None when not ok)."""


def audit_game(
    game: Game[Any, Any],
    players: int,
    joint: bytes,
    options: object,
    *,
    seat: int | None,
    view: State[Any, Any],
    keys: TableKeys,
    decks: Sequence[Deck],
    merged: Collection[str],
    known: Mapping[Where, str],
    public: Sequence[tuple[str, Any]],
    reveals: Mapping[int, KeyReveal],
) -> FairAudit:
    """Every deck audited from every seat's revealed key and passes; the game replayed in full from them.

    `decks` are in the order they were formed, `merged` the ids of those formed mid-game
    from what others left (audited from the ciphertexts they started with), `known` every
    label `seat` read (its claims), `public` the public record (("act", action),
    ("public", outcome), ("deal", (deck, position))). The replay's view for `seat` must
    equal `view`, the view the seat advanced itself; the scores come from the replay. An
    observer (`seat` None) claims no card: it read only what every seat stripped, and the
    replay's public view checks those.
    """
    dealing = game.dealing
    assert dealing is not None  # (a fair table's game declares its decks)
    problems: list[str] = []
    culprits: list[int] = []
    cards: dict[str, list[tuple[str, ...]]] = {}
    for d in decks:
        deck_id = d.spec.id
        claims = [] if seat is None else [Claim(seat, *w, label) for w, label in known.items() if w[0] == deck_id]
        start = d.start if deck_id in merged else None  # a merged deck starts from ciphertexts
        rep: DeckAudit = audit_deck(
            d.spec, keys, d.passes, reveals, start=start, strips=d.strips, handovers=d.handovers, claims=claims
        )
        problems += [f"{deck_id}: {p}" for p in rep.problems]
        culprits += [c for c in rep.culprits if c not in culprits]
        cards[deck_id] = rep.cards
    if problems:
        return FairAudit(False, problems, culprits, None)
    full = game.new(players, seed=fp.game_seed(joint), options=options)
    # The whole game as a record, every card in it, for the end screen and Replays: once every
    # key is out, what each seat held is no longer anyone's secret.
    whole = records.start(game, full, options)
    try:
        for kind, what in public:
            action = what
            if kind == "deal":
                deck_id, pos = what
                labels = list(cards[deck_id][pos])
                with checked_by_the_game():
                    action = dealing.outcome(deck_id, labels)
            who = full.current
            full.apply(action)
            records.append(whole, CHANCE if who is None else who, action, full)
    except IllegalAction as e:
        return FairAudit(False, [f"the record does not replay with the cards dealt: {e}"], [], None)
    if full.view(seat).digest() != view.digest():
        return FairAudit(False, ["this seat's own view is not the replay's view of it"], [], None)
    return FairAudit(True, [], [], full, whole)
