"""Ratings per SSH key and game on `coldwater serve`, from the agreed results it keeps (docs/ssh.md).

The rating model is openskill's Plackett–Luce (Weng and Lin's Bayesian approximation, the model
behind OpenSkill and close to TrueSkill): it rates multiplayer games with any number of seats
from their places, which an Elo for two does not, and it is a maintained library rather than
arithmetic of ours. A rating is a belief (mu, sigma); the number shown is openskill's *ordinal*,
``mu - 3 sigma`` (0 for a key that has not played), which rises as the server grows sure of a
player, so nobody tops the list after one lucky game.

What counts (as a group of friends would expect):

- only results that are *agreed* (database.GameResult.agreed: the audit passed, nobody forfeited,
  no bot played a person's seat for them);
- only the seats of people the server can name (an SSH key); bots and LAN players without a
  key here are left out, and the people keep their places among themselves;
- a game needs two different keys to count: a game against bots alone rates nobody.

Ratings are computed again from the whole history each time (a few milliseconds for thousands of
games), in the order the games ended, so they are never out of step with the results, and a
restored backup gives the same ratings.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from coldwater.tui.serve.database import GameResult


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    player: str
    """The SSH key fingerprint."""
    mu: float
    sigma: float
    games: int
    last: float
    """When the player's last rated game ended (seconds since the epoch)."""

    @property
    def shown(self) -> float:
        """The number people see: mu - 3 sigma, at least 0."""
        return max(0.0, self.mu - 3 * self.sigma)


class Change(msgspec.Struct, frozen=True, kw_only=True):
    """How one rated game moved one player's shown rating."""

    result: int
    player: str
    before: float
    after: float


class Ratings(msgspec.Struct, frozen=True):
    by_player: dict[str, dict[str, Rating]]
    """player → game → rating."""
    changes: dict[int, dict[str, Change]]
    """result id → player → change (only rated games, only rated seats)."""

    def table(self, game: str = "") -> list[Rating]:
        """Every rating (of `game` when given), best first."""
        rows = [r for games in self.by_player.values() for r in games.values() if not game or r.game == game]
        return sorted(rows, key=lambda r: (r.game, -r.shown, r.player))


def rate(results: Iterable[GameResult]) -> Ratings:
    """The ratings after `results` (any order: they are taken in the order the games ended)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    now: dict[tuple[str, str], Rating] = {}
    changes: dict[int, dict[str, Change]] = {}
    for r in sorted(results, key=lambda r: (r.ended, r.id)):
        if not r.agreed:
            continue
        people = [s for s in r.seats if s.player and not s.bot]
        if len({s.player for s in people}) != len(people) or len(people) < 2:
            continue  # one key at two seats, or nobody to be rated against
        before = [now.get((r.game, s.player)) for s in people]
        teams = [
            [model.rating(mu=b.mu, sigma=b.sigma, name=s.player) if b else model.rating(name=s.player)]
            for s, b in zip(people, before, strict=True)
        ]
        after = model.rate(teams, ranks=[float(s.place) for s in people])
        moved: dict[str, Change] = {}
        for s, b, (new,) in zip(people, before, after, strict=True):
            rating = Rating(
                game=r.game,
                player=s.player,
                mu=float(new.mu),
                sigma=float(new.sigma),
                games=(b.games if b else 0) + 1,
                last=r.ended,
            )
            now[(r.game, s.player)] = rating
            moved[s.player] = Change(result=r.id, player=s.player, before=b.shown if b else 0.0, after=rating.shown)
        changes[r.id] = moved
    by_player: dict[str, dict[str, Rating]] = {}
    for (game, player), rating in now.items():
        by_player.setdefault(player, {})[game] = rating
    return Ratings(by_player, changes)


def report(ratings: Ratings, names: dict[str, str] | None = None) -> str:
    """`coldwater serve --ratings`: one block per game, best first."""
    rows = ratings.table()
    if not rows:
        return "No rated games yet: a game counts once two keys finish it with an agreed result."
    names = names or {}
    out: list[str] = []
    game = ""
    for r in rows:
        if r.game != game:
            if out:
                out.append("")
            game = r.game
            out += [f"{game}:", f"  {'rating':>7}  {'games':>5}  key"]
        who = r.player + (f"  ({names[r.player]})" if names.get(r.player) else "")
        out.append(f"  {r.shown:7.1f}  {r.games:5d}  {who}")
    return "\n".join(out)


def names_of(results: Iterable[GameResult]) -> dict[str, str]:
    """Each key's name at its latest game (what the friends call each other)."""
    out: dict[str, str] = {}
    for r in sorted(results, key=lambda r: (r.ended, r.id)):
        for s in r.seats:
            if s.player and s.name:
                out[s.player] = s.name
    return out
