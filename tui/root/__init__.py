"""The ``coldwater`` package itself: its version, and ``python -m coldwater``.

The project's top-level folders (core/, net/, tui/, themes/) are installed as
``coldwater.core`` and so on (see setup.py); this folder is installed as the
``coldwater`` package that holds them, so the version has one home that every
layer can read without importing another layer.
"""

__version__ = "0.1.0"
"""The one version number: the wheel's (setup.py reads it from here), ``coldwater --version``,
the Help screen, every game record and the LAN log lines."""
