"""The registry of ball forms (``theorems.arithmetic.ball_forms``): every entry has a differential test (a new table entry
without one fails here), every entry of the dispatch tables is in it, and ``replaced`` reaches what a side runs
(the path ``on_balls`` takes) and restores it afterwards, for every entry."""

import importlib

import flint
import numpy as np
import pytest

from theorems.arithmetic import ball_forms, ball_linalg, ballarray, box_jet
from theorems.arithmetic.ball_forms import find, forms, replaced
from theorems.arithmetic.precision import ARB, balls

TEST_MODULES = ("test_ball_forms_ufuncs", "test_ball_forms_operators", "test_ball_forms_scipy",
                "test_ball_forms_reductions", "test_ball_forms_linalg", "test_ball_forms_backend",
                "test_ball_forms_duals", "test_ball_forms_taylor")
"""The differential tests; each lists in ``TESTED`` the entries its tests are parametrised over."""


def _tested() -> set[str]:
    return set().union(*(importlib.import_module(name).TESTED for name in TEST_MODULES))


def _untested() -> list[str]:
    return sorted({form.name for form in forms()} - _tested())


def test_every_form_has_a_differential_test():
    assert _untested() == [], f"ball forms without a differential test: {_untested()}"
    assert _tested() <= {form.name for form in forms()}, f"tests of forms that are gone: {_tested() - {f.name for f in forms()}}"


def test_a_new_table_entry_without_a_test_fails_the_check():
    ballarray._SOUND[np.cbrt] = ballarray._SOUND[np.exp]
    try:
        assert "np.cbrt" in _untested()
    finally:
        del ballarray._SOUND[np.cbrt]
    assert "np.cbrt" not in {form.name for form in forms()}


def test_every_table_entry_is_a_form():
    keys = {(id(form.table), form.key if not isinstance(form.key, float) else repr(form.key)) for form in forms()}
    tables = [ballarray._SOUND, ballarray.SCIPY_FORMS, ball_linalg.VECTOR_NORMS, ball_linalg.MATRIX_NORMS, box_jet.DualArray.sound,
              box_jet.TaylorArray.sound]
    for table in tables:
        for key in table:
            assert (id(table), key if not isinstance(key, float) else repr(key)) in keys, f"{key!r} of a table is no form"
    linalg = {f.key for f in forms() if f.table is ball_linalg.FUNCTIONS}
    assert linalg == {k for k in ball_linalg.FUNCTIONS if k.__name__ != "norm"}
    assert {f.name for f in forms() if f.family == "object loop"} == {ball_forms._ufunc_name(u) for u in ballarray._NATIVE}
    assert len({form.name for form in forms()}) == len(forms())


class Marker(Exception):
    """Raised by a stand-in entry: the path a side takes reached it."""


def _raise(*args, **kwargs):
    raise Marker


def _stand_in(form):
    """An entry that raises :class:`Marker`: a ufunc for a ufunc's table (its reductions use the same entry)."""
    if form.family in ("ufunc", "object loop") or form.name.startswith(("DualArray", "TaylorArray")):
        return np.frompyfunc(_raise, form.original.nin, 1)
    if form.family == "reduction":
        return np.frompyfunc(_raise, 2, 1)
    return _raise


MATRIX = np.array([[2.0, 1.0], [1.0, 3.0]])
VECTOR = np.array([0.5, 0.25])


def _call(form):
    """Call ``form.on_balls`` the way a side does, with balls (on a box, for duals)."""
    if form.family == "dual":
        with ARB.precision(128), box_jet.on_box([(flint.arb(0.5), flint.arb(0.1)), (flint.arb(0.25), flint.arb(0))]) as xs:
            return _call_dual(form, xs)
    if form.family == "taylor":
        with ARB.precision(128), box_jet.on_box([(flint.arb(0.5), flint.arb(0.1)), (flint.arb(0.25), flint.arb(0))], order=2) as xs:
            try:
                return _call_dual(form, xs, box_jet.TaylorArray)
            except box_jet.NotSmooth:
                # TAYLOR.spectral_norm has no second-order rule: it declines on every box by design, so raising
                # NotSmooth is its real entry reached (a stand-in still raises Marker, which is not caught here)
                if form.name != "TAYLOR.spectral_norm":
                    raise
                return None
    with ARB.precision(128):
        return _call_balls(form)


def _call_balls(form):
    name, on = form.name, form.on_balls
    if form.family in ("ufunc", "object loop"):
        arrays = [balls(MATRIX if name == "np.matmul" else VECTOR)] * form.original.nin
        return on(*arrays)
    if form.family in ("reduction", "scipy"):
        return on(balls(VECTOR))
    if form.family == "linalg":
        if name == "np.linalg.solve":
            return on(balls(MATRIX), balls(VECTOR))
        if name.startswith("np.linalg.norm(vector"):
            return on(balls(VECTOR), ord=3) if "ord=p" in name else on(balls(VECTOR))
        return on(balls(MATRIX))
    if form.family == "backend":
        argument = {"ARB.spectral_norm": balls(MATRIX), "ARB.number": 0.5}.get(name, balls(VECTOR))
        return on(argument)
    if name.startswith("Ball.__"):
        unary = name in ("Ball.__neg__", "Ball.__pos__", "Ball.__abs__")
        return on(balls(0.5)) if unary else on(balls(0.5), 0.25)
    return on(*[balls(VECTOR)] * form.original.nin)  # Ball.exp, Ball.hypot and the like, on a plain object array


def _call_dual(form, xs, array=box_jet.DualArray):
    """A dual (Taylor) form on the box's coordinates ``xs``; ``array``: the family's array type."""
    name, on = form.name, form.on_balls
    if name.startswith(("DualArray", "TaylorArray")):
        return on(np.array([xs[0]], dtype=object).view(array), np.array([xs[1]], dtype=object))
    operation = name.split(".", 1)[1]  # "Dual.__add__", "DUAL.exp", "Taylor.__add__", "TAYLOR.exp"
    if operation.startswith("__"):
        if operation in ("__neg__", "__pos__", "__abs__"):
            return on(xs[0])
        return on(xs[0], 0.5 if operation.startswith("__r") else xs[1])  # reflected: a number on the left
    if operation in ("norm", "max"):
        return on(np.array(xs, dtype=object))
    if operation == "spectral_norm":
        return on(np.array([[xs[0], 1], [xs[1], 2]], dtype=object))
    return on(0.5) if operation == "number" else on(xs[0])


@pytest.mark.parametrize("name", sorted(form.name for form in forms()))
def test_replaced_reaches_what_a_side_runs_and_is_restored(name):
    form = find(name)
    before = form.ball_form
    _call(form)  # the real entry runs without the marker
    with replaced(name, _stand_in(form)):
        with pytest.raises(Marker):
            _call(form)
    assert form.ball_form is before
    with pytest.raises(ZeroDivisionError), replaced(name, _stand_in(form)):
        1 / 0  # noqa: B018 - restored on error too
    assert form.ball_form is before
    _call(form)


def test_find_names_what_it_misses():
    with pytest.raises(Exception, match="not a ball form"):
        find("np.cbrt")
