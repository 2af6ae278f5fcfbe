"""The README's 'gate your own bound' example runs as written and prints a true counterexample to its wrong bound."""

import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[2] / "README.md"
PRINTED = re.compile(r"^\{.*\} (?P<lhs>\S+) (?P<rhs>\S+) arb ball arithmetic, \d+ bits: "
                     r"lhs − rhs ∈ \[(?P<low>\S+), (?P<high>\S+)\] > 0$", flags=re.DOTALL)


def test_readme_example_prints_a_certified_counterexample(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert blocks, "the README lost its executable example"
    names = {}
    exec(compile(blocks[0], str(README), "exec"), names)  # its own asserts: wrong bound refuted, fixed one holds
    printed = PRINTED.match(capsys.readouterr().out.strip())
    assert printed, "the example no longer prints 'instance lhs rhs method'"
    lhs, rhs, low = (float(printed[key]) for key in ("lhs", "rhs", "low"))
    assert low > 0 and lhs > rhs
    # The printed sides are those of the claim, recomputed here from the instance without the engine.
    instance = names["wrong"].instance
    weights = np.exp(instance["l"] / instance["T"]) / np.sum(np.exp(instance["l"] / instance["T"]))
    assert np.isclose(lhs, np.max(weights), rtol=1e-12)
    assert np.isclose(rhs, np.exp(instance["a"] / instance["T"]) / len(instance["l"]), rtol=1e-12)
