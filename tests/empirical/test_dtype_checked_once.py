"""A walk of ``reproduce``'s ``--dtype``: the one validator runs once along a whole run (command line or keywords),
a cluster's workers receive the spec without checking it again, and the default is written in one place.

The validator's calls are counted by its code object (``sys.setprofile``), so a copy imported under another name,
or a call through another module, counts as well."""

import ast
import pickle
import sys
from pathlib import Path

import pytest

from empirical import reproduce
from empirical.__main__ import main, parser
from empirical.heads.loading import DEFAULT_DTYPE, ModelRequest, check_dtype
from empirical.spec import RunSpec

pytestmark = pytest.mark.empirical

EMPIRICAL = Path(__file__).resolve().parents[2] / "empirical"
SMALL = dict(which=(5,), lengths=(8,), temperatures=(1.0,), epsilons=(1.0,))


def _validations(run) -> int:
    """How many times :func:`check_dtype` runs while ``run()`` does."""
    code, calls = check_dtype.__code__, []

    def profile(frame, event, _):
        if event == "call" and frame.f_code is code:
            calls.append(frame.f_back.f_code.co_qualname)
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return len(calls)


@pytest.mark.parametrize("dtype", [None, "bfloat16"])
def test_one_reproduce_run_validates_the_dtype_once(tiny_gpt2_dir, tmp_path, dtype):
    chosen = {} if dtype is None else {"dtype": dtype}
    count = _validations(lambda: reproduce.run(model=str(tiny_gpt2_dir), text=None, out=tmp_path, offline=True,
                                               progress=False, **chosen, **SMALL))
    assert count == 1
    assert (tmp_path / "results.json").is_file()  # the whole run happened under the count


def test_one_command_line_run_validates_the_dtype_once(tmp_path):
    text = tmp_path / "t.txt"
    text.write_text("some words of a short text " * 20)
    arguments = ["reproduce", "--quiet", "--model", "minilm", "--offline", "--text", str(text), "--out",
                 str(tmp_path / "o"), "--dtype", "bfloat16", "--algorithms", "5", "--lengths", "16",
                 "--temperatures", "1", "--epsilons", "1"]
    assert _validations(lambda: main(arguments)) == 1
    assert (tmp_path / "o" / "results.json").is_file()


def test_a_spec_sent_to_a_worker_is_not_checked_again():
    spec = RunSpec.from_options(model="minilm", dtype="float16", layers_per_block=1)
    assert _validations(lambda: pickle.loads(pickle.dumps(spec))) == 0
    assert pickle.loads(pickle.dumps(spec)) == spec


def test_a_bad_dtype_is_named_by_the_one_validator(tmp_path):
    with pytest.raises(ValueError, match="--dtype='float8' must be one of float32, bfloat16, float16"):
        reproduce.run(model="minilm", text=None, out=tmp_path, dtype="float8")


def _float32_literals() -> list[str]:
    """Every ``"float32"`` written in ``empirical/`` as a string of its own (``file:line``)."""
    found = []
    for path in sorted(EMPIRICAL.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value == "float32":
                found.append(f"{path.relative_to(EMPIRICAL)}:{node.lineno}")
    return found


def _line_of(start: str) -> int:
    text = (EMPIRICAL / "heads" / "loading.py").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(text, 1) if line.startswith(start))


def test_the_default_dtype_is_written_once():
    """Beside the table of names (``DTYPES``' key), ``"float32"`` is written in one place: ``DEFAULT_DTYPE``."""
    expected = [f"heads/loading.py:{_line_of('DTYPES = {')}", f"heads/loading.py:{_line_of('DEFAULT_DTYPE = ')}"]
    assert sorted(_float32_literals()) == sorted(expected)


def test_every_default_is_that_one():
    reproduce_arguments = parser().parse_args(["reproduce", "--out", "o"])
    bench_arguments = parser().parse_args(["bench"])
    assert reproduce_arguments.dtype == bench_arguments.dtype == DEFAULT_DTYPE
    assert ModelRequest().dtype == RunSpec.from_options(model="minilm").model.dtype == DEFAULT_DTYPE
    spec = RunSpec.from_options(model="minilm")
    assert "dtype" not in spec.settings(spec.grids)  # results.json names a dtype only when it is not the default
    assert RunSpec.from_options(model="minilm", dtype="bfloat16").settings(spec.grids)["dtype"] == "bfloat16"
