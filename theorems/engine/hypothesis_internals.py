"""Every Hypothesis internal the engine uses, in one place, with a contract that says when one moves.

The engine needs four things Hypothesis has no public switch for:

- ``hypothesis.internal.conjecture.providers._get_local_constants`` / ``_local_constants`` /
  ``CONSTANTS_CACHE``: emptied during a search, so that a seed draws the same examples whatever modules
  happen to be imported (:func:`without_local_constants`);
- ``hypothesis.internal.conjecture.engine.ConjectureRunner.test_function`` / ``exit_with`` /
  ``_current_phase`` and ``ExitReason.max_iterations``: the ``target()`` phase is ended after a count of
  test cases (:func:`bounded_target_phase`);
- ``hypothesis.control.current_build_context`` / ``BuildContext`` and the ``nodes`` of the current
  ``ConjectureData``: the choices of the example under test, for the optimiser (:func:`record`);
- ``ConjectureData.for_choices`` and ``choice.ChoiceTemplate``: those choices replayed through a strategy
  (:func:`replay`), optionally followed by as many of the simplest choices as the strategy asks for, so that
  the optimiser can lengthen an instance (:func:`replay_recorded` reports what the replay consumed).

:func:`missing` lists what this Hypothesis lacks (``tests/unit/test_hypothesis_contract.py`` fails on any);
at run time a hook that cannot be installed emits a :class:`HypothesisInternalsWarning` naming it, once per
process and hook, and the search report says the optimiser is unavailable — never a silent fallback.

>>> missing()
()
"""

from __future__ import annotations

import contextlib
import importlib
import warnings
from typing import Any

from theorems.errors import InvalidArgument

PROVIDERS = "hypothesis.internal.conjecture.providers"
ENGINE = "hypothesis.internal.conjecture.engine"
DATA = "hypothesis.internal.conjecture.data"
CONTROL = "hypothesis.control"
CHOICE = "hypothesis.internal.conjecture.choice"

CONTRACT = {
    "local constants": ((PROVIDERS, "_get_local_constants"), (PROVIDERS, "_local_constants"),
                        (PROVIDERS, "CONSTANTS_CACHE.cache")),
    "bounded target phase": ((ENGINE, "ConjectureRunner.test_function"), (ENGINE, "ConjectureRunner.exit_with"),
                             (ENGINE, "ExitReason.max_iterations")),
    "choice recording": ((CONTROL, "current_build_context"), (CONTROL, "BuildContext"),
                         (DATA, "ConjectureData.nodes")),
    "choice replay": ((DATA, "ConjectureData.for_choices"), (CHOICE, "ChoiceTemplate")),
}
"""What each hook needs: ``(module, dotted attribute)`` pairs."""


class HypothesisInternalsWarning(UserWarning):
    """A Hypothesis internal the engine hooks into is missing in this release: the search runs weaker."""


_warned: set[str] = set()


def _lookup(module: str, dotted: str) -> Any:
    value = importlib.import_module(module)
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def _present(module: str, dotted: str) -> bool:
    try:
        _lookup(module, dotted)
    except (ImportError, AttributeError):
        # ``ConjectureData.nodes`` is an instance attribute on some releases: look in the class's annotations too
        if dotted == "ConjectureData.nodes":
            with contextlib.suppress(ImportError, AttributeError):
                cls = _lookup(module, "ConjectureData")
                return "nodes" in getattr(cls, "__annotations__", {}) or "nodes" in getattr(cls, "__slots__", ())
        return False
    return True


def missing(hook: str | None = None) -> tuple[str, ...]:
    """The internals this Hypothesis lacks (all hooks, or one of :data:`CONTRACT`), as ``module.attribute``."""
    if hook is not None and hook not in CONTRACT:
        raise InvalidArgument(f"hook={hook!r} must be one of {tuple(CONTRACT)}")
    hooks = CONTRACT if hook is None else {hook: CONTRACT[hook]}
    return tuple(f"{m}.{a}" for needs in hooks.values() for m, a in needs if not _present(m, a))


def _warn(hook: str, absent: tuple[str, ...], consequence: str) -> None:
    if hook in _warned:
        return
    _warned.add(hook)
    import hypothesis

    warnings.warn(f"Hypothesis {hypothesis.__version__} lacks {', '.join(absent)}: the engine's {hook} hook is not "
                  f"installed, so {consequence}. Install the Hypothesis release pyproject.toml names, or update "
                  "theorems/engine/hypothesis_internals.py.", HypothesisInternalsWarning, stacklevel=3)


@contextlib.contextmanager
def without_local_constants():
    """Hypothesis mixes literals harvested from every imported local module into generated data, so one
    seed draws differently in a test session and on the command line; the pool is emptied meanwhile."""
    absent = missing("local constants")
    if absent:
        _warn("local constants", absent, "a seed may draw other examples depending on the modules imported")
        yield
        return
    providers = importlib.import_module(PROVIDERS)
    original, cache = providers._get_local_constants, providers.CONSTANTS_CACHE.cache
    empty = type(providers._local_constants)()
    providers._get_local_constants = lambda: empty
    cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.clear()


@contextlib.contextmanager
def bounded_target_phase(calls: int):
    """End Hypothesis's run once its ``target()`` phase has run ``calls`` test cases."""
    absent = missing("bounded target phase")
    if absent:
        _warn("bounded target phase", absent, "the target() phase may run far longer on a flat score")
        yield
        return
    engine = importlib.import_module(ENGINE)
    runner, reason = engine.ConjectureRunner, engine.ExitReason.max_iterations
    original = runner.test_function
    spent = [0]

    def test_function(self, data):
        if getattr(self, "_current_phase", None) == "target":
            spent[0] += 1
            if spent[0] > calls:
                self.exit_with(reason)
        return original(self, data)

    runner.test_function = test_function
    try:
        yield
    finally:
        runner.test_function = original


def optimiser_available() -> bool:
    """Whether choices can be recorded and replayed; warns (once) when not."""
    absent = missing("choice recording") + missing("choice replay")
    if absent:
        _warn("choice recording/replay", absent, "the Nelder–Mead optimiser does not run (weaker tightness "
              "reports and fewer counterexamples near a supremum)")
    return not absent


def record() -> tuple | None:
    """``(choices, constraints)`` of the example being tested now, or ``None`` outside a test."""
    control = importlib.import_module(CONTROL)
    try:
        nodes = tuple(control.current_build_context().data.nodes)
    except Exception as error:  # noqa: BLE001 - no build context (outside a test) or a changed node API
        if not isinstance(error, (AttributeError, TypeError)):
            return None
        _warn("choice recording/replay", (f"{DATA}.ConjectureData.nodes ({error})",), "the optimiser has no starts")
        return None
    return tuple(n.value for n in nodes), tuple((n.type, dict(n.constraints)) for n in nodes)


def replay(strategy, choices: tuple) -> Any | None:
    """The instance ``strategy`` draws from ``choices``, or ``None`` when it rejects them."""
    replayed = replay_recorded(strategy, choices)
    return None if replayed is None else replayed[0]


def replay_recorded(strategy, choices: tuple, *, grow: bool = False) -> tuple[Any, tuple, tuple] | None:
    """``(instance, choices, constraints)``: what ``strategy`` draws from ``choices`` and the choices it consumed
    (with their constraints, as :func:`record` gives them), or ``None`` when it rejects them. With ``grow``, a
    strategy that asks for more choices than given gets the simplest ones (a longer list, a larger array),
    instead of rejecting the replay; a choice that no longer fits its constraints becomes the simplest one
    (Hypothesis's own rule for a misaligned choice)."""
    control, data_module = importlib.import_module(CONTROL), importlib.import_module(DATA)
    try:
        if grow:
            choices = (*choices, importlib.import_module(CHOICE).ChoiceTemplate("simplest", count=None))
        data = data_module.ConjectureData.for_choices(choices)
        with control.BuildContext(data, is_final=False, wrapped_test=replay):  # some strategies need a build context
            instance = data.draw(strategy)
        nodes = tuple(data.nodes)
    except BaseException as error:  # noqa: BLE001 - StopTest, UnsatisfiedAssumption, InvalidArgument ...
        if isinstance(error, (KeyboardInterrupt, SystemExit, MemoryError)):
            raise
        return None
    return instance, tuple(n.value for n in nodes), tuple((n.type, dict(n.constraints)) for n in nodes)
