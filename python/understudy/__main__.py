"""``python -m understudy``: the command line."""

import sys

from understudy.cli import main

sys.exit(main())
