"""``../shared`` is found next to the checkout wherever the module that names it lives (a wrong path would
silently skip every test that reads *War and Peace* or the GPT-2 tokenizer)."""
from pathlib import Path

from empirical.heads import text


def test_repository_is_the_checkout_root():
    assert (text.REPOSITORY / "pyproject.toml").is_file()
    assert (text.REPOSITORY / "empirical" / "heads" / "text.py").resolve() == Path(text.__file__).resolve()


def test_shared_is_beside_the_checkout():
    assert text.SHARED.resolve().parent == text.REPOSITORY.parent.resolve()
