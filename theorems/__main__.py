import os
import sys

from theorems.app.cli import main

try:
    sys.exit(main())
except BrokenPipeError:  # `python -m theorems list | head`: the reader left early, which is not an error here
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)
