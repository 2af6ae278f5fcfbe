"""The README's 'gate your own bound' example runs as written, and its wrong bound is refuted."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_user_bound_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert blocks, "the README lost its executable example"
    exec(compile(blocks[0], str(README), "exec"), {})  # its own asserts: wrong bound refuted, fixed one holds
    assert "arb ball arithmetic" in capsys.readouterr().out


def test_readme_test_command_is_what_ci_runs():
    command = re.search(r"^    (python -m pytest.*)$", README.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert command and "README.md" in (README.parent / ".ci" / "run").read_text(encoding="utf-8")
