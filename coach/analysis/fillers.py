"""Filler words: filled pauses (um, uh, er, ah, hm) and discourse fillers (like, you know...).

Filled pauses come from two places: the transcript (Whisper primed to keep them, see
:mod:`coach.asr`) and the audio (voiced stretches no word covers, see
:mod:`coach.analysis.acoustic`). Discourse fillers use context rules so that "like" as a
verb or comparison and "kind of" as "a type of" are not counted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field

from coach.transcript import Word, tokens

_FILLED_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(u+h*m+|e+r+m+|h*u+m+)$"), "um"),
    (re.compile(r"^u+h+$"), "uh"),
    (re.compile(r"^e+r+h*$"), "er"),
    (re.compile(r"^a+h+$"), "ah"),
    (re.compile(r"^(h+m+|m+h*m+|h+m+h*)$"), "hm"),
]

_BE = {"is", "was", "are", "were", "be", "been", "being", "am", "it's", "that's", "he's",
       "she's", "i'm", "you're", "we're", "they're", "'s", "isn't", "wasn't"}  # fmt: skip
_LIKE_NOT_FILLER_BEFORE = _BE | {
    "i", "you", "we", "they", "people", "would", "i'd", "you'd", "we'd", "they'd", "feel",
    "feels", "felt", "look", "looks", "looked", "sound", "sounds", "sounded", "seem", "seems",
    "seemed", "just", "much", "more", "most", "something", "anything", "nothing", "things",
    "stuff", "really", "don't", "didn't", "doesn't", "not", "also", "to", "who", "what",
    "exactly", "act", "acts", "acted", "lot",
}  # fmt: skip
_DETERMINERS = {"a", "the", "this", "that", "these", "those", "what", "which", "some", "any",
                "every", "one", "same", "that's", "no", "another", "each", "different", "its",
                "my", "your", "our", "their", "his", "her", "all"}  # fmt: skip
_YOU_KNOW_LITERAL_BEFORE = {"do", "did", "don't", "didn't", "if", "would", "as", "what", "how",
                            "when", "whether", "you'd", "could", "should", "will"}  # fmt: skip
_YOU_KNOW_LITERAL_AFTER = {"that", "what", "how", "why", "where", "who", "whether", "if",
                           "about", "him", "her", "them", "it", "me", "us", "this"}  # fmt: skip
_ALWAYS = {"basically": "basically", "actually": "actually", "literally": "literally",
           "yknow": "you know", "y'know": "you know"}  # fmt: skip
_SENTENCE_STARTERS = {"so", "okay", "ok", "right", "well", "alright"}


@dataclass(frozen=True)
class FillerOptions:
    """Thresholds of filler detection."""

    min_spacing_s: float = 0.12
    """Two identical filled pauses that start closer than this (s) are one: a filled pause
    lasts at least about 0.15 s (Shriberg 1994, "Preliminaries to a theory of speech
    disfluencies"), so a run of same-time "uh uh uh" is the recogniser repeating itself."""
    pause_s: float = 0.25
    """A silence this long (s) next to "like"/"you know" marks it as set off, i.e. a filler
    (the same threshold as a pause, after Goldman-Eisler 1968)."""


@dataclass(frozen=True)
class FillerItem:
    """One filler in the clip."""

    text: str
    """Canonical form: um, uh, er, ah, hm for filled pauses; the phrase for discourse."""
    start_s: float
    """Start time in seconds."""
    end_s: float
    """End time in seconds."""
    kind: str
    """"filled_pause" or "discourse"."""
    source: str
    """"transcript" (the recogniser wrote it) or "audio" (found in the sound)."""


@dataclass
class FillerStats:
    """Filler counts of a clip."""

    count: int = 0
    """All fillers: filled pauses plus discourse fillers."""
    per_minute: float = 0.0
    """Fillers per minute of speaking time (first word to last)."""
    filled_pauses: dict[str, int] = field(default_factory=dict)
    """Filled pauses by canonical form, e.g. {"um": 2, "uh": 1}."""
    discourse: dict[str, int] = field(default_factory=dict)
    """Discourse fillers by phrase, e.g. {"you know": 1, "like": 2}."""
    items: list[FillerItem] = field(default_factory=list)
    """Every filler with its time, in time order."""

    def to_dict(self) -> dict:
        return asdict(self)


def filled_pause_form(token: str) -> str | None:
    """Canonical filled-pause form of a normalised token, or None ("uhh" -> "uh")."""
    if token.startswith("'"):  # "'er" is "her", never a filler
        return None
    for pattern, canon in _FILLED_FORMS:
        if pattern.match(token):
            return canon
    return None


def _gap_before(words: list[Word], i: int) -> float:
    return words[i].start_s - words[i - 1].end_s if i > 0 else 99.0


def _gap_after(words: list[Word], i: int) -> float:
    return words[i + 1].start_s - words[i].end_s if i + 1 < len(words) else 99.0


def _set_off(words: list[Word], i: int, j: int, pause_s: float) -> bool:
    """Words i..j are set off by punctuation or a pause on either side."""
    before = (
        i == 0 or words[i - 1].text.rstrip()[-1:] in ",.?!;:" or _gap_before(words, i) >= pause_s
    )
    after = words[j].text.rstrip()[-1:] in ",.?!;:" or _gap_after(words, j) >= pause_s
    return before or after


def _sentence_initial(words: list[Word], i: int) -> bool:
    return i == 0 or words[i - 1].ends_sentence or _gap_before(words, i) >= 1.0


def tag_fillers(
    words: list[Word], options: FillerOptions = FillerOptions()
) -> tuple[list[FillerItem], set[int]]:
    """Find the fillers a transcript contains.

    Args:
        words: the transcript, one token per word (see :func:`coach.transcript.split_words`).
        options: thresholds.

    Returns:
        (fillers in time order, indices of the words that are fillers). A repeated
        "uh" that the recogniser wrote twice at one time is one filler, but both words
        are marked as filler words.
    """
    norms = [w.norm for w in words]
    items: list[FillerItem] = []
    marked: set[int] = set()
    last_filled: dict[str, float] = {}
    i = 0
    while i < len(words):
        w, t = words[i], norms[i]
        nxt = norms[i + 1] if i + 1 < len(norms) else ""
        prev = norms[i - 1] if i > 0 else ""
        # "'er" (her) loses its apostrophe in the token: look at the written word
        elided = w.text.strip().startswith(("'", "’"))
        form = None if elided else filled_pause_form(t)
        if form is not None:
            if w.start_s - last_filled.get(form, -99.0) > options.min_spacing_s:
                items.append(FillerItem(form, w.start_s, w.end_s, "filled_pause", "transcript"))
                last_filled[form] = w.start_s
            marked.add(i)
            i += 1
            continue
        if t in _ALWAYS:
            items.append(FillerItem(_ALWAYS[t], w.start_s, w.end_s, "discourse", "transcript"))
            marked.add(i)
        elif t == "you" and nxt == "know":
            after = norms[i + 2] if i + 2 < len(norms) else ""
            literal = prev in _YOU_KNOW_LITERAL_BEFORE or (
                after in _YOU_KNOW_LITERAL_AFTER and not words[i + 1].text.rstrip().endswith(",")
            )
            if not literal:
                items.append(
                    FillerItem("you know", w.start_s, words[i + 1].end_s, "discourse", "transcript")
                )
                marked.update((i, i + 1))
                i += 2
                continue
        elif t == "i" and nxt == "mean" and prev not in {"what", "that's", "which"}:
            if _sentence_initial(words, i) or _set_off(words, i, i + 1, options.pause_s):
                items.append(
                    FillerItem("i mean", w.start_s, words[i + 1].end_s, "discourse", "transcript")
                )
                marked.update((i, i + 1))
                i += 2
                continue
        elif t in {"kind", "sort"} and nxt == "of" and prev not in _DETERMINERS:
            after = norms[i + 2] if i + 2 < len(norms) else ""
            if after not in {"thing", "things", "person", "people", "stuff"}:
                phrase = f"{t} of"
                items.append(
                    FillerItem(phrase, w.start_s, words[i + 1].end_s, "discourse", "transcript")
                )
                marked.update((i, i + 1))
                i += 2
                continue
        elif t == "like":
            # Counted only when set off by a comma or pause and not after a verb, "be" or a
            # subject (then it is a verb, a comparison or a quotative).
            if (
                prev not in _LIKE_NOT_FILLER_BEFORE
                and nxt != "to"
                and (_set_off(words, i, i, options.pause_s) or nxt.isdigit())
            ):
                items.append(FillerItem("like", w.start_s, w.end_s, "discourse", "transcript"))
                marked.add(i)
        elif t in _SENTENCE_STARTERS and _sentence_initial(words, i):
            # "So, ..." or "So we..." opens a sentence as a filler; "Okay"/"Right"/"Well" only
            # when a comma sets it off before more speech ("Okay." alone is a reply).
            more = i + 1 < len(words) and not w.ends_sentence
            comma = w.text.rstrip()[-1:] == ","
            if more and (t == "so" or comma):
                canon = "okay" if t == "ok" else t
                items.append(FillerItem(canon, w.start_s, w.end_s, "discourse", "transcript"))
                marked.add(i)
        i += 1
    return items, marked


def summarize(items: list[FillerItem], speaking_s: float) -> FillerStats:
    """Counts and rate of a list of fillers (``speaking_s``: speaking time in seconds)."""
    items = sorted(items, key=lambda it: it.start_s)
    filled = Counter(it.text for it in items if it.kind == "filled_pause")
    disc = Counter(it.text for it in items if it.kind == "discourse")
    minutes = speaking_s / 60
    return FillerStats(
        count=len(items),
        per_minute=round(len(items) / minutes, 2) if minutes > 0 else 0.0,
        filled_pauses=dict(filled.most_common()),
        discourse=dict(disc.most_common()),
        items=items,
    )


_LAUGH_RE = re.compile(r"^(ha){1,}h?$|^(he){2,}$|^heh$")


def is_laughter(word: Word) -> bool:
    """Laughter as the recogniser writes it ("Ha", "hahaha"): neither a filler nor a word."""
    toks = tokens(word.text)
    return bool(toks) and all(_LAUGH_RE.match(t) for t in toks)


def is_cutoff(word: Word) -> bool:
    """A cut-off fragment as the recogniser writes it ("mon-", "-tree")."""
    text = word.text.strip().rstrip(",.?!")
    return text.endswith("-") or text.startswith("-")


def lexical_words(words: list[Word], filler_index: set[int]) -> list[Word]:
    """Words that count as content: not fillers (by index), cut-off fragments or laughter."""
    return [
        w
        for i, w in enumerate(words)
        if i not in filler_index and not is_cutoff(w) and not is_laughter(w) and tokens(w.text)
    ]
