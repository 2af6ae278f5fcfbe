"""The issue's two wrong verdicts, in a downstream project through the pytest plugin: `KL(p‖u) = log L − H(p)`
written with `scipy.special.rel_entr` and `entr` (true) and `KL(p‖u) ≤ 0.97·(ptp(l)/T)²/8` (false by 3 %).
With the real forms the true one passes and the false one is refuted; with `rel_entr`'s ball form flipped (the
slip behind the issue) both fail as engine inconsistencies: no certified refutation of the identity, no "holds"
for the false bound."""

import textwrap

from downstream import project, pytest_run

BOUNDS = textwrap.dedent('''
    import math

    import numpy as np
    import scipy.special
    from hypothesis import strategies as st

    from theorems import Statement

    LOGITS = st.fixed_dictionaries({"l": st.lists(st.floats(-4, 4), min_size=2, max_size=5).map(np.array),
                                    "T": st.floats(0.25, 4)})

    def _p(i):
        return scipy.special.softmax(i["l"] / i["T"])

    def _kl(i, xp):
        return np.sum(scipy.special.rel_entr(_p(i), 1 / len(i["l"])))

    kl_identity = Statement(
        id="mine.kl-identity", title="KL to uniform", paper_ref="-", reading="-",
        formula="KL(p‖u) ≤ log L − H(p)",
        lhs=_kl, rhs=lambda i, xp: math.log(len(i["l"])) - np.sum(scipy.special.entr(_p(i))), relation="<=",
        instances=LOGITS, expected="holds", reason="an identity", max_examples=200)

    kl_hoeffding_3pc = Statement(
        id="mine.kl-hoeffding-3pc", title="Hoeffding's KL bound, 3 % tight", paper_ref="-", reading="-",
        formula="KL(p‖u) ≤ 0.97·(ptp(l)/T)²/8", lhs=_kl,
        rhs=lambda i, xp: 0.97 * (np.ptp(i["l"]) / i["T"]) ** 2 / 8,
        relation="<=", instances=LOGITS, expected="refuted", reason="3 % below the true constant", max_examples=200)
''')

CONFTEST = textwrap.dedent('''
    import os

    from theorems.arithmetic import ball_forms

    if os.environ.get("FLIP_REL_ENTR"):  # the fault, for the whole run: rel_entr's ball form with its sign flipped
        FORM = ball_forms.find("scipy.special.rel_entr").ball_form
        FLIPPED = ball_forms.replaced("scipy.special.rel_entr", lambda x, y: -FORM(x, y))
        FLIPPED.__enter__()  # kept in a global: a collected context manager would restore the form
''')


def _run(tmp_path, env=None):
    folder = project(tmp_path, BOUNDS, "test_kl.py")
    (folder / "tests" / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    run = pytest_run(folder, "-m", "theory", "-rA", "--hypothesis-seed=0", env=env)
    return run.stdout + run.stderr


def test_with_the_real_forms_the_identity_holds_and_the_false_bound_is_refuted(tmp_path):
    out = _run(tmp_path)
    assert "PASSED tests/test_kl.py::kl_identity" in out and "PASSED tests/test_kl.py::kl_hoeffding_3pc" in out, out


def test_with_a_flipped_form_both_fail_as_engine_inconsistencies(tmp_path):
    out = _run(tmp_path, {"FLIP_REL_ENTR": "1"})
    assert "FAILED tests/test_kl.py::kl_identity" in out and "FAILED tests/test_kl.py::kl_hoeffding_3pc" in out, out
    assert out.count("found engine-inconsistency") == 2, out
    assert "scipy.special.rel_entr" in out and "bug in the suite" in out
    assert "found refuted" not in out and "found holds" not in out
