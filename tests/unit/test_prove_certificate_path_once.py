"""``prove``'s ``certificate`` path is validated once, before any work: neither the re-check of the proof nor the
reduction's own check (a temporary file) validates it again."""

import pytest

from theorems import STATEMENTS
from theorems.engine.prove import certificate, prove

ROW = STATEMENTS["corollary3.row.corrected"]


@pytest.mark.parametrize("domain", [{"gaps": [(0.0, 10.0)], "T": 1.0},  # T fixed: the search with the certificate
                                    {"gaps": [(0.0, 10.0)], "T": (0.5, 2.0)}],  # T on an interval: the reduction's
                         ids=["T fixed", "through the reduction"])
def test_the_path_is_validated_once(tmp_path, monkeypatch, domain):
    validated = []
    check = certificate.check_output_path

    def counted(path, **kwargs):
        validated.append(path)
        return check(path, **kwargs)

    monkeypatch.setattr(certificate, "check_output_path", counted)
    path = tmp_path / "proof.json"
    proof = prove(ROW, domain, max_seconds=None, max_boxes=2000, certificate=path)
    assert proof.status == "proved" and proof.checker == "proved" and path.exists(), proof.describe()
    assert validated == [path]
