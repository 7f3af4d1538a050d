"""How long a text is in words, where some of it is written in a script without spaces between words (Chinese,
Japanese, Thai): there a word is two characters on average, so "对于Docker和Podman的一点使用经验" is six words long,
not one, and a blog's name "好看的hk" two. Lengths compare a site's name with an item's title."""

from __future__ import annotations

import re

__all__ = ["word_length"]

# Han, kana and Thai: the scripts whose words are not set apart by spaces (Korean sets its words apart)
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\u0e00-\u0e7f]")
_CHARACTERS_A_WORD = 2


def word_length(text: str) -> int:
    """The words of `text` its spaces set apart, each run of an unspaced script counting one word more for every
    two of its characters after the first two."""
    return sum(
        1 + max(0, len(_UNSPACED.findall(token)) - _CHARACTERS_A_WORD) // _CHARACTERS_A_WORD for token in text.split()
    )
