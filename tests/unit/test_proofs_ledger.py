"""The ledger's account of a proof names the first failing step of a refuted result and its counterexample."""

from theorems.statements.proofs import ledger_section


def test_refuted_result_names_its_first_failing_step():
    text = ledger_section(["corollary1.own-key.upper", "corollary1.max-key.upper", "lemma1.upper"], seed=0, max_examples=60)
    refuted, holds = text.split("### ")[1:]  # lemma1.upper has no encoded proof: no account
    assert "**First failing step: 3** (Cauchy–Schwarz with the own key" in refuted and "certified by" in refuted
    assert "First failing step" not in holds and "Every step holds" in holds and ("loosest: step" in holds or "is tight" in holds) and "⚠" not in text
