"""Writing a matplotlib figure to PNG, the one way every figure of the project is written."""

from __future__ import annotations

from pathlib import Path

from theorems.arithmetic.files import check_output_path
from theorems.arithmetic.validation import check_integer
from theorems.errors import InvalidArgumentType


def save_figure(figure, path, *, dpi: int = 130, rect=None) -> Path:
    """Lay out ``figure``, write it to ``path`` (creating folders), close it, return the path.

    Bad paths are refused before drawing: :func:`theorems.arithmetic.files.check_output_path`.
    """
    import matplotlib.pyplot as plt

    if not hasattr(figure, "savefig"):
        raise InvalidArgumentType(f"figure must be a matplotlib Figure, not {type(figure).__name__}")
    check_integer(dpi, name="dpi")
    path = check_output_path(path, name="path")
    figure.tight_layout(**({"rect": rect} if rect is not None else {}))
    figure.savefig(path, dpi=dpi)
    plt.close(figure)
    return path
