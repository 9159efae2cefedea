"""How likely a grounded question is to be one a thoughtful listener would ask.

A grounded question quotes a clause of the talk and asks a question frame about it ("You
said the wait dropped to six hours. How was that measured?", :mod:`coach.analysis.asking`).
Whether the pair works depends on things a rule does not see well: some frames suit most
claims they fit, others rarely; long clauses are more often cut or misheard; a closing
line is no claim. So every (clause, frame) pair gets a probability from a logistic model
over a few plain features (:func:`question_features`), whose weights were fitted to blind
reviewers' verdicts on earlier questions (``bench/train_ranker.py``; the figures and the
rounds it learned from are in ``question_ranker.json`` beside this module). The audience
asks its likeliest questions first, and stops when none is likely enough.

Pure and cheap: a dot product over a dozen features, no model.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from coach.text import STOP_WORDS

RANKER_FILE = Path(__file__).with_name("question_ranker.json")
"""The fitted weights (written by ``bench/train_ranker.py``)."""

_FIRST_WORDS = frozenset(
    "you you're you'd you've your the it that we they if so".split()
)  # fmt: skip
"""First words of a quoted clause the model tells apart; any other is "other"."""


def clause_position(index: int, sentences: int) -> float:
    """Where a sentence sits in the talk, 0.0 (first) to 1.0 (last)."""
    return index / max(1, sentences - 1)


def question_features(
    clause: str, frame: str, kind: str, facets: frozenset[str] | set[str], *,
    index: int, sentences: int,
) -> dict[str, float]:  # fmt: skip
    """The features of one grounded question (pure).

    Args:
        clause: the quoted clause, as said back ("you cut the wait to six hours").
        frame: the question asked about it ("How was that measured?").
        kind: the frame's kind of question (evidence, cost, ...; "" when unknown).
        facets: the clause's facets (:func:`coach.analysis.asking.facets`).
        index: the claim's sentence number in the talk (0-based).
        sentences: how many sentences the talk has.
    """
    words = clause.lower().split()
    first = words[0] if words else ""
    last = re.sub(r"[^a-z']", "", words[-1]) if words else ""
    out: dict[str, float] = {
        f"frame={frame}": 1.0,
        f"first={first if first in _FIRST_WORDS else 'other'}": 1.0,
        "words/10": len(words) / 10,
        "(words/10)^2": (len(words) / 10) ** 2,
        "ends_on_stop_word": float(last in STOP_WORDS),
        "commas": float(clause.count(",")),
        "position": clause_position(index, sentences),
        "first_two_sentences": float(index < 2),
        "last_two_sentences": float(index >= sentences - 2),
    }
    if kind:
        out[f"kind={kind}"] = 1.0
    for facet in facets:
        out[f"facet={facet}"] = 1.0
    return out


@dataclass(frozen=True)
class QuestionRanker:
    """A logistic model of "a blind reviewer would accept this question"."""

    weights: dict[str, float]
    intercept: float
    ask_above: float = 0.0
    """After the first question, the audience asks only questions at least this likely."""
    about: dict[str, object] = field(default_factory=dict)
    """What it was fitted on and how it scored (rows, rounds, date, commit, figures)."""

    @classmethod
    def load(cls, path: Path = RANKER_FILE) -> QuestionRanker:
        """The ranker fitted by ``bench/train_ranker.py`` (a missing or broken file gives
        a ranker that scores every question alike, so the frames' own order holds)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(
                {str(k): float(v) for k, v in data["weights"].items()},
                float(data["intercept"]),
                float(data.get("ask_above", 0.0)),
                dict(data.get("about", {})),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return cls({}, 0.0)

    def probability(self, features: dict[str, float]) -> float:
        """P(acceptable) for one question's features."""
        z = self.intercept + sum(self.weights.get(k, 0.0) * v for k, v in features.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@functools.cache
def default_ranker() -> QuestionRanker:
    """The shipped ranker, read once."""
    return QuestionRanker.load()
