"""The second enclosure shares no code with the ball forms it checks: statically, the interval modules import none
of the ball backend, the duals or the Taylor forms; at run time, with every entry of the ball-form registry made to
raise, a side through numpy, scipy.special and np.linalg is still enclosed in intervals, and rightly."""

import contextlib

import mpmath
import numpy as np
import pytest
import scipy.special

from test_import_floors import imported, project_modules
from theorems.arithmetic import ball_forms
from theorems.arithmetic.precision import ARB, balls
from theorems.engine.search.enclosure import side_enclosure

SECOND_ENCLOSURE = ("theorems.arithmetic.interval", "theorems.arithmetic.interval_linalg",
                    "theorems.engine.search.enclosure")
BALL_CODE = {"theorems.arithmetic.ball", "theorems.arithmetic.ballarray", "theorems.arithmetic.ball_linalg",
             "theorems.arithmetic.ball_forms", "theorems.arithmetic.precision", "theorems.arithmetic.box_jet",
             "theorems.engine.search.balls", "theorems.engine.search.decide"}


def test_the_interval_modules_import_no_ball_code():
    import ast

    modules = project_modules()
    known = set(modules) | {name.rsplit(".", 1)[0] for name in modules}
    for name in SECOND_ENCLOSURE:
        path = modules[name]
        targets = imported(ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", known)
        assert not targets & BALL_CODE, f"{name} imports {sorted(targets & BALL_CODE)}"


def _side(i, xp):
    p = scipy.special.softmax(i["l"] / i["T"])
    return np.sum(scipy.special.rel_entr(p, 1 / len(p))) + np.linalg.norm(np.outer(p, p), 2) + np.log1p(np.exp(i["T"]))


def _exact(instance):
    with mpmath.workprec(300):
        l = [mpmath.mpf(v) / instance["T"] for v in instance["l"]]
        total = mpmath.fsum(mpmath.exp(v) for v in l)
        p = [mpmath.exp(v) / total for v in l]
        uniform = mpmath.mpf(1 / len(p))  # the double the side's 1 / len(p) gives
        kl = mpmath.fsum(x * mpmath.log(x / uniform) for x in p)
        return kl + mpmath.fsum(x * x for x in p) + mpmath.log1p(mpmath.exp(instance["T"]))


def test_with_every_ball_form_broken_the_interval_enclosure_is_unchanged_and_right():
    instance = {"l": np.array([0.5, -1.0, 2.0]), "T": 0.7}
    before = side_enclosure(_side, instance)

    def broken(*args, **kwargs):
        raise AssertionError("the interval evaluation reached a ball form")

    with contextlib.ExitStack() as stack:
        for form in ball_forms.forms():
            stack.enter_context(ball_forms.replaced(form.name, broken))
        with pytest.raises(AssertionError, match="reached a ball form"):  # the breakage is real: balls fail
            _side(balls(instance), ARB)
        during = side_enclosure(_side, instance)
    assert during is not None and [str(x) for x in during] == [str(x) for x in before]
    exact = _exact(instance)
    low, high = (mpmath.mp.make_mpf(end) for end in during[0].raw_ends())
    assert low <= exact <= high and high - low < 1e-30
