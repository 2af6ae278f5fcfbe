"""Hypothesis settings profiles, registered in one place, under names of their own.

``theorems-dev`` (the default of this project's tests): fast. ``theorems-ci``: derandomised, more examples.
``theorems-thorough``: for a night's run. The names carry the package's prefix so that they cannot clash with a
user's own ``dev``/``ci`` profiles, nor replace Hypothesis's built-in ``ci`` for everyone who installs the
package. Choose with ``pytest --hypothesis-profile=theorems-ci`` or ``HYPOTHESIS_PROFILE=theorems-ci`` (the
pytest plugin honours both; the option wins). The CLI's ``--profile`` takes the short names. No profile has a
deadline: a statement's cost depends on ``L``, and timing is for benchmarks, not tests.

>>> full_name("ci"), full_name("theorems-ci")
('theorems-ci', 'theorems-ci')
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from theorems.errors import InvalidArgument

PREFIX = "theorems-"
PROFILES = {"dev": 100, "ci": 300, "thorough": 3000}
"""Short name -> examples per search; registered as ``theorems-<short name>``."""


def full_name(name: str) -> str:
    """The registered name of one of this package's profiles (short names are prefixed)."""
    return PREFIX + name if name in PROFILES else name


def register() -> None:
    common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    settings.register_profile(full_name("dev"), max_examples=PROFILES["dev"], **common)
    settings.register_profile(full_name("ci"), max_examples=PROFILES["ci"], derandomize=True, print_blob=True,
                              **common)
    settings.register_profile(full_name("thorough"), max_examples=PROFILES["thorough"], **common)


def registered(name: str) -> bool:
    """Whether Hypothesis knows a profile called ``name`` (this package's, the user's or its own)."""
    try:
        settings.get_profile(name)
    except Exception:  # noqa: BLE001 - hypothesis.errors.InvalidArgument
        return False
    return True


def load(name: str | None = None) -> str:
    """Register every profile and load ``name`` (a short or full name; default ``$HYPOTHESIS_PROFILE`` or ``dev``)."""
    register()
    name = full_name(name or os.environ.get("HYPOTHESIS_PROFILE") or "dev")
    if not registered(name):
        raise InvalidArgument(f"profile={name!r} must be one of {tuple(map(full_name, PROFILES))} "
                             "or a profile registered with hypothesis.settings.register_profile")
    settings.load_profile(name)
    return name
