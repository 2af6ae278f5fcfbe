"""Multi-head coverage 1 − (1 − p)^H and the number of heads it needs for 99% at p = 0.8."""

import sympy as sp

p, H = sp.symbols("p H", positive=True)
COVERAGE = 1 - (1 - p) ** H


def test_coverage_is_the_complement_of_every_head_missing():
    assert sp.simplify(COVERAGE.subs(H, 2) - (p + (1 - p) * p)) == 0


def test_three_heads_give_99_percent_at_p_08():
    needed = sp.solve(sp.Eq(COVERAGE.subs(p, sp.Rational(4, 5)), sp.Rational(99, 100)), H)[0]
    assert sp.N(needed, 6) == sp.N(sp.log(100) / sp.log(5), 6)            # H ≥ 2.861
    assert sp.ceiling(needed) == 3
    assert COVERAGE.subs({p: sp.Rational(4, 5), H: 3}) == sp.Rational(124, 125)  # 99.2%
    assert COVERAGE.subs({p: sp.Rational(4, 5), H: 2}) < sp.Rational(99, 100)    # 96% is not enough
