"""Text windows: consecutive, of the requested length, with the tokenizer's special tokens inside."""

import pytest

from empirical.heads.text import read_text, special_ids, windows

from empirical_paths import GPT2_TOKENIZER, WAR_AND_PEACE, needs_shared

pytestmark = pytest.mark.empirical


def test_read_text_starts_at_the_first_match_and_drops_the_bom(tmp_path):
    path = tmp_path / "book.txt"
    path.write_text("\ufeffCONTENTS\n  CHAPTER I\nCHAPTER I\nIt begins.", encoding="utf-8")
    assert read_text(path).startswith("CHAPTER I\nIt begins")
    assert read_text(path, begin=None).startswith("CONTENTS")


def test_bad_lengths_are_refused(minilm, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("word " * 50)
    with pytest.raises(ValueError, match="length"):
        windows(path, tokenizer=minilm.tokenizer, length=2)  # [CLS] and [SEP] leave no room
    with pytest.raises(ValueError, match="count"):
        windows(path, tokenizer=minilm.tokenizer, length=8, count=0)
    with pytest.raises(ValueError, match="only"):
        windows(path, tokenizer=minilm.tokenizer, length=40, count=3)


@needs_shared()
def test_minilm_windows_are_consecutive_with_cls_and_sep(minilm):
    prefix, suffix = special_ids(minilm.tokenizer)
    batch = windows(WAR_AND_PEACE, tokenizer=minilm.tokenizer, length=16, count=3)
    assert batch.shape == (3, 16) and prefix == [101] and suffix == [102]
    both = windows(WAR_AND_PEACE, tokenizer=minilm.tokenizer, length=30, count=1)[0, 1:-1].tolist()
    assert batch[0, 1:-1].tolist() + batch[1, 1:-1].tolist() == both  # window 2 continues window 1
    assert "well, prince" in minilm.tokenizer.decode(batch[0])


@needs_shared(GPT2_TOKENIZER)
def test_gpt2_windows_have_no_special_tokens():
    from transformers import GPT2TokenizerFast

    tokenizer = GPT2TokenizerFast.from_pretrained(str(GPT2_TOKENIZER))
    batch = windows(WAR_AND_PEACE, tokenizer=tokenizer, length=32, count=2)
    assert special_ids(tokenizer) == ([], []) and batch.shape == (2, 32)
    assert tokenizer.decode(batch[0]).lstrip().startswith("CHAPTER I")
