"""Where ``../shared`` is, resolved from the repository root, and a skip marker for tests that need it."""

from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
SHARED = REPOSITORY / ".." / "shared"
WAR_AND_PEACE = SHARED / "data" / "war-and-peace" / "war-and-peace.txt"
GPT2_TOKENIZER = SHARED / "data" / "gpt2-tokenizer"


def needs_shared(path: Path = WAR_AND_PEACE):
    """Skip marker for tests that read ``../shared`` (present in development and CI only)."""
    return pytest.mark.skipif(not path.exists(), reason=f"{path} is absent: ../shared is not next to the repository "
                                                        "(only development machines and CI have it)")
