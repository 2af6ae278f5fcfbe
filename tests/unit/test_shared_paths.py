"""``../shared`` is found next to the checkout wherever the module that names it lives (a wrong path would
silently skip every test that reads *War and Peace* or the GPT-2 tokenizer)."""
from pathlib import Path

import pytest

from empirical.heads import text


def test_repository_is_the_checkout_root():
    assert (text.REPOSITORY / "pyproject.toml").is_file()
    assert (text.REPOSITORY / "empirical" / "heads" / "text.py").resolve() == Path(text.__file__).resolve()


def test_shared_is_beside_the_checkout():
    # ``../shared`` may be a symbolic link, so compare the unresolved parent
    assert text.SHARED.parent.resolve() == text.REPOSITORY.parent.resolve()
    assert text.SHARED.name == "shared"


@pytest.mark.skipif(not (text.REPOSITORY.parent / "shared").is_dir(), reason="no ../shared beside the checkout")
def test_shared_data_is_found():
    assert text.WAR_AND_PEACE.is_file()
    assert (text.GPT2_TOKENIZER / "vocab.json").is_file()
