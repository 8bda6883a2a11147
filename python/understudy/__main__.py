"""``python -m understudy``: the command line (through its start-up check, as the command)."""

import sys

from understudy._launch import main

sys.exit(main())
