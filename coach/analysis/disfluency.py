"""Repetitions, restarts and hedges in the transcript."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from coach.text import HEDGES
from coach.transcript import Word

_GRAMMATICAL_DOUBLES = {"that", "had", "is", "do", "very", "bye", "no", "yeah", "ha", "so",
                        "really", "knock", "well"}  # fmt: skip


@dataclass(frozen=True)
class RepetitionItem:
    """A repeated word or a restart."""

    text: str
    """The repeated word(s)."""
    start_s: float
    """Start of the first occurrence, seconds."""
    end_s: float
    """End of the repeat, seconds."""
    kind: str
    """"repetition" ("the the"), or "restart" (a cut-off fragment then the word again)."""


@dataclass
class RepetitionStats:
    """Repetitions and restarts of a clip."""

    count: int = 0
    """Number of repetitions and restarts."""
    per_minute: float = 0.0
    """Per minute of speaking time."""
    items: list[RepetitionItem] = field(default_factory=list)
    """Each one with its time."""

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class HedgeItem:
    """One hedge."""

    text: str
    """The hedge phrase."""
    start_s: float
    """Start, seconds."""
    end_s: float
    """End, seconds."""


@dataclass
class HedgeStats:
    """Hedges and weak words of a clip."""

    count: int = 0
    """Number of hedges."""
    per_minute: float = 0.0
    """Per minute of speaking time."""
    by_phrase: dict[str, int] = field(default_factory=dict)
    """Count per hedge phrase."""
    items: list[HedgeItem] = field(default_factory=list)
    """Each one with its time."""

    def to_dict(self) -> dict:
        return asdict(self)


def repetitions(
    words: list[Word], filler_index: set[int], *, speaking_s: float, max_gap_s: float = 2.0
) -> RepetitionStats:
    """Find repeated words ("the the", "but um but") and restarts ("mon- montreal").

    Fillers between the two occurrences are skipped over; a repeat more than ``max_gap_s``
    seconds after the first is not counted (it is emphasis or a list, not a stumble).
    """
    items: list[RepetitionItem] = []
    content = [(i, w) for i, w in enumerate(words) if i not in filler_index]
    prev_norm, prev_word = None, None
    for _i, w in content:
        norm = w.norm.strip("-")
        text = w.text.strip().rstrip(",.?!")
        if prev_word is not None and prev_norm and norm:
            gap = w.start_s - prev_word.end_s
            cut = prev_word.text.strip().rstrip(",.?!").endswith("-") or text.startswith("-")
            if gap <= max_gap_s:
                if cut and (norm.startswith(prev_norm) or prev_norm.startswith(norm)):
                    items.append(RepetitionItem(norm, prev_word.start_s, w.end_s, "restart"))
                elif norm == prev_norm and norm not in _GRAMMATICAL_DOUBLES:
                    items.append(RepetitionItem(norm, prev_word.start_s, w.end_s, "repetition"))
        prev_norm, prev_word = norm, w
    minutes = speaking_s / 60
    return RepetitionStats(
        count=len(items),
        per_minute=round(len(items) / minutes, 2) if minutes > 0 else 0.0,
        items=items,
    )


def hedges(words: list[Word], *, speaking_s: float) -> HedgeStats:
    """Find hedges and weak words ("I think", "maybe", "just", "sort of", "I guess")."""
    norms = [w.norm for w in words]
    items: list[HedgeItem] = []
    i = 0
    by_len = sorted(HEDGES.items(), key=lambda kv: -len(kv[1]))
    while i < len(norms):
        for phrase, toks in by_len:
            k = len(toks)
            if tuple(norms[i : i + k]) == toks:
                if phrase in {"kind of", "sort of"} and i > 0 and norms[i - 1] in {
                    "a", "the", "this", "that", "what", "some", "any", "one", "every"
                }:  # fmt: skip
                    continue
                items.append(HedgeItem(phrase, words[i].start_s, words[i + k - 1].end_s))
                i += k - 1
                break
        i += 1
    minutes = speaking_s / 60
    return HedgeStats(
        count=len(items),
        per_minute=round(len(items) / minutes, 2) if minutes > 0 else 0.0,
        by_phrase=dict(Counter(it.text for it in items).most_common()),
        items=items,
    )
