"""What a written figure must be: a PNG of the size asked for, with something drawn on it (not a blank canvas)."""

from pathlib import Path

import numpy as np
from PIL import Image


def assert_drawn(path, *, size_inches: tuple[float, float] | None = None, dpi: int = 130) -> None:
    path = Path(path)
    with Image.open(path) as image:
        assert image.format == "PNG"
        if size_inches is not None:
            assert image.size == tuple(round(side * dpi) for side in size_inches)
        pixels = np.asarray(image.convert("RGB"))
    inked = np.mean(pixels.min(axis=-1) < 250)          # share of pixels that are not (near) white
    colours = len(np.unique(pixels.reshape(-1, 3), axis=0))
    # axes, labels and curves: a few percent of the canvas at least, in more than a handful of colours
    assert inked > 0.02 and colours > 16, f"{path.name} looks blank: {inked:.1%} inked, {colours} colours"
