"""Transcript data: words with times, as every analysis stage consumes them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from coach.text import filled_pause_form, tokens

_SENTENCE_END_RE = re.compile(r"[.?!…]+[\"')\]]*$")
_PIECE_RE = re.compile(r"[a-z0-9]+(?:'[a-z]+)*(?:-[a-z0-9]+(?:'[a-z]+)*)*")
"""A lexical word in lower-cased text: tokens joined by inner hyphens ("cold-hearted")."""
_CONTINUATION_RE = re.compile(r"^-[^\W\d_]")
"""A recogniser piece that continues the word before it ("-hearted")."""
_PREFIXES = {"re", "pre", "co", "de", "un", "non", "sub", "anti", "pro", "ex", "self",
             "semi", "post", "over", "under", "out", "inter", "mid", "mis", "dis"}  # fmt: skip
"""Word-forming prefixes: "re-record" is one word, not a cut-off "re-" then "record"."""


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


def join_continuations(words: list[Word]) -> list[Word]:
    """Join a piece the recogniser wrote with a leading hyphen onto the word before it.

    tiny.en with word timestamps writes "cold-hearted" as "cold", "-hearted" (faster-whisper
    attaches the hyphen token to the piece after it). The piece is the rest of the word, not
    a cut-off fragment: the two become one Word "cold-hearted" that runs from the first's
    start to the second's end. A word that ends in a hyphen ("mon-") is a real cut-off and
    takes no continuation; nor does a word closed by punctuation ("cold," "-hearted"), and
    "-5" (a minus sign) is left alone. Pieces of one letter or a filled pause are the
    syllables of a stumble, not parts of a word ("al- al- aligner" came out as "l", "-a",
    "-a", "-liner."), so they are not joined either: they stay cut-off fragments.
    """
    out: list[Word] = []
    for w in words:
        text = w.text.strip()
        if out and _CONTINUATION_RE.match(text):
            prev = out[-1]
            head = prev.text.rstrip()
            before, after = tokens(head.rsplit("-", 1)[-1]), tokens(text.split("-")[1])
            if head[-1:].isalnum() and before and after and _joins(before[-1], after[0]):
                out[-1] = Word(
                    head + text, prev.start_s, max(prev.end_s, w.end_s),
                    min(prev.probability, w.probability),
                )  # fmt: skip
                continue
        out.append(w)
    return out


def _joins(*parts: str) -> bool:
    """Parts a hyphen may join into one word: none is one letter or a filled pause."""
    return all(len(p) > 1 and filled_pause_form(p) is None for p in parts)


def _lexical_pieces(text: str) -> list[str]:
    """Lexical words of a recogniser word: "er...um," -> ["er", "um"], "cold-hearted" one.

    A hyphen inside a word joins its parts ("cold-hearted", "one-on-one") except:

    - at a stutter, where the word opens with a part that starts the next one: "I-I" is a
      repetition ("i", "i") and "th-the" a cut-off then the word ("th-", "the"), unless
      the part is a prefix such as "re-" ("re-record");
    - next to a one-letter part or a filled pause, which stay words of their own ("o-hmm"
      is "o", "hmm"; "l-a-a-liner" is "l", "a", "a", "liner"), as they always were.
    """
    out: list[str] = []
    for piece in _PIECE_RE.findall(text.lower().replace("’", "'")):
        parts = piece.split("-")
        group: list[str] = []
        for part, after in zip(parts, [*parts[1:], ""], strict=True):
            group.append(part)
            if not after:
                break
            if (
                len(group) == 1
                and after.startswith(part)
                and (part == after or part not in _PREFIXES)
            ):
                out.append(part if part == after else part + "-")
                group = []
            elif not _joins(part, after):
                out.append("-".join(group))
                group = []
        out.append("-".join(group))
    return out


def split_words(words: list[Word]) -> list[Word]:
    """One Word per lexical word: continuations joined, multi-word pieces split.

    First a piece written with a leading hyphen is joined onto the word before it (see
    :func:`join_continuations`). Then recogniser words that hold several words ("er...um,")
    are split into one Word each; a hyphenated word ("cold-hearted") stays one (see
    :func:`_lexical_pieces`). Times are shared out in proportion to the pieces' lengths;
    the last piece keeps the original trailing punctuation so sentence ends survive.
    """
    out: list[Word] = []
    for w in join_continuations(words):
        pieces = _lexical_pieces(w.text)
        if len(pieces) <= 1:
            out.append(w)
            continue
        total = sum(len(t) for t in pieces)
        t0 = w.start_s
        trail = w.text.rstrip()[-1] if w.text.rstrip()[-1:] in ".?!," else ""
        for i, piece in enumerate(pieces):
            t1 = t0 + w.duration_s * len(piece) / total
            text = piece + (trail if i == len(pieces) - 1 else "")
            out.append(Word(text, round(t0, 3), round(t1, 3), w.probability))
            t0 = t1
    return out
