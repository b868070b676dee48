"""Aquatica with Cold Waters: the Game object (registry name "aquatica")."""

from __future__ import annotations

from typing import Literal

import msgspec

from coldwater.core.bots import BOT_NAMES, SearchSpec
from coldwater.core.content import ContentFiles
from coldwater.core.evaluate import EvalBudget, EvalSpec, LinearCut
from coldwater.core.rng import Rng
from coldwater.core.state import GameBase, bind_state, seed_text

from . import main_action
from .actions import AqAction
from .content import Deck, compile_content, load_given, load_packaged
from .dealing import DEALING
from .model import HIDDEN, HIDDEN_KING, KING_BASE, OCEAN_BASE
from .setup import new_data
from .state import AqState


class AqOptions(msgspec.Struct, forbid_unknown_fields=True):
    module: Literal["goals", "tribes"] = "goals"
    variable_goals: bool = False
    kings: Literal["basic", "advanced"] = "basic"
    solo_level: int | None = None
    """Tribes Solo level 1-6 (1 player, Tribes module); None: base solo, or level 1 with Tribes."""


class AquaticaGame(GameBase[AqState, AqAction]):
    name = "aquatica"
    title = "Aquatica: Cold Waters"
    unit = "PP"
    min_players = 1
    max_players = 5
    options_type = AqOptions
    bots = BOT_NAMES
    dealing = DEALING  # its decks and slot map for a LAN table's dealer: dealing.py

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.state_type = bind_state(AqState, DECK=deck)

    @property
    def content_hash(self) -> str:
        return self.deck.hash

    def with_content(self, given: ContentFiles) -> AquaticaGame:
        """This game with a person's own content (a folder of files, or one file)."""
        return AquaticaGame(compile_content(load_given(given)))

    def new(self, players: int, seed: int | str | bytes | None = None, options: object = None) -> AqState:
        self.check_players(players)
        opts = self.make_options(options)
        assert isinstance(opts, AqOptions)
        level = opts.solo_level or 0
        if level and not (players == 1 and opts.module == "tribes"):
            raise ValueError("solo_level is for Tribes Solo: 1 player with module 'tribes'")
        if not 0 <= level <= 6:
            raise ValueError(f"solo_level must be 1 to 6, not {level}")
        if players == 1 and opts.module == "tribes" and not level:
            level = 1
        d = new_data(players, opts.module, opts.variable_goals, opts.kings, level, self.deck)
        main_action.settle(d, self.deck)
        return self.state_type(d, seed=seed_text(seed))

    def determinize(self, view: AqState, rng: Rng) -> AqState:
        """A full state consistent with `view`: sealed cards drawn from the unseen ones."""
        s = self.state_type(view.copy_data(view.data), seed=None, ply=view.ply)
        d = s.data
        k = self.deck
        # A King whose number is public (basic Kings are dealt in the open) is that King in
        # its holder's hand, not a random one: else every seat's view handed the others a
        # random King (one in five a Fancelot or Herbert, kept as a card), and each seat
        # valued the start ahead for itself (tests/core/test_luck.py).
        placed = {c for p in d.ps for c in p.hand} | set(d.char_discard)
        for p in d.ps:
            if p.king and HIDDEN_KING in p.hand and k.king_id(p.king) not in placed:
                p.hand[p.hand.index(HIDDEN_KING)] = k.king_id(p.king)
                placed.add(k.king_id(p.king))
        seen: set[int] = set(d.char_row) | set(d.char_discard) | set(d.draft)
        for p in d.ps:
            seen |= set(p.hand) | set(p.discard)
        if d.playing >= 0:
            seen.add(d.playing)
        ocean = [c for c in range(OCEAN_BASE, KING_BASE) if c not in seen]
        kings = [c for c in range(KING_BASE, k.n_chars) if c not in seen]
        rng.shuffle(ocean)
        rng.shuffle(kings)

        def fill(cards: list[int]) -> list[int]:
            return [ocean.pop() if c == HIDDEN else kings.pop() if c == HIDDEN_KING else c for c in cards]

        for p in d.ps:
            p.hand = fill(p.hand)
            if not p.king:
                p.king = next((c - KING_BASE + 1 for c in p.hand if c >= KING_BASE), 0)
        d.char_box = fill(d.char_box)
        d.char_deck = sorted(fill(d.char_deck))
        d.draft = fill(d.draft)
        d.king_pool = sorted(fill(d.king_pool))
        d.king_box = fill(d.king_box)
        seen_l = set(d.loc_top) | set(d.loc_bottom) | set(d.loc_discard)
        for p in d.ps:
            seen_l |= {loc.id for loc in p.board} | set(p.scored)
        locs = [x for x in range(len(k.loc_name)) if x not in seen_l]
        rng.shuffle(locs)
        # Keep Tribes Solo's deck/box split by type unknown: any unseen Location may be in either.
        d.loc_deck = sorted(locs.pop() if x == HIDDEN else x for x in d.loc_deck)
        d.loc_box = [locs.pop() if x == HIDDEN else x for x in d.loc_box]
        tribes = [t for t in range(len(k.content.tribes.tribes)) if t not in d.tribes]
        d.tribe_pool = sorted(tribes) if HIDDEN in d.tribe_pool or not d.tribe_pool else d.tribe_pool
        tokens = [g for g in range(4, len(k.goals)) if (g - 4) // 2 not in {(x - 4) // 2 for x in d.goals if x >= 4}]
        if d.goal_pool and HIDDEN in d.goal_pool:
            d.goal_pool = tokens
        return s

    def bot_spec(self) -> SearchSpec:
        from .bot import GreedyBot, cut_features, evaluate_with

        cut = LinearCut(self.name, cut_features(self.deck))
        return SearchSpec(
            GreedyBot,
            evaluate_with(cut),
            normal={"iterations": 16, "width": 3},
            # Hard cuts its playouts where the review does, with the same fitted value (a solo game,
            # which has none, is played to the end); its plies a decision keep the CPU of the
            # search that played to the end (docs/benchmarks.md).
            hard={"iterations": 720, "width": 4, "max_plies": 21000, "horizon": CUT},
            # Worlds so that a whole 2-player seat reviews in seconds (docs/benchmarks.md). A hint
            # answers while a person waits (median 0.5 s, at most 1.5 s): close calls race up to
            # `worlds`, clear ones stop at `min_worlds`.
            coach=EvalSpec(
                review=EvalBudget(worlds=16, min_worlds=8, measure=16, confirm=48, horizon=CUT),
                hint=EvalBudget(worlds=24, min_worlds=8, width=4),
                value=cut,
            ),
        )


CUT = 80
"""Decisions a review's (and the hard bot's) playout plays before the fitted value stands in for the rest: on 20
decisions the spread of a paired difference fell from 9.7-11.4 PP a world to 5.2-5.5, the
means within 1.0-1.6 PP of whole playouts' (docs/benchmarks.md)."""

GAME = AquaticaGame(compile_content(load_packaged()))
