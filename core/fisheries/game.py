"""The Fisheries of Gloucester game object (registered as ``fisheries``).

Options: ``board`` "A" (printed board) or "B" (players lay out islands, rough
water and fish; see variant_setup.py) and ``market`` (the preservation-market
variant; see market.py).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from coldwater.core import content as core_content
from coldwater.core.bots import BOT_NAMES, SearchSpec
from coldwater.core.dealing import PUBLIC_DRAWS
from coldwater.core.evaluate import EvalBudget, EvalSpec
from coldwater.core.rng import Rng
from coldwater.core.state import GameBase, bind_state, seed_text

from .actions import FAction
from .content import Content, check
from .model import Ctx
from .setup import new_data
from .state import FisheriesState


class FisheriesOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    board: Literal["A", "B"] = "A"
    market: bool = False


class FisheriesGame(GameBase[FisheriesState, FAction]):
    name = "fisheries"
    title = "Fisheries of Gloucester"
    min_players = 2
    max_players = 2
    options_type = FisheriesOptions
    bots = BOT_NAMES
    sealed_values = False  # no hidden information: every card and tile is face up
    dealing = PUBLIC_DRAWS  # every draw public: nothing for a dealer to seal

    def __init__(self, content: Content) -> None:
        self.content = content
        self.ctx = Ctx(content)
        # A State subclass per content, so clone()/view() keep the same geometry.
        self.state_type = bind_state(FisheriesState, CTX=self.ctx)
        self._hash = core_content.content_hash(content)

    @property
    def content_hash(self) -> str:
        return self._hash

    def with_content(self, given: core_content.ContentFiles) -> FisheriesGame:
        """This game with a person's own content file (same schema as data/fisheries.json)."""
        return FisheriesGame(core_content.load_given(given, "fisheries.json", Content, check))

    def new(self, players: int = 2, seed: int | str | bytes | None = None, options: object = None) -> FisheriesState:
        self.check_players(players)
        opts = self.make_options(options)
        assert isinstance(opts, FisheriesOptions)
        return self.state_type(new_data(self.ctx, opts.board, opts.market), seed=seed_text(seed))

    def determinize(self, view: FisheriesState, rng: Rng) -> FisheriesState:
        # Nothing is hidden: the view is already the full position.
        return view.clone()

    def bot_spec(self) -> SearchSpec:
        from .bot import GreedyBot, evaluate

        return SearchSpec(
            GreedyBot,
            evaluate,
            normal={"iterations": 16, "width": 3, "horizon": 30},
            hard={"iterations": 48, "width": 5, "horizon": 30},
            # Worlds so that a whole 2-player seat reviews in seconds (docs/benchmarks.md); little
            # is random in Fisheries, so its differences vary least. A hint answers while a
            # person waits (median 0.5 s, at most 1.5 s): close calls race up to `worlds`.
            coach=EvalSpec(
                review=EvalBudget(worlds=8, min_worlds=4, batch=2, measure=16, confirm=16),
                hint=EvalBudget(worlds=12, min_worlds=4, batch=2, width=4),
            ),
        )


def load_default() -> Content:
    return core_content.load_packaged("coldwater.core.fisheries", "fisheries.json", Content, check)


GAME = FisheriesGame(load_default())
