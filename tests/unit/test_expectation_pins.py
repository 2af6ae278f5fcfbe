"""Pinned verdicts and tightness are validated eagerly, naming the argument."""

import pytest

from theorems import STATEMENTS
from theorems.engine.derivation import expect
from theorems.app.plugin import defined_names


@pytest.mark.parametrize("bad, message", [
    (dict(verdict="maybe"), "verdict='maybe'"), (dict(tightness=0.0), "tightness=0.0"),
    (dict(tightness=1.5), "tightness=1.5"), (dict(tightness=True), "tightness=True"),
])
def test_bad_pin_is_rejected(bad, message):
    with pytest.raises(ValueError, match=message):
        expect(STATEMENTS["lemma1.upper"], **bad)


def test_tightness_needs_a_bound_that_holds():
    with pytest.raises(ValueError, match="expected to hold"):
        expect(STATEMENTS["corollary3.spectral"], tightness=0.9)
    with pytest.raises(TypeError, match="Statement or a Derivation"):
        expect("lemma1.upper")


def test_pinned_verdict_overrides_expected():
    assert expect(STATEMENTS["lemma1.upper"], verdict="refuted").expected == "refuted"


def test_only_names_defined_by_a_call_are_collected():
    source = "from theorems import STATEMENTS as S\nA = S['x']\nB = make()\nC, D = make(), make()\nE: T = f()\nF = B\n"
    assert defined_names(source) == {"B", "E"}


def test_statements_defined_in_module_level_blocks_are_collected():
    source = ("try:\n    import torch\nexcept ImportError:\n    torch = None\nelse:\n    G = make()\n"
              "if torch is not None:\n    H = make()\nelse:\n    I = make()\nwith ctx():\n    J = make()\n"
              "def f():\n    K = make()\nclass C:\n    M = make()\n")
    assert defined_names(source) == {"G", "H", "I", "J"}
