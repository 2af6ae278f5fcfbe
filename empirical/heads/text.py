"""Cut a text file into consecutive windows of tokens, the inputs of every algorithm.

The paper feeds consecutive stretches of Tolstoy's *War and Peace* to GPT-2. A window here is
``length`` consecutive token ids; window ``w`` starts where window ``w - 1`` ended, from token
``start`` on. When the tokenizer adds special tokens (BERT's ``[CLS] ... [SEP]``) they are part of
the window: ``length - num_special_tokens`` text tokens plus the specials, so that the model sees
the input it was trained on; GPT-2 adds none.

>>> from transformers import GPT2TokenizerFast                      # doctest: +SKIP
>>> tok = GPT2TokenizerFast.from_pretrained("../shared/data/gpt2-tokenizer")  # doctest: +SKIP
>>> windows("../shared/data/war-and-peace/war-and-peace.txt", tokenizer=tok, length=8, count=2).shape  # doctest: +SKIP
torch.Size([2, 8])
"""

from __future__ import annotations

import re
from pathlib import Path

import torch

from theorems.arithmetic.validation import check_integer
from theorems.errors import InvalidArgument, ModelRunFailed

REPOSITORY = Path(__file__).resolve().parents[2]  # empirical/heads/text.py -> the checkout
SHARED = REPOSITORY / ".." / "shared"
"""``../shared`` next to the repository (development and CI only; a user's machine has none)."""

WAR_AND_PEACE = SHARED / "data" / "war-and-peace" / "war-and-peace.txt"
GPT2_TOKENIZER = SHARED / "data" / "gpt2-tokenizer"

_CHARS_PER_TOKEN = 3.0  # English prose: about 4 characters per BPE/WordPiece token; 3 leaves margin


BODY_START = r"^CHAPTER I$"
"""Where *War and Peace*'s first chapter begins (its table of contents indents the same words)."""


def read_text(path: str | Path, *, begin: str | None = BODY_START) -> str:
    """The text of ``path`` (UTF-8, a byte-order mark removed, newlines normalised).

    ``begin`` is a regular expression (multi-line mode): the text starts at its first match, so that
    a book's front matter is skipped; when it does not match, the whole text is used.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"text={str(path)!r} is not a file")
    text = path.read_text(encoding="utf-8-sig")
    found = re.search(begin, text, flags=re.MULTILINE) if begin else None
    return text[found.start():] if found else text


_CACHE: dict[tuple, tuple[int, ...]] = {}


def _encode_prefix(path: str, tokenizer, characters: int, begin: str | None) -> tuple[int, ...]:
    # Only a prefix of the book is tokenised: a run needs far fewer than its 0.8M tokens.
    key = (path, id(tokenizer), characters, begin)
    if key not in _CACHE:
        text = read_text(path, begin=begin)[:characters]
        _CACHE.clear() if len(_CACHE) > 8 else None
        _CACHE[key] = tuple(tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"])
    return _CACHE[key]


def token_ids(path: str | Path, *, tokenizer, count: int, begin: str | None = BODY_START) -> list[int]:
    """The first ``count`` token ids of the text (without special tokens)."""
    count = check_integer(count, name="count", min_value=1)
    if tokenizer is None:
        raise InvalidArgument("tokenizer is None: the model has no tokenizer; pass --tokenizer PATH (e.g. the GPT-2 one "
                         f"at {GPT2_TOKENIZER})")
    total = len(read_text(path, begin=begin))
    characters = int(count * _CHARS_PER_TOKEN) + 1000
    while True:
        ids = _encode_prefix(str(Path(path).resolve()), tokenizer, min(characters, total), begin)
        if len(ids) >= count or characters >= total:
            break
        characters *= 2
    if len(ids) < count:
        raise InvalidArgument(f"text {str(path)!r} has only {len(ids)} tokens, {count} were asked for")
    return list(ids[:count])


def special_ids(tokenizer) -> tuple[list[int], list[int]]:
    """The ids the tokenizer puts before and after a text (``[CLS]`` / ``[SEP]`` for BERT, none for GPT-2)."""
    plain = tokenizer("a", add_special_tokens=False)["input_ids"]
    full = tokenizer("a", add_special_tokens=True)["input_ids"]
    for at in range(len(full) - len(plain) + 1):
        if full[at:at + len(plain)] == plain:
            return list(full[:at]), list(full[at + len(plain):])
    return [], []


def windows(path: str | Path, *, tokenizer, length: int, count: int = 1, start: int = 0,
            special_tokens: bool = True, begin: str | None = BODY_START) -> torch.Tensor:
    """``count`` consecutive windows of ``length`` token ids each, as a ``[count, length]`` tensor.

    With ``special_tokens`` the tokenizer's own specials (if any) are added inside each window;
    ``start`` skips that many text tokens after ``begin`` (see :func:`read_text`).
    """
    length = check_integer(length, name="length", min_value=1)
    count = check_integer(count, name="count", min_value=1)
    start = check_integer(start, name="start", min_value=0)
    prefix, suffix = special_ids(tokenizer) if special_tokens and tokenizer is not None else ([], [])
    extra = len(prefix) + len(suffix)
    body = length - extra
    if body < 1:
        raise InvalidArgument(f"length={length} leaves no room for text next to {extra} special tokens")
    ids = token_ids(path, tokenizer=tokenizer, count=start + body * count, begin=begin)[start:]
    rows = [ids[w * body:(w + 1) * body] for w in range(count)]  # loop over windows, not tokens
    rows = [prefix + row + suffix for row in rows]
    out = torch.tensor(rows, dtype=torch.long)  # [count, length]
    if out.shape[1] != length:
        raise ModelRunFailed(f"windows of length {out.shape[1]} were built, {length} asked for")
    return out
