"""``setup_of(loaded, **options)``: the execution context of a model the tests have already loaded, made the one way a
setup is made (:meth:`empirical.setup.Setup.from_spec` of a checked :class:`empirical.spec.RunSpec`)."""

from empirical.setup import Setup
from empirical.spec import RunSpec


def setup_of(loaded, **options) -> Setup:
    """The setup of ``loaded`` under ``options`` (:meth:`empirical.spec.RunSpec.from_options`' keywords; the model
    is ``loaded`` itself, not loaded again)."""
    return Setup.from_spec(RunSpec.from_options(model=loaded.path, **options), loaded=loaded)
