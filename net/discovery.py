"""Finding tables on the LAN with zeroconf (mDNS/DNS-SD).

A host advertises ``<table name> [<id>]._coldwater._tcp.local.`` with TXT
records ``game``, ``table``, ``open`` (open seats), ``v`` (protocol version),
``content`` (content hash), ``fp`` (the host's fingerprint) and ``pw`` ("1" when
the table needs a passphrase), ``w`` (people watching), ``wa`` ("1" when the table
admits watchers), ``run`` ("1" once the game is on), ``n`` (seats in all) and ``app`` (the
app's version); it updates the record when
seats or watchers change and withdraws it when the table closes. A :class:`TableBrowser` keeps the list of
tables as they appear, change and vanish. Where multicast does not reach, people
join by ``HOST:PORT``.

Nothing in an advert is proof: anyone can announce any name and fingerprint.
The joiner checks the advertised fingerprint against the key the table proves in
the handshake (see lan.join_table), and listings mark names that more than one
table uses (``duplicate``), so a person sees that one of them is not theirs. A table
name that breaks the name rule (net/names.py: control or direction characters, too
long) is not listed at all, and the other text fields are escaped before they are kept.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import logging
import os
import socket
from collections.abc import Callable, Iterable

import ifaddr
import msgspec
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from coldwater import __version__

from .messages import PROTOCOL, SERVICE
from .names import TABLE_NAME_BYTES, check_name, is_good, shown

log = logging.getLogger("coldwater.net")


class Listing(msgspec.Struct, frozen=True):
    """One table on the LAN, as the Join screen shows it."""

    service: str
    table: str
    game: str
    host: str
    """An address to connect to."""
    port: int
    open_seats: int
    v: int
    content: str
    fingerprint: str = ""
    """The fingerprint the advert claims; the handshake must prove the same key."""
    addresses: tuple[str, ...] = ()
    needs_passphrase: bool = False
    """The table asks for a passphrase (a join without one is refused)."""
    duplicate: bool = False
    """Another table on the LAN has the same name: tell them apart by fingerprint."""
    watchers: int = 0
    """People watching the table now."""
    watchable: bool = False
    """The table admits watchers (and has room for one more)."""
    running: bool = False
    """The game has started (so its seats are taken for good)."""
    dealer: str = ""
    """Who deals hidden values: "fair" (nobody sees through it), "committed" (the host's dealer), or ""
    when the advert does not say (an older version)."""
    seats: int = 0
    """Seats at the table in all (0: the advert does not say)."""
    version: str = ""
    """The host's app version (coldwater.__version__), escaped; "" when the advert does not say."""
    turn: int = -1
    """Seconds a seat has for each move (0: no clock; -1: the advert does not say)."""
    strict: bool = False
    """A strict clock: a bot plays a seat out of time at once, its player there or not."""
    hints: bool = False
    """The host turned the coach's hints on for every seat."""
    game_time: int = -1
    """Seconds each seat may think over the whole game (0: no such limit; -1: the advert does not say)."""

    @property
    def compatible(self) -> bool:
        return self.v == PROTOCOL


def mark_duplicates(listings: Iterable[Listing]) -> list[Listing]:
    """`listings` sorted by name, with ``duplicate`` set on every name used more than once."""
    out = sorted(listings, key=lambda t: (t.table, t.fingerprint, t.service))
    count = collections.Counter(t.table for t in out)
    return [msgspec.structs.replace(t, duplicate=count[t.table] > 1) for t in out]


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses, loopback last (advertised so peers can reach us)."""
    out: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and ip.ip not in out:
                out.append(ip.ip)
    out.sort(key=lambda a: (ipaddress.ip_address(a).is_loopback, a))
    return out


def _instance(table: str) -> str:
    # DNS labels are at most 63 bytes: the name rule keeps a table name to TABLE_NAME_BYTES, which
    # leaves room for the short random id that keeps two tables of one name apart (and zeroconf's -N).
    base = "".join(c for c in table if c != ".").encode()[:TABLE_NAME_BYTES].decode(errors="ignore") or "table"
    return f"{base} [{os.urandom(2).hex()}].{SERVICE}"


class Advertiser:
    """Advertises one table; :meth:`update` when the open seats change, :meth:`close` withdraws it."""

    def __init__(
        self,
        *,
        table: str,
        game: str,
        content: str,
        port: int,
        fingerprint: str = "",
        addresses: list[str] | None = None,
        needs_passphrase: bool = False,
        watch: int = 0,
        dealer: str = "",
        seats: int = 0,
        turn: int = -1,
        strict: bool = False,
        hints: bool = False,
        game_time: int = -1,
    ) -> None:
        self.table = check_name(table)  # BadName (a ValueError) before anything goes on the air
        self.seats = seats
        self.turn, self.strict = turn, strict
        self.game_time = game_time
        self.hints = hints
        self.needs_passphrase = needs_passphrase
        self.game = game
        self.content = content
        self.port = port
        self.fingerprint = fingerprint
        self.dealer = dealer
        addrs = addresses or [a for a in local_addresses() if not ipaddress.ip_address(a).is_loopback] or ["127.0.0.1"]
        self.addresses = addrs
        self.name = _instance(table)
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._lock = asyncio.Lock()
        self._open = 0
        self.watch = watch
        """The most watchers the table admits (0: none)."""
        self._watchers = 0
        self._running = False
        self._advertised: tuple[int, int, bool, int, bool, int] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def _now(self) -> tuple[int, int, bool, int, bool, int]:
        return self._open, self._watchers, self._running, self.turn, self.strict, self.game_time

    def _make_info(self, open_seats: int) -> AsyncServiceInfo:
        props = {
            "game": self.game,
            "table": self.table,
            "open": str(open_seats),
            "v": str(PROTOCOL),
            "content": self.content,
            "fp": self.fingerprint,
            "pw": "1" if self.needs_passphrase else "0",
            "w": str(self._watchers),
            "wa": "1" if self._watchers < self.watch else "0",
            "run": "1" if self._running else "0",
            "d": self.dealer,
            "n": str(self.seats),
            "app": __version__,
            "h": "1" if self.hints else "0",
        }
        if self.turn >= 0:  # the turn clock, so a joiner knows it before sitting down
            props |= {"t": str(self.turn), "st": "1" if self.strict else "0"}
            if self.game_time >= 0:
                props["gt"] = str(self.game_time)
        server = f"coldwater-{self.name.split('[')[-1][:4]}.local."
        return AsyncServiceInfo(
            SERVICE,
            self.name,
            port=self.port,
            properties=props,
            server=server,
            addresses=[socket.inet_aton(a) for a in self.addresses],
        )

    async def start(self, open_seats: int | None = None) -> None:
        if open_seats is not None:
            self._open = open_seats
        async with self._lock:
            self._zc = AsyncZeroconf(ip_version=IPVersion.V4Only)
            self._info = self._make_info(self._open)
            self._advertised = self._now
            # zeroconf returns a task that finishes once the announcement is out: wait for both.
            await (await self._zc.async_register_service(self._info, allow_name_change=True))
        await self._push()

    async def update(self, open_seats: int) -> None:
        self._open = open_seats
        await self._push()

    async def _push(self) -> None:
        # Always advertise the latest count; changes that arrive while an announcement
        # is still going out are sent right after it, never lost.
        async with self._lock:
            if self._zc is None or self._info is None or self._advertised == self._now:
                return
            self._advertised = self._now
            self._info = self._make_info(self._open)
            await (await self._zc.async_update_service(self._info))

    def update_soon(self, open_seats: int) -> None:
        """Record the new count and announce it soon (callable from synchronous code)."""
        self._open = open_seats
        self._push_soon()

    def update_watch_soon(self, watchers: int, running: bool) -> None:
        """Record how many watch and whether the game is on, and announce it soon."""
        self._watchers, self._running = watchers, running
        self._push_soon()

    def set_clock_soon(self, turn: int, strict: bool, game_time: int = -1) -> None:
        """The table's turn timer, whether its clock is strict and its game time changed (before the
        game): announce it."""
        self.turn, self.strict = turn, strict
        if game_time >= 0:
            self.game_time = game_time
        self._push_soon()

    def _push_soon(self) -> None:
        task = asyncio.ensure_future(self._push())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        async with self._lock:
            if self._zc is None:
                return
            try:
                if self._info is not None:
                    await (await self._zc.async_unregister_service(self._info))
            finally:
                await self._zc.async_close()
                self._zc = None


class TableBrowser:
    """Lists coldwater tables on the LAN as they appear, change and vanish.

    ``on_change(listings)`` (optional) is called with the whole list after each
    change; :meth:`find` waits for a table by name.
    """

    def __init__(self, on_change: Callable[[list[Listing]], None] | None = None) -> None:
        self.tables: dict[str, Listing] = {}
        self._on_change = on_change
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._zc = AsyncZeroconf(ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE, handlers=[self._on_service])

    def _on_service(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            if self.tables.pop(name, None) is not None:
                self._notify()
            return
        t = asyncio.ensure_future(self._resolve(name))
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        if self._zc is None:
            return
        info = AsyncServiceInfo(SERVICE, name)
        if not await info.async_request(self._zc.zeroconf, 3000):
            return
        props = {k.decode(errors="replace"): (v or b"").decode(errors="replace") for k, v in info.properties.items()}
        if not is_good(props.get("table", "")):
            # Anyone can announce anything: a name with ESC or bidi characters would reach every
            # Join screen on the LAN, so such a table is not listed (and the log line is escaped).
            log.warning("ignoring a table advertised with a bad name: %s", shown(props.get("table", "")))
            return
        addrs = tuple(info.parsed_addresses(IPVersion.V4Only))
        if not addrs or info.port is None:
            return
        try:
            listing = Listing(
                service=name,
                table=props.get("table", ""),
                game=shown(props.get("game", ""), limit=32),
                host=addrs[0],
                port=int(info.port),
                open_seats=int(props.get("open", "0")),
                v=int(props.get("v", "0")),
                content=shown(props.get("content", ""), limit=128),
                fingerprint=shown(props.get("fp", ""), limit=32),
                addresses=addrs,
                needs_passphrase=props.get("pw", "0") == "1",
                watchers=max(0, int(props.get("w", "0"))),
                watchable=props.get("wa", "0") == "1",
                running=props.get("run", "0") == "1",
                dealer=props.get("d", "") if props.get("d", "") in ("fair", "committed") else "",
                seats=max(0, min(int(props.get("n", "0")), 99)),
                version=shown(props.get("app", ""), limit=24),
                turn=max(-1, min(int(props.get("t", "-1")), 3600)),
                strict=props.get("st", "0") == "1",
                game_time=max(-1, min(int(props.get("gt", "-1")), 7 * 86400)),
                hints=props.get("h", "0") == "1",
            )
        except ValueError:
            log.warning("ignoring a malformed table advertisement %s", shown(name, limit=255))
            return
        self.tables[name] = listing
        self._notify()

    def _notify(self) -> None:
        self._changed.set()
        if self._on_change is not None:
            self._on_change(self.listings())

    def listings(self) -> list[Listing]:
        """Every table heard, by name; tables that share a name are marked ``duplicate``."""
        return mark_duplicates(self.tables.values())

    def named(self, table: str) -> list[Listing]:
        """The tables called `table` (or whose service name is `table`)."""
        return [
            t for t in self.listings() if t.table == table or t.service == table or t.service.startswith(f"{table} [")
        ]

    async def find(self, table: str, timeout: float = 10.0, *, settle: float = 0.0) -> list[Listing]:
        """The tables named `table`, waiting up to `timeout` for the first; empty if none.

        With `settle`, listen that much longer after the first answer, so a second
        table of the same name (an impostor racing the real one) is heard too.
        """

        async def look() -> None:
            while not self.named(table):
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(look(), timeout)
        except TimeoutError:
            return []
        if settle > 0:
            await asyncio.sleep(settle)
        return self.named(table)

    async def close(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None


async def browse(seconds: float = 2.0) -> list[Listing]:
    """Every table heard within `seconds` (a one-shot look, for scripts)."""
    b = TableBrowser()
    await b.start()
    try:
        await asyncio.sleep(seconds)
        return b.listings()
    finally:
        await b.close()
