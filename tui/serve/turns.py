"""Turn-based tables on `coldwater serve`: a game over days, a move every few hours (docs/ssh.md).

At a live table everyone is there at once and the LAN protocol's fair dealing needs every seat
online for each draw. A turn-based table's seats are almost never connected at the same time,
and every seat's app runs on the server anyway, so here **the server deals**: it holds the whole
game (the full state and its seed) and hands each key only its own seat's view
(``State.view(seat)``), as a site like Board Game Arena does. The operator of the server could
read every hand from its database; docs/ssh.md says so plainly.

Durability: every step (a person's move, a draw, a bot's move) is one row of ``turn_moves``, written
in one transaction before anything is acknowledged, with the position's digest after it. At start
the server replays each table's moves from its seed and checks every digest, so a restart (even
kill -9 in the middle of a move) finds every table as it was acknowledged, and a damaged row is
named rather than played on.

The clock: each move has ``hours`` (from 1 to 24 a day, BGA's speeds); with a daily window only the
hours inside it count (the server's local time). A seat out of time waits for the others: any other
seated person may **skip** it (the bot makes that seat's moves of the turn at hand; none of the three
games has a pass) or **hand it to a bot** (the bot plays the seat until its owner opens the table
again); until one of them chooses, its owner may still move. A table with no other person at it has
nobody to ask, so there the bot plays the move at once, as before. The choice is kept in
``turn_seats`` (handed, botted, skips), and the result says which seats a bot played for or were
skipped; such a result is not agreed, so it does not move ratings. The game's end is kept as a
result like a live table's (database.py): history, replays and ratings treat both alike.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import os
from collections.abc import Callable
from typing import Any

import msgspec

from coldwater.core import games, record
from coldwater.core.errors import IllegalAction
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, Game, State
from coldwater.tui.serve.database import GameResult, SeatResult, Store
from coldwater.tui.serve.turnwire import OpenTurnTable, TurnPosition, TurnTableInfo

BOT = "normal"
"""The bot that plays bot seats and seats out of time (the game's middle level: a fair stand-in)."""
MAX_TABLES_PER_KEY = 20
MIN_HOURS, MAX_HOURS = 1.0, 24.0 * 14
LOG_LINES = 12


class TurnError(Exception):
    """A request that cannot be done; the message is for the person (nothing was changed)."""


class Turns:
    """One turn-based table in memory: its terms, seats and the full position (rebuilt from the moves)."""

    def __init__(
        self,
        tid: int,
        name: str,
        game: Game[Any, Any],
        state: State[Any, Any],
        players: list[str],
        names: list[str],
        bots: list[bool],
        *,
        hours: float,
        window: tuple[int, int] | None,
        since: float,
        moves: list[tuple[int, str, bool]],
        outcome: str = "",
    ) -> None:
        self.id = tid
        self.name = name
        self.game = game
        self.state = state
        self.players = players
        """Per seat, the SSH key fingerprint ("" for a bot seat)."""
        self.names = names
        self.bots = bots
        self.hours = hours
        self.window = window
        self.since = since
        """When the decision now pending began (its clock runs from then)."""
        self.moves = moves
        """(seat, notation, by a bot) of every step so far, in order (the server's alone: a draw's
        notation may name a sealed card)."""
        self.seen: list[tuple[str, ...]] = []
        """Per step, the step as each seat may know it (a draw sealed to others reads as it does in their
        view), which is all the log a seat is shown."""
        self.outcome = outcome
        self.deal = ""
        """A deal of the day's table: which deal (its bots then play the same way for everyone)."""
        n = len(players)
        self.handed = [False] * n
        """Per seat: handed to the bot out of time; the bot plays it until its owner opens the table."""
        self.botted = [False] * n
        """Per seat: handed to the bot at some time in this game (the result says so)."""
        self.skips = [0] * n
        """Per seat: how many of its turns the others skipped out of time (the bot made those moves)."""
        self.skipping = -1
        """The seat whose turn at hand is being skipped (the bot moves for it until the turn passes)."""
        self.late = False
        """The seat to move is out of time and the others have been told (set by the keeper's tick)."""

    @property
    def over(self) -> bool:
        return self.state.current is None

    def deadline(self) -> float:
        return 0.0 if self.over else deadline(self.since, self.hours * 3600, self.window)

    def info(self, seat: int) -> TurnTableInfo:
        cur = self.state.current
        return TurnTableInfo(
            id=self.id,
            name=self.name,
            game=self.game.name,
            names=list(self.names),
            seat=seat,
            current=-1 if cur is None else cur,
            ply=self.state.ply,
            deadline=self.deadline(),
            hours=self.hours,
            window=self.window,
            outcome=self.outcome,
            late=self.late and cur is not None and cur >= 0,
            handed=[i for i, h in enumerate(self.handed) if h],
        )

    def seat_of(self, player: str) -> int:
        return next((i for i, p in enumerate(self.players) if p == player), -1)

    def others_seated(self, seat: int) -> bool:
        """Whether a person other than `seat`'s sits at the table (someone who could choose for it)."""
        return any(not b for i, b in enumerate(self.bots) if i != seat)


def deadline(since: float, seconds: float, window: tuple[int, int] | None, tz: dt.tzinfo | None = None) -> float:
    """When `seconds` of clock have run from `since`, counting only the hours of each day inside
    `window` ([start, end) hours, the server's local time unless `tz` says otherwise)."""
    if window is None:
        return since + seconds
    start, end = window
    zone = tz or dt.datetime.now().astimezone().tzinfo
    t = dt.datetime.fromtimestamp(since, zone)
    left = seconds
    day = t.replace(hour=0, minute=0, second=0, microsecond=0)
    for _ in range(3660):  # ten years of days: a bound, never reached with at most 14 days a move
        lo, hi = day.replace(hour=start), day.replace(hour=end) if end < 24 else day + dt.timedelta(days=1)
        a = max(lo, t)
        if a < hi:
            span = (hi - a).total_seconds()
            if span >= left:
                return (a + dt.timedelta(seconds=left)).timestamp()
            left -= span
        day = day + dt.timedelta(days=1)
        day = day.replace(hour=0)  # (a change of daylight saving time keeps midnight)
    raise ValueError("no time in the window")


def result_words(outcome: str, botted: list[str], skipped: list[tuple[str, int]]) -> str:
    """The game's outcome and what happened to seats out of time: which a bot played for, which the
    others skipped (and how many turns)."""
    if botted:
        outcome += f"; a bot played for {', '.join(botted)} (out of time)"
    for name, n in skipped:
        outcome += f"; {name} was skipped out of time ({n} turn{'s' if n != 1 else ''}, moved by a bot)"
    return outcome


def seen_by(before: State[Any, Any], step: Any, players: int) -> tuple[str, ...]:
    """`step` from `before` as each seat may know it: a person's move is public; a draw is what
    ``seen_outcome`` leaves of it for that seat (a card sealed to the others is a marker to them)."""
    if before.current != CHANCE:
        return (str(step),) * players
    return tuple(str(before.seen_outcome(step, seat)) for seat in range(players))


class TurnTablesKeeper:
    """Every turn-based table of the server, kept in its database and in memory."""

    def __init__(
        self,
        store: Store,
        *,
        known_keys: Callable[[], set[str]],
        wall_clock: Callable[[], float],
        say: Callable[[str], None],
        on_turn: Callable[[str, Turns], None] = lambda player, table: None,
    ) -> None:
        self.store = store
        self.on_turn = on_turn
        """Told the key whose turn it now is at a table (its turn began: a notice, a hook; notify.py)."""
        self.known_keys = known_keys
        """The SSH key fingerprints the server knows (a seat may be reserved only for one of them)."""
        self.wall_clock = wall_clock
        self.say = say
        self.tables: dict[int, Turns] = {}
        self.lock = asyncio.Lock()
        """One change at a time (two seats' apps may ask at once)."""

    # ---- start: every table back from its moves -----------------------------------------
    async def resume(self) -> None:
        """Every table as it was kept, then on to where a person is to move (a restart may have come
        between a step and the draws or bot moves after it, or before a finished game's result)."""
        self.restore()
        for t in list(self.tables.values()):
            async with self.lock:
                await self._advance(t)

    def restore(self) -> None:
        rows = self.store.db.execute(
            "SELECT id, name, game, players, options, seed, per_move, window_start, window_end, since, outcome, deal"
            " FROM turn_tables ORDER BY id"
        ).fetchall()
        for tid, name, game_name, players, options, seed, per_move, w0, w1, since, outcome, deal in rows:
            try:
                self.tables[int(tid)] = self._rebuild(
                    int(tid), str(name), str(game_name), int(players), str(options), str(seed)
                )
            except (TurnError, KeyError, ValueError, IllegalAction) as e:
                self.say(f"turn-based table {name!r} cannot be restored: {e}")
                continue
            t = self.tables[int(tid)]
            t.hours = float(per_move) / 3600
            t.window = (int(w0), int(w1)) if w0 is not None and w1 is not None else None
            t.since = float(since)
            t.outcome = str(outcome)
            t.deal = str(deal)

    def _rebuild(self, tid: int, name: str, game_name: str, players: int, options: str, seed: str) -> Turns:
        game = games.get(game_name)
        state = game.new(players=players, seed=seed, options=json.loads(options) or None)
        seats = self.store.db.execute(
            "SELECT seat, player, name, bot, handed, botted, skips FROM turn_seats WHERE table_id = ? ORDER BY seat",
            (tid,),
        ).fetchall()
        moves: list[tuple[int, str, bool]] = []
        seen: list[tuple[str, ...]] = []
        for ply, seat, action, digest, by_bot in self.store.db.execute(
            "SELECT ply, seat, action, digest, by_bot FROM turn_moves WHERE table_id = ? ORDER BY ply", (tid,)
        ):
            if ply != state.ply:
                raise TurnError(f"move {ply} is missing or out of order")
            step = game.parse_action(str(action))
            seen.append(seen_by(state, step, players))
            state.apply(step)
            if state.digest() != digest:
                raise TurnError(f"the position after move {ply} is not the one kept (digest differs)")
            moves.append((int(seat), str(action), bool(by_bot)))
        rebuilt = Turns(
            tid,
            name,
            game,
            state,
            [str(s[1]) for s in seats],
            [str(s[2]) for s in seats],
            [bool(s[3]) for s in seats],
            hours=24.0,
            window=None,
            since=0.0,
            moves=moves,
        )
        rebuilt.seen = seen
        rebuilt.handed = [bool(s[4]) for s in seats]
        rebuilt.botted = [bool(s[5]) for s in seats]
        rebuilt.skips = [int(s[6]) for s in seats]
        return rebuilt

    # ---- requests ---------------------------------------------------------------------
    async def open(self, me: str, req: OpenTurnTable, *, seed: str = "", deal: str = "") -> TurnPosition:
        """A new table (`seed` and `deal`: a deal of the day's, deals.py; else the server's own
        secret seed)."""
        from coldwater.net.names import BadName, check_name

        try:
            name = check_name(req.name)
        except BadName as e:
            raise TurnError(str(e)) from None
        try:
            game = games.get(req.game)
        except KeyError:
            raise TurnError(f"this server has no game {req.game!r}") from None
        if not MIN_HOURS <= req.hours <= MAX_HOURS:
            raise TurnError(f"the time for a move is from {MIN_HOURS:g} hour to {MAX_HOURS / 24:g} days")
        if req.window is not None and not 0 <= req.window[0] < req.window[1] <= 24:
            raise TurnError("the daily window is two hours of the day, the first before the second (0 to 24)")
        if not game.min_players <= len(req.seats) <= game.max_players:
            raise TurnError(f"{game.title} is for {game.min_players} to {game.max_players} seats")
        if req.seats.count("me") != 1:
            raise TurnError("one seat (and only one) is yours")
        known = self.known_keys()
        players, bots = [], []
        for i, s in enumerate(req.seats):
            if s == "me":
                players.append(me)
                bots.append(False)
            elif s == "bot":
                players.append("")
                bots.append(True)
            elif s.strip().lower() in known:
                players.append(s.strip().lower())
                bots.append(False)
            else:
                raise TurnError(f"seat {i + 1}: {s!r} is not a key this server knows (nor 'bot')")
        if len({p for p in players if p}) != sum(1 for p in players if p):
            raise TurnError("a key may sit at one seat only")
        try:
            options = msgspec.to_builtins(game.make_options(req.options or None))
            seed = seed or os.urandom(16).hex()  # the server deals: nobody else ever sees it
            state = game.new(players=len(players), seed=seed, options=options)
        except Exception as e:  # bad options: said, nothing kept
            raise TurnError(f"cannot open the table: {e}") from None
        async with self.lock:
            if sum(1 for t in self.tables.values() if me in t.players and not t.over) >= MAX_TABLES_PER_KEY:
                raise TurnError(f"you have {MAX_TABLES_PER_KEY} turn-based tables going already")
            if any(t.name == name for t in self.tables.values()):
                raise TurnError(f"a turn-based table named {name!r} exists on this server; choose another name")
            now = self.wall_clock()
            names = ["bot" if b else f"key {p[:9]}" for p, b in zip(players, bots, strict=True)]
            with self.store.write() as db:
                cur = db.execute(
                    "INSERT INTO turn_tables (name, game, players, options, seed, content, per_move, window_start,"
                    " window_end, opener, created, since, deal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        name,
                        game.name,
                        len(players),
                        json.dumps(options),
                        seed,
                        game.content_hash,
                        req.hours * 3600,
                        req.window[0] if req.window else None,
                        req.window[1] if req.window else None,
                        me,
                        now,
                        now,
                        deal,
                    ),
                )
                tid = cur.lastrowid
                assert tid is not None
                db.executemany(
                    "INSERT INTO turn_seats (table_id, seat, player, name, bot) VALUES (?, ?, ?, ?, ?)",
                    [(tid, i, p, n, int(b)) for i, (p, n, b) in enumerate(zip(players, names, bots, strict=True))],
                )
            t = Turns(
                tid, name, game, state, players, names, bots, hours=req.hours, window=req.window, since=now, moves=[]
            )
            t.deal = deal
            self.tables[tid] = t
            self.say(f"turn-based table {name!r} ({game.name}) opened by {me}")
            await self._advance(t)
            self._turn_passed(t, t.seat_of(me))
            return self.position(t, t.seat_of(me))

    def mine(self, me: str) -> list[TurnTableInfo]:
        """The key's tables: its turn first (oldest waiting first), then the others, the finished last."""
        out = [t.info(t.seat_of(me)) for t in self.tables.values() if me in t.players]
        return sorted(out, key=lambda i: (not i.your_turn, i.current < 0, i.deadline, i.id))

    def waiting(self, me: str) -> int:
        return sum(1 for i in self.mine(me) if i.your_turn)

    def view(self, me: str, tid: int) -> TurnPosition:
        t = self._seated(me, tid)
        seat = t.seat_of(me)
        if t.handed[seat] and not t.over:  # its owner is back: the seat is theirs again
            with self.store.write() as db:
                db.execute("UPDATE turn_seats SET handed = 0 WHERE table_id = ? AND seat = ?", (t.id, seat))
            t.handed[seat] = False
            self.say(f"turn-based table {t.name!r}: {t.names[seat]} is back; the bot no longer plays the seat")
        return self.position(t, seat)

    async def out_of_time(self, me: str, tid: int, ply: int, seat: int, choice: str) -> TurnPosition:
        """Another seated person's choice for `seat`, out of time at `ply`: ``"skip"`` (the bot makes
        that seat's moves of the turn at hand) or ``"bot"`` (the bot plays the seat until its owner
        opens the table again). Refused with the reason, nothing changed, unless it applies."""
        async with self.lock:
            t = self._seated(me, tid)
            mine = t.seat_of(me)
            if choice not in ("skip", "bot"):
                raise TurnError("choose 'skip' or 'bot' for a seat out of time")
            if t.over:
                raise TurnError("the game is over")
            if not 0 <= seat < len(t.players) or t.bots[seat]:
                raise TurnError(f"seat {seat + 1} is not a person's seat at this table")
            if seat == mine:
                raise TurnError("it is your own seat: make your move instead")
            if t.state.current != seat or ply != t.state.ply:
                raise TurnError("the table has moved on since you looked; here it is again")
            if t.deadline() > self.wall_clock():
                raise TurnError(f"{t.names[seat]} is not out of time; nothing changed")
            with self.store.write() as db:
                if choice == "bot":
                    db.execute(
                        "UPDATE turn_seats SET handed = 1, botted = 1 WHERE table_id = ? AND seat = ?", (t.id, seat)
                    )
                else:
                    db.execute("UPDATE turn_seats SET skips = skips + 1 WHERE table_id = ? AND seat = ?", (t.id, seat))
            if choice == "bot":
                t.handed[seat] = t.botted[seat] = True
                self.say(f"turn-based table {t.name!r}: {t.names[mine]} handed {t.names[seat]}'s seat to the bot")
            else:
                t.skips[seat] += 1
                t.skipping = seat
                self.say(f"turn-based table {t.name!r}: {t.names[mine]} skipped {t.names[seat]}'s turn")
            try:
                await self._advance(t)
            finally:
                t.skipping = -1
            self._turn_passed(t, seat)
            return self.position(t, mine)

    async def move(self, me: str, tid: int, ply: int, action: str) -> TurnPosition:
        async with self.lock:
            t = self._seated(me, tid)
            seat = t.seat_of(me)
            if t.over:
                raise TurnError("the game is over")
            if t.state.current != seat:
                raise TurnError(f"it is {t.names[t.state.current or 0]}'s turn, not yours")
            if ply != t.state.ply:
                raise TurnError("the table has moved on since you looked; here it is again")
            try:
                chosen = t.game.parse_action(action)
                self._step(t, seat, chosen, by_bot=False)
            except (IllegalAction, ValueError, msgspec.ValidationError) as e:
                raise TurnError(f"not a legal move here: {e}") from None
            await self._advance(t)
            self._turn_passed(t, seat)
            return self.position(t, seat)

    async def tick(self) -> None:
        """Play every move out of time with the bot (called every few seconds by the server)."""
        now = self.wall_clock()
        for t in list(self.tables.values()):
            if t.over or t.deadline() > now:
                continue
            async with self.lock:
                cur = t.state.current
                if cur is None or cur == CHANCE or t.deadline() > self.wall_clock():
                    continue
                if t.others_seated(cur):  # the others choose: skip the seat or hand it to a bot
                    if not t.late:
                        t.late = True
                        self.say(
                            f"turn-based table {t.name!r}: {t.names[cur]} is out of time;"
                            " the others may skip the seat or hand it to a bot"
                        )
                    continue
                self.say(f"turn-based table {t.name!r}: {t.names[cur]} is out of time; the bot plays the move")
                await self._bot_move(t, cur)
                await self._advance(t)
                self._turn_passed(t, cur)

    def _turn_passed(self, t: Turns, before: int) -> None:
        """Tell the person to move now, if the turn passed to them from seat `before` (a turn may be
        several decisions: one notice a turn, not one a decision)."""
        cur = t.state.current
        if cur is None or cur < 0 or cur == before or t.bots[cur]:
            return
        try:
            self.on_turn(t.players[cur], t)
        except Exception as e:  # a notice failing never undoes a move
            self.say(f"turn-based table {t.name!r}: telling {t.names[cur]} failed: {e}")

    # ---- the game ---------------------------------------------------------------------
    def _seated(self, me: str, tid: int) -> Turns:
        t = self.tables.get(tid)
        if t is None or me not in t.players:
            raise TurnError(f"you have no turn-based table {tid} here")
        return t

    def position(self, t: Turns, seat: int) -> TurnPosition:
        view = t.state.view(seat)
        legal = [str(a) for a in view.legal()] if t.state.current == seat else []
        log = [
            f"{t.names[s] if s >= 0 else 'draw'}: {seen[seat]}{' (bot)' if b and not t.bots[s] else ''}"
            for (s, _, b), seen in zip(t.moves, t.seen, strict=True)
        ]
        return TurnPosition(info=t.info(seat), view=view.to_text(), legal=legal, log=log[-LOG_LINES:])

    def _step(self, t: Turns, seat: int, action: Any, *, by_bot: bool) -> None:
        """Apply one step and keep it (one transaction) before anything else sees it."""
        after = t.state.clone()
        after.apply(action)  # (raises IllegalAction, and the position is untouched)
        seen = seen_by(t.state, action, len(t.players))
        now = self.wall_clock()
        with self.store.write() as db:
            db.execute(
                "INSERT INTO turn_moves (table_id, ply, seat, action, digest, at, by_bot) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (t.id, t.state.ply, seat, str(action), after.digest(), now, int(by_bot)),
            )
            db.execute("UPDATE turn_tables SET since = ? WHERE id = ?", (now, t.id))
        t.state = after
        t.since = now
        t.late = False
        t.moves.append((seat, str(action), by_bot))
        t.seen.append(seen)

    async def _bot_move(self, t: Turns, seat: int) -> None:
        bot = t.game.bot(BOT if BOT in t.game.bots else t.game.bots[0])
        view = t.state.view(seat)
        # At a deal of the day the bots answer the same position the same way for everyone who plays it.
        rng = Rng(hashlib.sha256(f"{t.state.seed}:{t.state.ply}".encode()).digest()) if t.deal else Rng(os.urandom(16))
        action = await asyncio.to_thread(bot.choose, view, rng)
        self._step(t, seat, action, by_bot=True)

    async def _advance(self, t: Turns) -> None:
        """Draws and bot seats until a person is to move or the game is over."""
        while True:
            cur = t.state.current
            if cur is None:
                self._finish(t)
                return
            if t.skipping >= 0 and cur not in (t.skipping, CHANCE):
                t.skipping = -1  # the skipped turn has passed: the seat is its owner's again
            if cur == CHANCE:
                self._step(t, CHANCE, t.state.sample_chance(), by_bot=False)
            elif t.bots[cur] or t.handed[cur] or cur == t.skipping:
                await self._bot_move(t, cur)
            else:
                return

    def _finish(self, t: Turns) -> None:
        if t.outcome:
            return
        sc = t.state.scores()
        by_bot = {s for s, _, b in t.moves if s >= 0 and b and not t.bots[s]}
        botted = [s for s in range(len(t.players)) if t.botted[s] or (s in by_bot and not t.skips[s])]
        skipped = [s for s in range(len(t.players)) if t.skips[s]]
        outcome = result_words(sc.outcome, [t.names[s] for s in botted], [(t.names[s], t.skips[s]) for s in skipped])
        why_not = (
            "a bot played a person's seat (out of time)"
            if botted
            else "a seat was skipped out of time (a bot made its moves)"
            if skipped
            else ""
        )
        places = {seat: i + 1 for i, seat in enumerate(r for r in sc.ranking if r < len(t.players))}
        replay = t.game.new(players=len(t.players), seed=t.state.seed)
        rec = record.start(t.game, replay, None, {"seats": ", ".join(t.names), "mode": "turn-based"})
        for seat, action, _ in t.moves:
            a = t.game.parse_action(action)
            replay.apply(a)
            record.append(rec, seat, a, replay)
        result = GameResult(
            table=t.name,
            game=t.game.name,
            ended=self.wall_clock(),
            outcome=outcome,
            digest=t.state.digest(),
            plies=t.state.ply,
            agreed=not why_not,
            why_not=why_not,
            seats=[
                SeatResult(
                    seat=i, name=t.names[i], player=t.players[i], bot=t.bots[i], score=sc.totals[i], place=places[i]
                )
                for i in range(len(t.players))
            ],
            record=record.dumps(rec),
            deal=t.deal,
        )
        with self.store.write() as db:  # the result and the table's end together, or neither
            rid = self.store.insert_result(db, result)
            db.execute(
                "UPDATE turn_tables SET ended = ?, outcome = ?, result_id = ? WHERE id = ?",
                (result.ended, outcome, rid, t.id),
            )
        t.outcome = outcome
        self.say(f"turn-based table {t.name!r} ended: {outcome}")
