"""Local play: a game at a table on this machine, with no network.

A :class:`~coldwater.net.play.table.Table` runs one game for the app or a headless
host (seats, chance, undo, saves), its events go out through the one
:class:`~coldwater.net.play.emitter.Emitter`, the bots think in a worker process
(``thinker``/``thinkworker``), and a person's files (saves, records, the data folder
and its lock) are written atomically here (``files``, ``paths``, ``records``);
``cliargs`` reads the command-line values the CLIs share, and ``framing`` is the
frame codec every stream goes through (the worker's pipe here, the LAN's sockets
above). The LAN (the rest of ``net/``) builds on this package; this package never
imports the LAN (docs/architecture.md, checked by tests/test_layering.py).
"""
