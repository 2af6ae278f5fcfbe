"""``prove``: a statement proved on a whole box of instances by branch-and-bound in arb balls (``docs/proofs.md``).

One module per part, each a few short functions over the state of one search:

- :mod:`~theorems.engine.prove.run`: :func:`prove` (its arguments checked, the reduction tried, the proof assembled)
  and the branch-and-bound loop;
- :mod:`~theorems.engine.prove.evaluate`: one box: the claim enclosed by the jets of
  :mod:`theorems.arithmetic.box_jet` (the mean-value form, the second-order form where it stalls), closed, moved to
  a face, or split;
- :mod:`~theorems.engine.prove.points`: the float64 sides at points, a refutation through the certifier;
- :mod:`~theorems.engine.prove.crosscheck`: each box's enclosures against a second enclosure at its centre (the
  search's one cross-check policy);
- :mod:`~theorems.engine.prove.state`: the state of one search; :mod:`~theorems.engine.prove.result`: what a
  proof (:class:`Proof`) and a search (:class:`~theorems.engine.prove.result.Outcome`) end with;
- :mod:`~theorems.engine.prove.domain` (the domain, its boxes, bisection) and
  :mod:`~theorems.engine.prove.domain_check` (the domain checked against the statement before any work);
- :mod:`~theorems.engine.prove.certificate`: the proof as a certificate, re-checked by the independent checker;
- :mod:`~theorems.engine.prove.reduction`: homogeneity in ``(l, T)``, used only where the checker proves it.
"""

from theorems.engine.prove.result import Outcome, Proof
from theorems.engine.prove.run import SUITE_BOXES, box_json, prove

__all__ = ["Outcome", "Proof", "SUITE_BOXES", "box_json", "prove"]
