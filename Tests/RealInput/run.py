#!/usr/bin/env python3
"""Entry point of the real-input suite: scripts/test-real-input runs this with a system python3
that has PyGObject and the Atspi typelib. See README.md."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402

sys.exit(suite.main())
