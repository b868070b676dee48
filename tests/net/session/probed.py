"""The LAN command line with the memory probe installed (probe.py): ``python -m tests.net.session.probed host …``.

The probe is a test instrument: the package's own ``coldwater.net.cli`` never loads it.
"""

from __future__ import annotations

from coldwater.net.cli import run

from .probe import install

if __name__ == "__main__":
    install()
    raise SystemExit(run())
