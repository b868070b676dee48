"""The few calls an app needs for LAN play: open a table, find tables, join one.

Everything else (lobby, chat, moves, results) goes through the returned
:class:`~coldwater.net.session.TableHost` / :class:`~coldwater.net.session.TablePeer`
and the events they publish. See docs/lan.md for the whole picture.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from coldwater.core import games
from coldwater.core.record import GameRecord
from coldwater.core.state import Game

from .discovery import Listing, TableBrowser
from .fairdeal.seat import WIRED
from .identity import Identity, fingerprint, load_or_create
from .known_hosts import FILE as KNOWN_HOSTS_FILE
from .known_hosts import KnownHosts, KnownHostsError, normalise_fingerprint
from .names import PLAYER_NAME_BYTES, check_name
from .play import paths, records
from .play.files import write_atomic
from .session import Chooser, PeerSave, TableHost, TablePeer, WrongTable, _safe
from .session.events import Result
from .session.forfeit import VerdictRecord, dump_record
from .session.host.host import TURN_TIMER
from .session.host.spectators import WATCHERS
from .session.persist import load_peer_save, safe_name
from .session.turnclock import GAME_TIME, TIME_BANK
from .session.watcher import TableWatcher
from .transport import HostCheck, HostKeyMismatch, PassphraseNeeded, Refusal, expect_key, probe

if TYPE_CHECKING:
    # Annotations only (they are not evaluated at run time), so no runtime dependency.
    from typing_extensions import TypeIs

log = logging.getLogger("coldwater.net")


SAVED_HOST_TIMEOUT = 3.0
"""Seconds to wait for the host in our save before looking for the table by name."""
SETTLE = 0.6
"""Seconds to keep listening after the first table of a name answers, to hear a second one."""


def default_dealer(game: Game[Any, Any] | str) -> str:
    """The dealer a new table of `game` gets unless told otherwise: the fair dealer wherever it is
    wired (nobody, the host included, sees a hidden value), else the committed one (for a game
    that hides nothing, that is public beacon draws only)."""
    name = game if isinstance(game, str) else game.name
    return "fair" if name in WIRED else "committed"


def lan_dir() -> Path:
    """Where LAN saves live (host records, each peer's record of each table)."""
    return paths.data_dir() / "lan"


async def open_table(
    game: Game[Any, Any],
    *,
    name: str,
    seats: list[str],
    identity: Identity | None = None,
    passphrase: str | None = None,
    options: object = None,
    chooser: Chooser | None = None,
    host_name: str = "host",
    port: int = 0,
    bind: str = "0.0.0.0",
    advertise: bool = True,
    auto_start: bool | None = None,
    save_dir: Path | None = None,
    watchers: int = WATCHERS,
    dealer: str | None = None,
    turn_timer: int = TURN_TIMER,
    time_bank: int = TIME_BANK,
    strict_clock: bool = False,
    hints: bool = False,
    game_time: int = GAME_TIME,
) -> TableHost:
    """A listening (and, unless `advertise` is False, advertised) table; then ``await host.run()``.

    `seats` as for TableHost: ``["host", "open", "bot", ...]``. With `chooser` None the
    host's own seat is a person (``host.submit``) and the game starts on ``host.start_game()``.
    `watchers` is the most people who may watch at once (0: nobody may). `dealer` is
    ``"committed"`` or ``"fair"`` (TableHost says where the fair dealer can deal); None
    (the default) gives the game its :func:`default_dealer`. `turn_timer`: seconds a seat has for
    each move before its `time_bank` (seconds for the game) drains (0: no clock); `strict_clock`:
    a bot plays a seat out of time at once, else only an absent one's (docs/lan.md, "The turn
    clock"); `game_time`: each seat's whole time for the game, every move counted (0: no such
    limit; spent, the seat is out of time). `hints`: every seat may ask for the coach's hint
    (announced in the table's info, so the lobby and the record say so). A `name` or `host_name` that breaks
    the name rule (net/names.py) raises :class:`~coldwater.net.names.BadName` before anything listens.
    """
    name = check_name(name)
    host_name = check_name(host_name, what="player name", limit=PLAYER_NAME_BYTES)
    if not 0 <= turn_timer <= 3600:
        raise ValueError(f"the turn timer is 0 (no clock) to 3600 seconds, not {turn_timer}")
    if not 0 <= time_bank <= 36000:
        raise ValueError(f"the time bank is 0 to 36000 seconds, not {time_bank}")
    if not 0 <= game_time <= 7 * 86400:
        raise ValueError(f"the game time is 0 (no limit) to {7 * 86400} seconds, not {game_time}")
    if isinstance(game, str):
        game = games.get(game)
    host = TableHost(
        game,
        identity or load_or_create(),
        name=name,
        seats=seats,
        options=options,
        passphrase=passphrase,
        chooser=chooser,
        host_name=host_name,
        bind=bind,
        port=port,
        save_dir=save_dir or lan_dir(),
        auto_start=chooser is not None if auto_start is None else auto_start,
        watchers=watchers,
        dealer=dealer if dealer is not None else default_dealer(game),
        turn_timer=turn_timer,
        time_bank=time_bank,
        strict_clock=strict_clock,
        game_time=game_time,
    )
    host.info.hints = hints  # (set here, not in TableHost: it is only announced, the host enforces nothing)
    await host.listen()
    if advertise:
        await host.announcement().start(host.open_seats)
    return host


def _split_target(target: str) -> tuple[str, int] | None:
    host, sep, port = target.rpartition(":")
    if sep and host and port.isdigit():
        return host.strip("[]"), int(port)
    return None


async def join_table(
    target: str | Listing,
    *,
    identity: Identity | None = None,
    name: str = "",
    passphrase: str | None = None,
    chooser: Chooser | Callable[[Game[Any, Any]], Chooser] | None = None,
    find_timeout: float = 10.0,
    game: Game[Any, Any] | None = None,
    bind: str = "0.0.0.0",
    save_dir: Path | None = None,
    fingerprint: str | None = None,
    known_hosts: KnownHosts | None = None,
) -> TablePeer:
    """Join a table by listing, name (zeroconf) or ``HOST:PORT``; returns a seated peer.

    `chooser` may be a Chooser or a callable ``game -> Chooser`` (the game is known
    only once the table answers). A saved, unfinished game at the same table is
    resumed. Raises :class:`Refusal` with a reason for a person.

    The table must prove, in the handshake, the key its advert names; with
    `fingerprint` it must prove that key instead (a pin). A table name joined before
    must prove a key it proved then (trust on first use, `known_hosts`, by default
    ``known_hosts.json`` in the LAN folder); each table joined is remembered. The
    key the table proved is ``peer.host_fingerprint``.
    """
    table_name = ""
    folder = save_dir or lan_dir()
    try:
        pinned = normalise_fingerprint(fingerprint) if fingerprint else None
        known = known_hosts if known_hosts is not None else KnownHosts(folder / KNOWN_HOSTS_FILE)
    except (ValueError, KnownHostsError) as e:
        raise Refusal(str(e)) from None
    advertised = ""
    from_save = False
    if isinstance(target, Listing):
        host, port, game_name, table_name = target.host, target.port, target.game, target.table
        advertised = target.fingerprint
        if target.needs_passphrase and not passphrase:
            raise PassphraseNeeded(f"the table {target.table!r} needs a passphrase")
    elif (addr := _split_target(target)) is not None:
        host, port = addr
        game_name, _, _ = await probe(host, port)
    else:
        located = await _saved_host(target, folder)
        from_save = located is not None
        if located is None:
            found = await _find_by_name(target, find_timeout, pinned, known)
            host, port, game_name, table_name = found.host, found.port, found.game, found.table
            advertised = found.fingerprint
        else:
            host, port, game_name, table_name = located
    if game is None:
        try:
            game = games.get(game_name)
        except KeyError:
            raise Refusal(f"the table plays {game_name!r}, which this version does not have") from None
    elif game.name != game_name:
        raise Refusal(f"the table plays {game_name!r}, not {game.name!r}")
    identity = identity or load_or_create()
    if chooser is not None and not _is_chooser(chooser):
        chooser = chooser(game)
    peer = TablePeer(
        game,
        identity,
        name=name or f"peer-{identity.fingerprint[:4]}",
        passphrase=passphrase,
        chooser=chooser,
        save_dir=folder,
        bind=bind,
        advertise_on_takeover=True,
    )
    resume = find_save(folder, table_name, host, port)
    peer.check_host = host_check(advertised, pinned, known, _seated_keys(resume))
    try:
        await peer.join(host, port, resume=resume, table=table_name)
    except WrongTable as e:
        if not from_save or isinstance(target, Listing):
            raise
        # The address in our save now hosts another table: look for ours by name after all.
        log.warning("%s; looking for %r on the LAN", e, target)
        found = await _find_by_name(target, find_timeout, pinned, known)
        host, port, other_game, table_name = found.host, found.port, found.game, found.table
        if other_game != game.name:
            raise Refusal(f"the table plays {other_game!r}, not {game.name!r}") from None
        resume = find_save(folder, table_name, host, port)
        peer.check_host = host_check(found.fingerprint, pinned, known, _seated_keys(resume))
        await peer.join(host, port, resume=resume, table=table_name)
    known.remember(peer.info.name if peer.info is not None else table_name, peer.host_fingerprint)
    return peer


async def watch_table(
    target: str | Listing,
    *,
    identity: Identity | None = None,
    name: str = "",
    passphrase: str | None = None,
    find_timeout: float = 10.0,
    game: Game[Any, Any] | None = None,
    fingerprint: str | None = None,
    known_hosts: KnownHosts | None = None,
    save_dir: Path | None = None,
) -> TableWatcher:
    """Watch a table by listing, name (zeroconf) or ``HOST:PORT``; then ``await watcher.run()``.

    The same handshake as :func:`join_table` (identity, passphrase, the key the table
    must prove), but no seat: the table sends the public view only. Raises
    :class:`Refusal` with a reason for a person (``NotAdmitted`` when the table
    admits no watchers, or no more of them).
    """
    folder = save_dir or lan_dir()
    try:
        pinned = normalise_fingerprint(fingerprint) if fingerprint else None
        known = known_hosts if known_hosts is not None else KnownHosts(folder / KNOWN_HOSTS_FILE)
    except (ValueError, KnownHostsError) as e:
        raise Refusal(str(e)) from None
    advertised, table_name = "", ""
    if isinstance(target, Listing):
        host, port, game_name, table_name = target.host, target.port, target.game, target.table
        advertised = target.fingerprint
        if target.needs_passphrase and not passphrase:
            raise PassphraseNeeded(f"the table {target.table!r} needs a passphrase")
    elif (addr := _split_target(target)) is not None:
        host, port = addr
        game_name, _, _ = await probe(host, port)
    else:
        found = await _find_by_name(target, find_timeout, pinned, known)
        host, port, game_name, table_name = found.host, found.port, found.game, found.table
        advertised = found.fingerprint
    if game is None:
        try:
            game = games.get(game_name)
        except KeyError:
            raise Refusal(f"the table plays {game_name!r}, which this version does not have") from None
    elif game.name != game_name:
        raise Refusal(f"the table plays {game_name!r}, not {game.name!r}")
    identity = identity or load_or_create()
    watcher = TableWatcher(game, identity, name=name or f"watcher-{identity.fingerprint[:4]}", passphrase=passphrase)
    watcher.check_host = host_check(advertised, pinned, known)
    await watcher.join(host, port, table=table_name)
    known.remember(watcher.info.name if watcher.info is not None else table_name, watcher.host_fingerprint)
    return watcher


REMATCH_WAIT = 15.0
"""Seconds a rematch waits for the finished game's last word (the seats' final digests)."""


async def open_rematch(old: TableHost, *, advertise: bool | None = None) -> TableHost:
    """Host the table `old` just finished again, and offer it to the seats still connected.

    The same game, name, options, passphrase, turn timer, watchers and dealer; the
    host and the bots where they sat, each remote seat kept for the key that played it
    (so each player sits where they sat, by the same identity); a new seed round. The
    new table takes the old one's port when it can (the old one stops listening first).
    `old` must have been run with ``linger`` set, so its seats are still connected to be
    told; their answers come from `old` as ``RematchAnswered`` events (a no frees the seat:
    ``new.rematch.open_seat(seat)``). Raises :class:`Refusal` when the old game has not ended.
    """
    if old.fair_host.record is None and old.table is None:  # (a fair table's host may have no seat of its own)
        raise Refusal("the game has not started, so there is nothing to play again")

    async def finished() -> None:
        # The host's screen shows the end as soon as the last move is applied; the seats'
        # final digests come a few seconds later, and the offer must follow them.
        while old.result is None:
            await asyncio.sleep(0.1)

    try:
        await asyncio.wait_for(finished(), REMATCH_WAIT)
    except TimeoutError:
        raise Refusal("the game has not finished yet (the seats' final digests are still due)") from None
    if advertise is None:
        advertise = old.advertiser is not None
    await old.stop_listening(keep_watchers=True)  # they are told where the rematch listens
    info = old.info
    kwargs: dict[str, Any] = dict(
        name=old.name,
        seats=old.rematch.seats(),
        identity=old.identity,
        passphrase=old.seating.pass_key.decode() or None,
        options=info.options,
        chooser=old.chooser,
        host_name=old.host_name,
        bind=old.bind,
        advertise=advertise,
        auto_start=old.seeding.auto_start,
        save_dir=old.save_dir,
        watchers=info.watch,
        dealer=info.dealer,
        hints=info.hints,
    )
    try:
        new = await open_table(old.game, port=old.port, **kwargs)
    except OSError:
        new = await open_table(old.game, port=0, **kwargs)  # the old port is taken after all: any port
    new.set_turn_timer(info.turn, bank=info.bank, strict=info.strict, game_time=info.game_time)
    old.rematch.offer(new.port)
    return new


async def join_rematch(old: TablePeer) -> TablePeer:
    """Take our seat at the rematch `old`'s host offered (``RematchOffered``): the same host key,
    address and table name, the same identity, name and passphrase; a new game.

    Tells the old host yes first (``old.answer_rematch(True)``) unless that was done.
    Raises :class:`Refusal` when the new table cannot be joined.
    """
    if not old.rematch_port or old.info is None:
        raise Refusal("the host has not offered a rematch")
    if not old.rematch_answered:
        old.answer_rematch(True)
    peer = TablePeer(
        old.game,
        old.identity,
        name=old.name,
        passphrase=old.passphrase,
        chooser=old.chooser,
        save_dir=old.save_dir,
        bind=old.bind,
        advertise_on_takeover=old.advertise_on_takeover,
    )
    # Only the key that hosted the game we just played: an offer is no reason to trust another.
    peer.check_host = expect_key(old.host_fingerprint)
    await peer.join(old.host_addr, old.rematch_port, table=old.info.name)
    return peer


async def watch_rematch(old: TableWatcher) -> TableWatcher:
    """Watch the rematch the host of the table `old` watched opened (``RematchOffered``): the same
    host key, address and table name, the same identity, name and passphrase. Raises
    :class:`Refusal` when it cannot be watched (it admits no more watchers, ...)."""
    if not old.rematch_port or old.info is None:
        raise Refusal("the host has not opened a rematch")
    watcher = TableWatcher(old.game, old.identity, name=old.name, passphrase=old.passphrase)
    # Only the key that hosted the game we watched: an offer is no reason to trust another.
    watcher.check_host = expect_key(old.host_fingerprint)
    watcher.linger = old.linger
    await watcher.join(old.host_addr, old.rematch_port, table=old.info.name)
    return watcher


def _seated_keys(save: PeerSave | None) -> set[str]:
    """Fingerprints of everyone seated in our saved game: after a failover the table is hosted by one of them."""
    return {fingerprint(k) for k in save.keys.values() if k} if save is not None else set()


def host_check(
    advertised: str, pinned: str | None, known: KnownHosts | None, seated: set[str] | frozenset[str] = frozenset()
) -> HostCheck:
    """Checks the key a table proves: the pin if there is one, else the advert and the known hosts.

    `seated` are keys of players in our saved game at that table: a new host chosen by
    failover is one of them, and is trusted as the table we sat at.
    """

    def check(table: str, key: bytes) -> None:
        fp = fingerprint(key)
        if pinned is not None:
            if fp != pinned:
                raise HostKeyMismatch(
                    f"the table {table!r} proved key {fp}, not the pinned {pinned}: it may be an impostor"
                )
            return
        if advertised and fp != advertised:
            raise HostKeyMismatch(
                f"the table {table!r} advertised key {advertised} but proved {fp}: it may be an impostor"
            )
        if known is not None and fp not in seated:
            known.check(table, fp)

    return check


async def _saved_host(target: str, folder: Path) -> tuple[str, int, str, str] | None:
    """Where our unfinished game at the table named `target` was hosted, if that host still answers.

    Rejoining there first needs no multicast, which may be slow or lost, and finds
    the table even when it no longer shows up by name for others (full, or over and
    holding the result for us).
    """
    saved = find_save(folder, target, "", 0)
    if saved is None or saved.table.name != target or not saved.host_addr or not saved.host_port:
        return None
    try:
        game_name, _, _ = await probe(saved.host_addr, saved.host_port, timeout=SAVED_HOST_TIMEOUT)
    except Refusal as e:
        log.info("the host in our save does not answer (%s); looking for %r by name", e, target)
        return None
    if game_name != saved.table.game:
        return None
    return saved.host_addr, saved.host_port, game_name, saved.table.name


async def _find_by_name(
    target: str, find_timeout: float, pinned: str | None = None, known: KnownHosts | None = None
) -> Listing:
    """The table named `target` on the LAN (zeroconf).

    When several tables share the name, the pinned key decides, else the one key we
    joined under that name before; otherwise the person must choose with --fingerprint.
    """
    browser = TableBrowser()
    await browser.start()
    try:
        found = await browser.find(target, find_timeout, settle=SETTLE)
    finally:
        await browser.close()
    if not found:
        raise Refusal(f"no table named {target!r} found on the LAN (try HOST:PORT)")
    if pinned is not None:
        found = [t for t in found if t.fingerprint == pinned] or found
    elif len({t.fingerprint for t in found}) > 1 and known is not None:
        found = [t for t in found if t.fingerprint in known.keys_for(t.table)] or found
    if len({t.fingerprint for t in found}) > 1:
        keys = ", ".join(sorted({t.fingerprint or "none" for t in found}))
        raise Refusal(
            f"{len(found)} tables are named {target!r} (keys {keys}); ask the host for theirs "
            "and join with --fingerprint FP"
        )
    return found[0]


def find_save(folder: Path, table_name: str, host: str, port: int) -> PeerSave | None:
    """Our unfinished game at this table, by its name or (joined by address) its host and port."""
    if table_name:
        p = folder / f"lan-peer-{_safe(table_name)}.json"
        return load_peer_save(p) if p.exists() else None
    for p in sorted(folder.glob("lan-peer-*.json")) if folder.exists() else []:
        sv = load_peer_save(p)
        if sv is not None and (sv.host_addr, sv.host_port) == (host, port):
            return sv
    return None


def _is_chooser(fn: Chooser | Callable[[Game[Any, Any]], Chooser]) -> TypeIs[Chooser]:
    """A Chooser takes (view, seat); a chooser factory takes the game."""
    import inspect

    try:
        return len(inspect.signature(fn).parameters) == 2
    except (TypeError, ValueError):
        return False


class _Keeper(Protocol):
    """A host or a seat after its game: what it can keep of it."""

    def kept_record(self, meta: dict[str, str] | None = None) -> GameRecord | None: ...

    def verdict_record(self) -> VerdictRecord | None: ...


def keep_record(res: Result, holder: _Keeper) -> str:
    """Keep a finished or forfeited game in the data folder's records, as the app does (Replays lists
    them, ``coldwater replay`` checks them): the whole game after an audited end, the verdict record
    (every signature, the proposal and every answer) after a forfeit. Returns its path, '' for none."""
    folder = paths.data_dir() / "records"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = f"lan-{safe_name(res.table)}-{stamp}-seat{res.seat + 1}.json"
    try:
        if res.forfeit:
            vr = holder.verdict_record()
            if vr is None:
                return ""
            folder.mkdir(parents=True, exist_ok=True)
            write_atomic(folder / name, dump_record(vr))
            return str(folder / name)
        if not res.audit_ok:
            return ""
        rec = holder.kept_record({"table": res.table})
        if rec is None:
            return ""
        folder.mkdir(parents=True, exist_ok=True)
        records.save(rec, folder / name)
        return str(folder / name)
    except OSError as e:
        log.warning("could not keep the game's record in %s: %s", folder, e)
        return ""
