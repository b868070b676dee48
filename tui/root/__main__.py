"""``python -m coldwater``: the same entry point as the ``coldwater`` command."""

import sys

from coldwater.tui.cli import main

sys.exit(main())
