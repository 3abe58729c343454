"""``python -m specgen``: the same command line as the ``specgen`` script."""

import sys

from .cli import main

sys.exit(main())
