"""Transcript data: words with times, as every analysis stage consumes them."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN_RE = re.compile(r"[a-z0-9]+(?:['’][a-z]+)*")
_SENTENCE_END_RE = re.compile(r"[.?!…]+[\"')\]]*$")


@dataclass(frozen=True)
class Word:
    """One recognised word."""

    text: str
    """The word as the recogniser wrote it, punctuation included ("Montreal," "um,")."""
    start_s: float
    """Start time in seconds from the beginning of the clip."""
    end_s: float
    """End time in seconds."""
    probability: float = 1.0
    """Recogniser confidence in [0, 1]."""

    @property
    def norm(self) -> str:
        """Lower-case word without punctuation ("Montreal," -> "montreal"; "I'm" kept)."""
        return normalize(self.text)

    @property
    def ends_sentence(self) -> bool:
        """True if the recogniser closed a sentence after this word (. ? !)."""
        return bool(_SENTENCE_END_RE.search(self.text.strip()))

    @property
    def duration_s(self) -> float:
        """Length in seconds."""
        return max(0.0, self.end_s - self.start_s)


def normalize(text: str) -> str:
    """Lower-case, keep letters, digits and inner apostrophes ("Don't," -> "don't")."""
    return " ".join(tokens(text))


def tokens(text: str) -> list[str]:
    """Split text into normalised tokens: "er...um," -> ["er", "um"]."""
    return _TOKEN_RE.findall(text.lower().replace("’", "'"))


def split_words(words: list[Word]) -> list[Word]:
    """Split recogniser words that hold several tokens ("er...um,") into one Word per token.

    Times are shared out in proportion to the tokens' lengths; the last piece keeps the
    original trailing punctuation so sentence ends survive.
    """
    out: list[Word] = []
    for w in words:
        toks = tokens(w.text)
        if len(toks) <= 1:
            out.append(w)
            continue
        total = sum(len(t) for t in toks)
        t0 = w.start_s
        trail = w.text.rstrip()[-1] if w.text.rstrip()[-1:] in ".?!," else ""
        for i, tok in enumerate(toks):
            t1 = t0 + w.duration_s * len(tok) / total
            text = tok + (trail if i == len(toks) - 1 else "")
            out.append(Word(text, round(t0, 3), round(t1, 3), w.probability))
            t0 = t1
    return out
