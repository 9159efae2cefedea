"""Script coverage: which key points of the speaker's script the talk covered or skipped,
and how far the delivery drifted from reading the script word for word.

Two measures, both on the transcript with fillers dropped (see :mod:`coach.analysis.fillers`):

* **Coverage**, per key point: the point's content words (stop words dropped, lightly
  stemmed, numbers folded to digits) are looked for close together in the delivery. A
  point is covered when one stretch of delivered content words about twice as long as the
  point holds at least ``threshold`` of them. Word order inside the stretch does not
  matter, so a paraphrase in other order still counts.
* **Verbatim share**: the longest common subsequence of the script's words and the
  delivered words (normalised, not stemmed), divided by the script's word count: the share
  of the script delivered word for word, in the script's order. ``drift`` is one minus it.

Key points come from the script's structure (:func:`parse_script`): Markdown bullet items
and headings when it has any, else each sentence of plain prose. The document title (a lone
first ``#`` heading) is neither a key point nor part of the prose: talks rarely read it out.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from coach.analysis.fillers import lexical_words, tag_fillers
from coach.errors import OptionsError
from coach.text import STOP_WORDS, prose_sentences, stem, tokens
from coach.transcript import Word, split_words

log = logging.getLogger(__name__)

WINDOW_FACTOR = 2.0
"""A key point is looked for in windows of this many times its content-word count of
delivered content words (stop words dropped on both sides)."""
MIN_WINDOW = 4
"""Smallest window in delivered content words, so a one- or two-word point can be said with
a word or two in between ("GitHub, and of course Gerrit")."""

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}

_DIGIT_GROUP_RE = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # "1,000" -> "1000"


@dataclass(frozen=True)
class KeyPoint:
    """One key point of the script and whether the talk covered it."""

    text: str
    """The point as written in the script, Markdown stripped."""
    covered: bool
    """True if ``score`` reached the coverage threshold."""
    score: float
    """Share in [0, 1] of the point's content words (stemmed, numbers as digits) found
    together in the best window of the delivery."""
    evidence: str | None
    """The delivered words of the best window, from its first to its last matching word
    (fillers included, as the recogniser wrote them); None if not covered."""
    start_s: float | None
    """Start in seconds of the first word of ``evidence``; None if not covered."""


@dataclass(frozen=True)
class ScriptCoverage:
    """How the delivered talk followed the speaker's script."""

    points: list[KeyPoint]
    """Every key point in script order."""
    covered: int
    """Number of covered key points."""
    skipped: int
    """Number of key points the talk did not cover."""
    verbatim_share: float
    """Share in [0, 1] of the script's words delivered in the script's order (longest
    common subsequence of normalised words, fillers dropped, over ``script_words``)."""
    drift: float
    """1 - ``verbatim_share``: how far the delivery departs from reading the script word for
    word (0 = read verbatim, 1 = nothing in common)."""
    script_words: int
    """Normalised words in the script's prose (title and Markdown syntax excluded)."""
    delivered_words: int
    """Normalised words in the delivery, fillers, cut-offs and laughter excluded."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict, floats rounded to 3 decimals."""
        return _rounded(asdict(self))


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


# --- normalisation --------------------------------------------------------------------------


def _fold_numbers(toks: list[str], ids: list[int]) -> tuple[list[str], list[int]]:
    """Spelled-out numbers as digits ("one hundred and forty" -> "140", "twenty" -> "20").

    ``ids`` follow the tokens (a word index each); a folded number keeps its first one.
    """
    out: list[str] = []
    out_ids: list[int] = []
    i = 0
    while i < len(toks):
        if toks[i] not in _UNITS:
            out.append(toks[i])
            out_ids.append(ids[i])
            i += 1
            continue
        total = current = 0
        j = i
        while j < len(toks):
            t = toks[j]
            if t in _UNITS:
                value = _UNITS[t]
                # "twenty three" adds up; "two three" is two numbers
                if current % 100 and (value >= 10 or current % 10 or current < 20):
                    break
                current += value
            elif t in _SCALES and j > i:
                scale = _SCALES[t]
                if scale == 100:
                    current = max(current, 1) * 100
                else:
                    total += max(current, 1) * scale
                    current = 0
            elif t == "and" and j > i and toks[j - 1] in _SCALES:
                if j + 1 < len(toks) and toks[j + 1] in _UNITS:
                    j += 1
                    continue
                break
            else:
                break
            j += 1
        out.append(str(total + current))
        out_ids.append(ids[i])
        i = j
    return out, out_ids


def _norm_tokens(text: str) -> list[str]:
    """Lower-case word tokens with numbers as digits ("Twenty-three, 1,000" -> ["23", "1000"])."""
    toks = tokens(_DIGIT_GROUP_RE.sub("", text))
    return _fold_numbers(toks, list(range(len(toks))))[0]


def _content(toks: list[str]) -> list[str]:
    return [stem(t) for t in toks if t not in STOP_WORDS]


# --- script parsing -------------------------------------------------------------------------

_FENCE_RE = re.compile(r"^\s{0,3}(```|~~~)")
_HR_RE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_SETEXT_RE = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_ATX_RE = re.compile(r"^\s{0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$")
_BULLET_RE = re.compile(r"^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$")
_QUOTE_RE = re.compile(r"^\s{0,3}(>\s?)+")
_REF_DEF_RE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+.*$")
_TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_COMMENT_RE = re.compile(r"<!--.*?-->", re.S)

_INLINE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"!\[[^\]]*\]\([^)]*\)"), ""),  # images are not spoken
    (re.compile(r"\[\^[^\]]*\]"), ""),  # footnote marks
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),  # [text](url)
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # [text][ref]
    (re.compile(r"<(?:https?|mailto):[^>]+>"), ""),  # autolinks
    (re.compile(r"</?[a-zA-Z][^>]*>"), ""),  # html tags
    (re.compile(r"`+([^`]*)`+"), r"\1"),  # code ticks
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # strong
    (re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])"), r"\1"),  # *em*
    (re.compile(r"(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)"), r"\1"),  # _em_
    (re.compile(r"~~(.+?)~~"), r"\1"),  # strike-through
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!>|])"), r"\1"),  # backslash escapes
    (re.compile(r"\s*\|\s*"), " "),  # table cell bars
    (re.compile(r"\s+"), " "),
]


def _strip_inline(text: str) -> str:
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    return text.strip()


def _blocks(text: str) -> list[tuple[str, int, str]]:
    """Markdown blocks as (kind, heading level or 0, raw inline text).

    kind is "heading", "bullet" or "para". Front matter, comments, fences, rules, link
    definitions and table rules are dropped; fenced code keeps its lines as prose.
    """
    text = _COMMENT_RE.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":  # YAML front matter
        for k in range(1, len(lines)):
            if lines[k].strip() in {"---", "..."}:
                lines = lines[k + 1 :]
                break
    blocks: list[tuple[str, int, str]] = []
    current: list[str] = []  # lines of the open paragraph or bullet
    kind = ""
    in_quote = False

    def close() -> None:
        nonlocal current, kind
        if current:
            blocks.append((kind, 0, " ".join(current)))
        current, kind = [], ""

    for raw in lines:
        line = _QUOTE_RE.sub("", raw)
        if not line.strip():
            close()
            continue
        quoted = line != raw
        if quoted != in_quote:  # a block quote starts or ends a block
            close()
            in_quote = quoted
        if _FENCE_RE.match(line) or _REF_DEF_RE.match(line):
            continue
        if "|" in line and _TABLE_RULE_RE.match(line):
            continue
        setext = _SETEXT_RE.match(line)
        if setext and kind == "para" and len(current) >= 1:
            title = current.pop()
            close()
            blocks.append(("heading", 1 if setext.group(1)[0] == "=" else 2, title))
            continue
        if _HR_RE.match(line):
            close()
            continue
        atx = _ATX_RE.match(line)
        if atx:
            close()
            if atx.group(2):
                blocks.append(("heading", len(atx.group(1)), atx.group(2)))
            continue
        bullet = _BULLET_RE.match(line)
        if bullet:
            close()
            kind, current = "bullet", [bullet.group(2)]
            continue
        if not current:
            kind = "para"
        current.append(line.strip())  # paragraph line or lazy continuation of a bullet
    close()
    return [(k, level, _strip_inline(t)) for k, level, t in blocks if tokens(_strip_inline(t))]


def parse_script(text: str) -> tuple[list[str], str]:
    """Key points and prose of a Markdown or plain-text script.

    Key points are the bullet items (``-``, ``*``, ``+``, ``1.``, at any depth) and headings
    when the script has any; a script of plain prose uses each sentence as a key point. The
    first heading is the document title, and is left out of both the key points and the
    prose, when it is a level-1 heading (``#`` or ``===``), opens the document and is the
    only level-1 heading (a script with several ``#`` headings uses them as sections).

    Args:
        text: the script, Markdown or plain text.

    Returns:
        (key points in script order with Markdown stripped, the whole script as plain
        text with Markdown syntax removed, one block per line).
    """
    blocks = _blocks(text)
    if blocks and blocks[0][:2] == ("heading", 1):
        if sum(1 for k, level, _ in blocks if (k, level) == ("heading", 1)) == 1:
            blocks = blocks[1:]
    prose = "\n".join(t for _, _, t in blocks)
    structured = [t for k, _, t in blocks if k in {"bullet", "heading"}]
    if structured:
        return structured, prose
    return [s for _, _, t in blocks for s in prose_sentences(t)], prose


def load_script(path: str | os.PathLike[str]) -> tuple[list[str], str]:
    """Read and parse a script file (see :func:`parse_script`).

    Args:
        path: a UTF-8 (or UTF-16 with BOM) Markdown or plain-text file.

    Returns:
        (key points, prose).

    Raises:
        OptionsError: the file is missing, a folder, unreadable, empty, binary, not UTF-8,
            or has no words besides its title.
    """
    p = Path(path)
    if not p.exists():
        raise OptionsError(f"{p}: no such script file (give --script a Markdown or .txt file)")
    if p.is_dir():
        raise OptionsError(f"{p}: is a folder, not a script file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise OptionsError(f"{p}: script not readable ({exc.strerror or exc})") from exc
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise OptionsError(f"{p}: broken UTF-16 text; save the script as UTF-8") from exc
    elif b"\x00" in data[:8192]:
        raise OptionsError(
            f"{p}: binary file, not a text script (--script takes the talk's text as "
            "Markdown or plain text)"
        )
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise OptionsError(
                f"{p}: not UTF-8 text (byte {exc.start}); save the script as UTF-8"
            ) from exc
    if not text.strip():
        raise OptionsError(f"{p}: empty script; write the talk's key points as bullets or prose")
    points, prose = parse_script(text)
    if not points and not tokens(prose):
        raise OptionsError(
            f"{p}: script has no words besides its title; add the talk's key points as bullets"
        )
    return points, prose


# --- coverage -------------------------------------------------------------------------------


def _delivered(words: list[Word]) -> tuple[list[Word], list[str], list[int]]:
    """(one-token words, normalised lexical tokens, index in those words of each token)."""
    ws = split_words(
        [replace(w, text=_DIGIT_GROUP_RE.sub("", w.text)) if "," in w.text else w for w in words]
    )
    _, filler_index = tag_fillers(ws)
    keep = {id(w) for w in lexical_words(ws, filler_index)}
    toks: list[str] = []
    ids: list[int] = []
    for i, w in enumerate(ws):
        if id(w) in keep:
            for t in tokens(w.text):
                toks.append(t)
                ids.append(i)
    toks, ids = _fold_numbers(toks, ids)
    return ws, toks, ids


def _best_window(point: list[str], content: list[str], window: int) -> tuple[int, int, int] | None:
    """Best window of ``content`` for the point's distinct stems.

    Returns (distinct stems found, first hit position, last needed hit position) of the
    window holding the most distinct stems, trimmed to end at the first occurrence of the
    last stem it needs; ties go to the tighter, then the earlier window. None if no stem
    occurs. Only the positions of the point's stems are visited, with two pointers, so the
    cost is about len(content) plus the hits times the window.
    """
    wanted = set(point)
    hits = [(pos, s) for pos, s in enumerate(content) if s in wanted]
    if not hits:
        return None
    counts: dict[str, int] = {}
    best: tuple[int, int, int] | None = None
    hi = 0
    for lo, (start, first_stem) in enumerate(hits):
        while hi < len(hits) and hits[hi][0] < start + window:
            counts[hits[hi][1]] = counts.get(hits[hi][1], 0) + 1
            hi += 1
        found = len(counts)
        if best is None or found >= best[0]:
            seen: set[str] = set()
            end = start
            for pos, s in hits[lo:hi]:
                if s not in seen:
                    seen.add(s)
                    end = pos
                    if len(seen) == found:
                        break
            if best is None or (found, start - end) > (best[0], best[1] - best[2]):
                best = (found, start, end)
        counts[first_stem] -= 1
        if not counts[first_stem]:
            del counts[first_stem]
    return best


def _lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence of two token lists.

    Dynamic programming row by row, O(len(a) * len(b)) time and O(len(b)) memory, each row
    vectorised: row[j] = max over k <= j of max(prev[k], prev[k-1] + (a_i == b_k)).
    """
    if not a or not b:
        return 0
    vocab: dict[str, int] = {}
    b_ids = np.array([vocab.setdefault(t, len(vocab)) for t in b], dtype=np.int32)
    prev = np.zeros(len(b) + 1, dtype=np.int32)
    row = np.zeros_like(prev)
    for t in a:
        x = vocab.get(t)
        if x is None:
            continue  # a word the delivery never says leaves the row as it is
        cand = np.maximum(prev[1:], prev[:-1] + (b_ids == x))
        np.maximum.accumulate(cand, out=row[1:])
        prev, row = row, prev
    return int(prev[-1])


def script_coverage(
    script_text: str, words: list[Word], *, threshold: float = 0.6
) -> ScriptCoverage:
    """Compare a delivered talk with the speaker's script.

    Args:
        script_text: the script, Markdown or plain text (see :func:`parse_script`).
        words: the delivered talk's transcript, with times in seconds; fillers (um, uh,
            you know...) are dropped before comparing.
        threshold: share in (0, 1] of a key point's content words that must occur close
            together in the delivery for the point to count as covered.

    Returns:
        Per-point coverage with evidence and time, and the verbatim share and drift.

    Raises:
        OptionsError: ``threshold`` is outside (0, 1] or the script has no words.
    """
    if not 0 < threshold <= 1:
        raise OptionsError(f"script coverage threshold must be in (0, 1], not {threshold!r}")
    points_text, prose = parse_script(script_text)
    script_toks = _norm_tokens(prose)
    if not points_text and not script_toks:
        raise OptionsError("the script has no words; give the talk's key points as bullets")

    ws, toks, ids = _delivered(words)
    content_pos = [k for k, t in enumerate(toks) if t not in STOP_WORDS]
    content = [stem(toks[k]) for k in content_pos]

    points: list[KeyPoint] = []
    for text in points_text:
        ptoks = _norm_tokens(text)
        wanted = sorted(set(_content(ptoks)))
        hay, pos = content, content_pos
        if not wanted:
            # a point of stop words only ("Why?"): look for it among all delivered words
            wanted = sorted({stem(t) for t in ptoks})
            hay, pos = [stem(t) for t in toks], list(range(len(toks)))
        window = max(MIN_WINDOW, round(WINDOW_FACTOR * len(wanted)))
        best = _best_window(wanted, hay, window)
        score = best[0] / len(wanted) if best else 0.0
        evidence: str | None = None
        start_s: float | None = None
        if best is not None and score >= threshold:
            first, last = ids[pos[best[1]]], ids[pos[best[2]]]
            evidence = " ".join(w.text.strip() for w in ws[first : last + 1]).strip(" ,;:")
            start_s = ws[first].start_s
        points.append(KeyPoint(text, evidence is not None, score, evidence, start_s))

    verbatim = _lcs_length(script_toks, toks) / len(script_toks) if script_toks else 0.0
    n_covered = sum(p.covered for p in points)
    log.debug("script coverage: %d/%d points, verbatim %.2f", n_covered, len(points), verbatim)
    return ScriptCoverage(
        points=points,
        covered=n_covered,
        skipped=len(points) - n_covered,
        verbatim_share=verbatim,
        drift=1.0 - verbatim,
        script_words=len(script_toks),
        delivered_words=len(toks),
    )
