"""``python -m understudy.cli``."""

import sys

from understudy.cli import main

sys.exit(main())
