"""Setup's ``layers_per_block`` and ``workers`` are checked by one helper each: the class and the command line
give the same message (only the option's name differs)."""

import pytest

from empirical.heads.rows import check_workers
from empirical.heads.stream import check_layers_per_block
from empirical.setup import Setup
from theorems.errors import InvalidArgument

pytestmark = pytest.mark.empirical

LAYERS_MESSAGE = "layers_per_block=0 must be a positive integer (or None: as many as fit STREAM_BYTES)"
WORKERS_MESSAGE = "workers=0 must be a positive integer (default: the cores available)"


@pytest.mark.parametrize("keyword, message", [("layers_per_block", LAYERS_MESSAGE), ("workers", WORKERS_MESSAGE)])
def test_setup_names_the_option_with_the_helpers_message(tiny_gpt2, keyword, message):
    with pytest.raises(InvalidArgument) as raised:
        Setup(tiny_gpt2, text=None, **{keyword: 0})
    assert str(raised.value) == message


@pytest.mark.parametrize("helper, option, message", [(check_layers_per_block, "--layers-per-block", LAYERS_MESSAGE),
                                                     (check_workers, "--workers", WORKERS_MESSAGE)])
def test_the_command_line_gets_the_same_message_under_the_flags_name(helper, option, message):
    # reproduce calls these helpers with the flag's name before the model loads (test_reproduce_bad_input.py)
    with pytest.raises(InvalidArgument) as raised:
        helper(0, name=option)
    assert str(raised.value) == option + message[message.index("="):]
