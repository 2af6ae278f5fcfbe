"""Any array library's scalars (issue 28 item 4): a side returning a 0-d torch tensor is searched in float64. The
true bound ‖J‖₂ ≤ 1/(2T) on softmax's Jacobian, written in torch, holds; its 2 %-tightened mutant fails as a
candidate whose reason says the side was searched in float64 and cannot be certified."""

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import SideValueError, Statement, check
from theorems.engine.sides import check_side_value

torch = pytest.importorskip("torch")

INSTANCES = st.fixed_dictionaries({"l": st.lists(st.floats(-4, 4), min_size=2, max_size=5).map(np.array),
                                   "T": st.floats(0.25, 4)})


def _norm(i, xp):
    p = torch.softmax(torch.as_tensor(i["l"], dtype=torch.float64) / i["T"], dim=0)
    jacobian = (torch.diag(p) - torch.outer(p, p)) / i["T"]
    return torch.linalg.matrix_norm(jacobian, 2)


def _statement(factor, expected):
    return Statement(id=f"torch.jacobian-norm-{factor}", title="-", paper_ref="-", reading="torch",
                     formula=f"‖J‖₂ ≤ {factor}/(2T)", lhs=_norm, rhs=lambda i, xp: factor / (2 * i["T"]),
                     relation="<=", instances=INSTANCES, expected=expected, reason="-", max_examples=200)


def test_a_0d_tensor_is_read_as_its_number():
    assert check_side_value(torch.tensor(0.25, dtype=torch.float64), statement_id="s", side="lhs") == 0.25


@pytest.mark.parametrize("value", [torch.tensor(True), torch.zeros(2), torch.tensor(1 + 2j)])
def test_a_tensor_that_is_no_real_scalar_is_refused_by_its_type(value):
    with pytest.raises(SideValueError, match="Tensor"):
        check_side_value(value, statement_id="s", side="lhs")


def test_the_true_bound_in_torch_holds():
    verdict = check(_statement(1.0, "holds"), seed=0)
    assert verdict.found == "holds" and verdict.report.tightness.ratio > 0.9


def test_its_tightened_mutant_fails_as_a_candidate_searched_in_float64():
    verdict = check(_statement(0.98, "refuted"), seed=0)
    assert verdict.found == "candidate" and not verdict.matches
    reason = verdict.report.candidates[0].reason
    assert "torch.Tensor" in reason and "searched in float64" in reason
