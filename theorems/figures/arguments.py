"""The figure scripts' command-line argument types (``python -m theorems.figures.<name> --rows 0`` is a usage error
naming the option, before any work).

>>> import argparse
>>> cli_integer(min_value=1, max_value=10)("11")
Traceback (most recent call last):
    ...
argparse.ArgumentTypeError: 11 must be an integer in 1..10
"""

from __future__ import annotations

import argparse


def cli_integer(*, min_value: int = 1, max_value: int | None = None):
    """An argparse ``type=``: an integer in ``[min_value, max_value]``, else a usage error naming the option."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < min_value or max_value is not None and value > max_value:
            span = f">= {min_value}" if max_value is None else f"in {min_value}..{max_value}"
            raise argparse.ArgumentTypeError(f"{text} must be an integer {span}")
        return value
    parse.__name__ = "integer"
    return parse


__all__ = ["cli_integer"]
