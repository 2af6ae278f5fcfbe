"""``empirical``'s errors are ``TheoremsError`` too (``docs/errors.md``): a model that cannot be loaded is a
``ModelError`` (and still the ``RuntimeError`` it was), a bad argument an ``InvalidArgument``."""

import pytest

from empirical.heads.device import resolve
from empirical.heads.extraction import extract
from empirical.heads.loading import load_model
from theorems import InvalidArgument, InvalidArgumentType, ModelError, TheoremsError

pytestmark = pytest.mark.empirical


def test_a_missing_model_is_a_model_error(tmp_path):
    with pytest.raises(TheoremsError, match="does not exist") as caught:
        load_model(str(tmp_path / "nothere"), offline=True)
    assert isinstance(caught.value, ModelError) and isinstance(caught.value, RuntimeError)


def test_a_bad_device_is_an_invalid_argument():
    with pytest.raises(InvalidArgument, match="--device='tpu' must be 'cpu', 'cuda' or 'cuda:<index>'"):
        resolve("tpu")


def test_extracting_from_something_that_is_not_a_model_is_an_invalid_argument_type():
    with pytest.raises(InvalidArgumentType, match="loaded must be a LoadedModel"):
        extract("gpt2", [[1, 2, 3]])
