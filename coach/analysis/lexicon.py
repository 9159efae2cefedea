"""Whether a word is an English word at all: the recogniser sometimes writes one that is
not ("re-prined" for "re-primed", "nightflow" for "night flow"), sure of itself, and a
question that quotes it back is garbled.

The word list is pyspellchecker's English frequency dictionary (about 160,000 words,
American spelling; British spellings are found through their American form), loaded
once, lazily. Names (capitalised), numbers, contractions and words under four letters are
never called unknown.
"""

from __future__ import annotations

import functools
import logging
import re

logger = logging.getLogger(__name__)

_BRITISH = (("our", "or"), ("tre", "ter"), ("re", "er"), ("ise", "ize"), ("yse", "yze"),
            ("ll", "l"), ("ogue", "og"), ("ae", "e"), ("oe", "e"), ("tyre", "tire"),
            ("gramme", "gram"), ("ence", "ense"), ("kerb", "curb"), ("ould", "old"),
            ("sceptic", "skeptic"), ("cheque", "check"), ("llery", "lry"), ("draught", "draft"),
            ("pyjama", "pajama"), ("aeroplane", "airplane"), ("aluminium", "aluminum"),
            ("manoeuvre", "maneuver"))  # fmt: skip
"""British spellings and their American form, as substitutions to try."""


@functools.lru_cache(maxsize=1)
def _dictionary() -> frozenset[str] | None:
    try:
        from spellchecker import SpellChecker
    except ImportError:
        logger.warning("pyspellchecker is not installed: words are not checked against a list")
        return None
    return frozenset(SpellChecker(distance=1).word_frequency.dictionary)


def load() -> None:
    """Read the word list now (about 0.25 s), not at the first quote."""
    _dictionary()


@functools.lru_cache(maxsize=8192)
def is_known(word: str) -> bool:
    """Whether a lower-case word (letters only) is in the English word list, in American
    or British spelling; True when no word list is installed."""
    words = _dictionary()
    if words is None or word in words:
        return True
    return any(a in word and word.replace(a, b) in words for a, b in _BRITISH)


def unknown_words(text: str, *, min_letters: int = 4) -> list[str]:
    """The words of ``text`` that are no English word ("prined" of "re-prined"): lower
    case words of ``min_letters`` letters or more, each part of a hyphenated word apart."""
    out = []
    for raw in text.split():
        word = raw.strip(',.;:!?"()[]')
        if not word or word[0].isupper() or re.search(r"['’\d]", word):
            continue
        out += [
            part for part in word.split("-")
            if len(part) >= min_letters and part.isalpha() and not is_known(part.lower())
        ]  # fmt: skip
    return out
