"""Hypothesis settings profiles, registered in one place.

``dev`` (default): fast. ``ci``: derandomised, more examples. ``thorough``: for a night's run.
Choose with ``pytest --hypothesis-profile=ci`` or ``HYPOTHESIS_PROFILE=ci``. No profile has a
deadline: a statement's cost depends on ``L``, and timing is for benchmarks, not tests.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILES = {"dev": 100, "ci": 300, "thorough": 3000}


def register() -> None:
    common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    settings.register_profile("dev", max_examples=PROFILES["dev"], **common)
    settings.register_profile("ci", max_examples=PROFILES["ci"], derandomize=True, print_blob=True, **common)
    settings.register_profile("thorough", max_examples=PROFILES["thorough"], **common)


def load(name: str | None = None) -> str:
    """Register every profile and load ``name`` (default ``$HYPOTHESIS_PROFILE`` or ``dev``)."""
    register()
    name = name or os.environ.get("HYPOTHESIS_PROFILE", "dev")
    if name not in PROFILES:
        raise ValueError(f"profile={name!r} must be one of {tuple(PROFILES)}")
    settings.load_profile(name)
    return name
