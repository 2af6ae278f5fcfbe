"""A run's options are one frozen ``RunSpec``, made the same from the command line and from keywords; a ``Setup`` is
made from it and changed by nobody; no module of ``empirical`` calls another's private names."""

import ast
import dataclasses
from pathlib import Path

import pytest

from empirical.__main__ import parser
from empirical.grids import Grids
from empirical.heads.loading import ModelRequest
from empirical.setup import Setup
from empirical.spec import RunSpec
from setups import setup_of
from theorems.errors import InvalidArgumentType

pytestmark = pytest.mark.empirical

EMPIRICAL = Path(__file__).resolve().parents[2] / "empirical"


def test_the_command_line_and_keywords_make_the_same_spec(tmp_path):
    text = tmp_path / "t.txt"
    text.write_text("some words " * 20)
    arguments = parser().parse_args(["reproduce", "--out", str(tmp_path / "o"), "--text", str(text), "--windows", "2",
                                     "--dtype", "bfloat16", "--algorithms", "1,5", "--lengths", "16,32",
                                     "--critical-tokens", "0", "--sensitivity-tokens", "7", "--workers", "3",
                                     "--backend", "numpy", "--quiet"])
    keywords = RunSpec.from_options(model="minilm", text=str(text), out=tmp_path / "o", windows=2, dtype="bfloat16",
                                    which=(1, 5), lengths=(16, 32), sensitivity_tokens=7, workers=3, backend="numpy",
                                    progress=False)
    assert RunSpec.from_args(arguments, model="minilm") == keywords
    assert keywords.grids.critical_tokens is None  # 0 on the command line: every token


@pytest.mark.parametrize("kind", [RunSpec, Grids, ModelRequest, Setup])
def test_the_run_options_and_the_setup_are_frozen(kind):
    assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen


def test_no_module_sets_an_attribute_of_a_setup(tiny_gpt2):
    setup = setup_of(tiny_gpt2, text=None, progress=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setup.row_mapper = lambda *arguments, **keywords: None
    driver = setup.with_sources(rows=print)  # another setup, made by the setup itself
    assert driver.row_mapper is print and setup.row_mapper is None and driver.spec is setup.spec


def test_an_unknown_option_is_named():
    with pytest.raises(InvalidArgumentType, match=r"unknown option\(s\) \['lenghts'\]"):
        RunSpec.from_options(model="minilm", lenghts=(32,))


def test_a_spec_is_made_of_checked_parts():
    with pytest.raises(InvalidArgumentType, match="model must be a ModelRequest"):
        RunSpec(model="minilm")


def _private_calls(path: Path) -> list[str]:
    """Calls ``x._name(...)`` on anything but ``self`` or ``cls``, and imports of ``_name`` from another module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("_") \
                and not node.func.attr.startswith("__"):
            owner = node.func.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.append(f"{path.name}:{node.lineno} .{node.func.attr}()")
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("empirical"):
            found += [f"{path.name}:{node.lineno} import {alias.name}" for alias in node.names
                      if alias.name.startswith("_")]
    return found


def test_no_module_of_empirical_calls_the_private_names_of_another():
    found = [call for path in sorted(EMPIRICAL.rglob("*.py")) for call in _private_calls(path)]
    assert found == []
