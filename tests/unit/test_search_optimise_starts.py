"""The optimiser's starts: the ``optimiser.STARTS`` instances with the largest ratio, largest first; an instance
below all of them, once they are full, is not even recorded (its choices are not read back from Hypothesis)."""

from theorems.engine import optimiser
from theorems.engine.search.optimise import remember


def test_the_largest_ratios_are_kept_largest_first(monkeypatch):
    recorded = []
    monkeypatch.setattr(optimiser, "record", lambda: (recorded.append(1) or (("choice",), ("constraint",))))
    starts = []
    for ratio in (0.1, 0.7, 0.3, 0.9, 0.2, 0.8):
        remember(starts, ratio)
    assert [s.score for s in starts] == [0.9, 0.8, 0.7][:optimiser.STARTS]
    assert starts[0].choices == ("choice",) and len(recorded) == 5  # 0.2 came when 0.3 was the smallest of three

