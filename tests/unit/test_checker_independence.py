"""The checker shares no bounding code with the prover. Statically: no module of ``theorems/checker`` imports
(anywhere in its source, function bodies included) the prover (``theorems.engine.prove``), its jets, the search or the
ball backend, or anything but the error tree, the argument and file checks, the decimals of an interval (printing) and its own
modules (the catalogue is above it: ``theorems.verify_proof`` looks a statement up there and passes it). At run time:
with every bounding entry point of the prover made to raise, a certificate is still proved, so no call reaches
them."""

import pytest

from checker_certificates import certificate, tiling, write
from test_import_floors import imported, project_modules
from theorems import STATEMENTS

PROVER = {"theorems.engine.prove", "theorems.arithmetic.box_jet", "theorems.arithmetic.ball",
          "theorems.arithmetic.ballarray", "theorems.arithmetic.ball_linalg", "theorems.arithmetic.precision",
          "theorems.engine.search"}
ALLOWED = {"theorems.errors", "theorems.arithmetic.validation", "theorems.arithmetic.files", "theorems.arithmetic.decimals"}


def _checker_imports() -> dict[str, set[str]]:
    import ast

    modules = project_modules()
    known = set(modules) | {name.rsplit(".", 1)[0] for name in modules}
    return {name: imported(ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", known)
            for name, path in modules.items() if name.startswith("theorems.checker")}


def test_the_checker_has_modules():
    assert {"theorems.checker.jet", "theorems.checker.verify"} <= set(_checker_imports())


def test_no_checker_module_imports_the_prover_or_the_ball_backend():
    for module, targets in _checker_imports().items():
        own = {t for t in targets if t.startswith("theorems.checker")}
        prover = {t for t in targets if t in PROVER or t.startswith(tuple(f"{p}." for p in PROVER))}
        assert not prover, f"{module} imports the prover's {sorted(prover)}"
        assert targets - own <= ALLOWED, f"{module} imports {sorted(targets - own - ALLOWED)}"


def test_the_walk_would_see_a_lazy_import_of_the_prover(tmp_path):
    import ast

    tree = ast.parse("def f():\n    from theorems.arithmetic import box_jet\n    return box_jet\n")
    assert imported(tree, "theorems.checker.jet", False, {"theorems.arithmetic.box_jet", "theorems.engine"}) \
        == {"theorems.arithmetic.box_jet"}


def test_a_certificate_is_proved_with_the_provers_bounding_code_disabled(monkeypatch, tmp_path):
    from theorems.arithmetic import ball, ball_linalg, box_jet, precision
    from theorems.engine.prove import domain, evaluate, run
    from theorems import verify_proof

    statement = STATEMENTS["corollary3.frobenius.corrected"]
    data = certificate(statement.id, {"gaps": [(0.0, 3.0)], "T": (0.9, 1.1)}, slack=1e-4)
    data["boxes"] = tiling(statement, data)
    path = write(tmp_path / "proof.json", data)

    def poisoned(*args, **kwargs):
        raise AssertionError("the checker reached the prover's bounding code")
    for module, names in ((box_jet.BoxJet, ("__init__",)), (box_jet, ("on_box", "spectral_norm", "norm", "maximum")),
                          (domain, ("jet_instance", "centre_radius", "bisect")), (run, ("prove", "search_on")),
                          (evaluate, ("bound", "evaluate")),
                          (ball.Ball, ("__init__",)), (ball_linalg, ("arb_spectral_norm",)), (precision, ("working_bits", "balls", "increasing_image"))):
        for name in names:
            monkeypatch.setattr(module, name, poisoned)
    check = verify_proof(path, refine=0)
    assert check.proved, check.describe()
    with pytest.raises(AssertionError, match="bounding code"):
        box_jet.on_box([])
