"""An engine inconsistency reads the same wherever a verdict is shown: the plugin's failure message (the derivation
module's ``describe_verdict``), the ledger's evidence column, ``check --json``'s field."""

import numpy as np
from hypothesis import strategies as st

from theorems import Statement, check
from theorems.arithmetic import ball_forms
from theorems.app import ledger
from theorems.engine.derivation import describe_verdict

EXP = ball_forms.find("np.exp").ball_form
_BOUND = Statement(id="mine.exp-above", title="-", paper_ref="-", reading="-", formula="1e-3 ≤ exp(x)",
                   lhs=lambda i, xp: 1e-3 + 0.0 * i["x"], rhs=lambda i, xp: np.exp(i["x"]), relation="<=",
                   instances=st.fixed_dictionaries({"x": st.floats(-30, -10)}), expected="refuted", reason="-")


def test_every_view_names_the_inconsistency():
    with ball_forms.replaced("np.exp", lambda x: -EXP(x)):
        verdict = check(_BOUND, max_examples=50, seed=0)
    message = describe_verdict(_BOUND, verdict)
    assert "found engine-inconsistency" in message and "np.exp" in message and "bug in the suite" in message
    assert ledger._evidence(verdict).startswith("engine inconsistency (a bug in the suite): rhs is [-")
    assert verdict.to_json()["engine_inconsistency"]["forms"] == ["np.exp"]
