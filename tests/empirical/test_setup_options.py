"""A run's ``layers_per_block`` and ``workers`` are checked by one helper each, once, in the spec: a setup made from
keywords and the command line give the same message, naming the flag."""

import pytest

from empirical.__main__ import main
from empirical.heads.rows import check_workers
from empirical.heads.stream import check_layers_per_block
from setups import setup_of
from theorems.errors import InvalidArgument

pytestmark = pytest.mark.empirical

LAYERS_MESSAGE = "--layers-per-block=0 must be a positive integer (or None: as many as fit STREAM_BYTES)"
WORKERS_MESSAGE = "--workers=0 must be a positive integer (default: the cores available)"


@pytest.mark.parametrize("keyword, message", [("layers_per_block", LAYERS_MESSAGE), ("workers", WORKERS_MESSAGE)])
def test_a_setup_names_the_flag_with_the_helpers_message(tiny_gpt2, keyword, message):
    with pytest.raises(InvalidArgument) as raised:
        setup_of(tiny_gpt2, text=None, **{keyword: 0})
    assert str(raised.value) == message


@pytest.mark.parametrize("flag, message", [("--layers-per-block", LAYERS_MESSAGE), ("--workers", WORKERS_MESSAGE)])
def test_the_command_line_gets_the_same_message(tmp_path, capsys, flag, message):
    text = tmp_path / "t.txt"
    text.write_text("some words " * 50)
    code = main(["reproduce", "--quiet", "--model", "minilm", "--text", str(text), "--out", str(tmp_path / "o"),
                 flag, "0"])
    assert code == 2 and capsys.readouterr().err.strip() == f"error: {message}"


@pytest.mark.parametrize("helper, message", [(check_layers_per_block, LAYERS_MESSAGE), (check_workers, WORKERS_MESSAGE)])
def test_the_message_is_the_helpers(helper, message):
    flag = message[:message.index("=")]
    with pytest.raises(InvalidArgument) as raised:
        helper(0, name=flag)
    assert str(raised.value) == message
