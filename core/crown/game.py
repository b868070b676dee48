"""GAME: Coldwater Crown for 1 to 4 players (1 player is the Practice Pond)."""

from __future__ import annotations

from coldwater.core.bots import BOT_NAMES, SearchSpec
from coldwater.core.content import ContentFiles
from coldwater.core.evaluate import EvalBudget, EvalSpec, LinearCut
from coldwater.core.rng import Rng
from coldwater.core.state import GameBase, bind_state, seed_text

from .actions import CrownAction
from .content import Tables, load_default, load_given
from .dealing import DEALING
from .model import CrownOptions
from .rulings import RULINGS
from .setup import new_data
from .state import CrownState
from .turns import advance
from .views import determinize


class CrownGame(GameBase[CrownState, CrownAction]):
    name = "crown"
    title = "Coldwater Crown"
    min_players = 1
    max_players = 4
    options_type = CrownOptions
    bots = BOT_NAMES
    dealing = DEALING  # its decks and slot map for a LAN table's dealer: dealing.py
    rulings = RULINGS  # where the rulebook is silent, what this engine does: rulings.py

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        # Each content gets its own State class so clones and text forms keep it.
        self.state_type = bind_state(CrownState, TABLES=tables)

    @property
    def content_hash(self) -> str:
        return self.tables.hash

    @property
    def stand_in(self) -> bool:
        return self.tables.content.stand_in

    def with_content(self, given: ContentFiles) -> CrownGame:
        """A game that uses a person's own card file (see docs/content.md)."""
        return CrownGame(load_given(given))

    def new(self, players: int, seed: int | str | bytes | None = None, options: object = None) -> CrownState:
        self.check_players(players)
        opts = self.make_options(options)
        assert isinstance(opts, CrownOptions)
        d = new_data(players, opts.no_tags, self.tables)
        advance(d, self.tables)
        return self.state_type(d, seed=seed_text(seed))

    def determinize(self, view: CrownState, rng: Rng) -> CrownState:
        return self.state_type(determinize(view.data, self.tables, rng), seed=None, ply=view.ply)

    def bot_spec(self) -> SearchSpec:
        from .bot import GreedyBot, cut_features, evaluate_with

        cut = LinearCut(self.name, cut_features(self.tables))
        return SearchSpec(
            lambda: GreedyBot(self.tables),
            evaluate_with(cut),
            normal={"iterations": 16, "width": 3},
            # Hard cuts its playouts where the review does, with the same fitted value: half the
            # CPU a decision (0.47 s against 1.0), and it beat normal 8 of 10 (docs/benchmarks.md).
            hard={"iterations": 256, "width": 4, "horizon": CUT},
            # Worlds so that a whole 2-player seat reviews in seconds of two cores
            # (tests/bench/coach.py, docs/benchmarks.md); a playout's margin varies by ~8 points
            # from one world to the next, so the review cuts playouts at `horizon` decisions
            # and the fitted value stands in for the rest (docs/coach.md).
            coach=EvalSpec(
                review=EvalBudget(worlds=16, min_worlds=8, measure=16, confirm=48, horizon=CUT),
                hint=EvalBudget(worlds=24, min_worlds=8, width=4),
                value=cut,
            ),
        )


CUT = 80
"""Decisions a review's (and the hard bot's) playout plays before the fitted value stands in
for the rest: on 20 decisions the spread of a paired difference fell from about 9.3 points
a world to 3.6-4.4, the means within about 1 point of whole playouts' (docs/benchmarks.md);
at 40 it fell to 2.1-2.5 but the means strayed by 1.5-1.9."""

GAME = CrownGame(load_default())
