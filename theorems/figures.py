"""Writing a matplotlib figure to PNG, the one way every figure of the project is written."""

from __future__ import annotations

from pathlib import Path


def save_figure(figure, path, *, dpi: int = 130, rect=None) -> Path:
    """Lay out ``figure``, write it to ``path`` (creating folders), close it, return the path."""
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout(**({"rect": rect} if rect is not None else {}))
    figure.savefig(path, dpi=dpi)
    plt.close(figure)
    return path
