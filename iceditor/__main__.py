"""`python3 -m iceditor`: the same as the `iceditor` command."""

import sys

from .entry import main

sys.exit(main())
