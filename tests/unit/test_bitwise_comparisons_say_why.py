"""Every bitwise comparison of arrays in the tests says why bitwise equality is the claim.

Two computations of the same float by different paths (another BLAS blocking, a vectorised loop against a scalar
one, another thread count) may differ in the last bits: such tests compare within a tolerance justified by the
computation. A test that does need bitwise equality (the same computation replayed, a slice, a seed, integer counts)
says so in a comment containing ``bitwise`` on the comparison's line or the few lines above it.
"""

import ast
import pathlib

TESTS = pathlib.Path(__file__).resolve().parents[1]
BITWISE = {"equal", "array_equal", "assert_array_equal", "assert_equal"}
REACH = 4  # lines above the comparison where its reason may stand


def _bitwise_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in BITWISE:
                yield node.lineno


def _unexplained(source: str) -> list[int]:
    """The lines of ``source`` holding a bitwise comparison with no ``bitwise`` comment within reach."""
    lines = source.splitlines()
    return [line for line in sorted(set(_bitwise_calls(ast.parse(source))))
            if not any("bitwise" in text.split("#", 1)[1] for text in lines[max(0, line - 1 - REACH):line] if "#" in text)]


def test_every_bitwise_comparison_in_the_tests_says_why():
    missing = [f"{path.relative_to(TESTS.parent)}:{line}" for path in sorted(TESTS.rglob("*.py"))
               for line in _unexplained(path.read_text())]
    assert not missing, "bitwise comparisons without a '# bitwise: why' comment:\n" + "\n".join(missing)


def test_the_scan_finds_an_unexplained_comparison():
    bare = "import numpy as np\n\n\ndef test_x():\n    assert np.array_equal(a, b)\n"
    assert _unexplained(bare) == [5]
    explained = bare.replace("    assert", "    # bitwise: a seed replayed\n    assert")
    assert _unexplained(explained) == []
