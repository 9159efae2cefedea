"""Filler words: filled pauses (um, uh, er, ah, hm) and discourse fillers (like, you know...).

Filled pauses come from two places: the transcript (Whisper primed to keep them, see
:mod:`coach.asr`) and the audio (voiced stretches no word covers, see
:mod:`coach.analysis.acoustic`). Whisper's times for the transcript's filled pauses are
loose, so :func:`place_filled_pauses` moves each into the stretch of voice it belongs to.
Discourse fillers use context rules so that "like" as a verb or comparison and "kind of"
as "a type of" are not counted.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter
from dataclasses import asdict, dataclass, field
from itertools import accumulate

from coach.text import filled_pause_form
from coach.transcript import Word, tokens

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
    place: bool = True
    """Place filled pauses in the voice they belong to (:func:`place_filled_pauses`); False
    keeps Whisper's times (coach before issue 8, for comparison)."""
    place_reach_s: float = 1.5
    """A transcript filled pause is moved at most this far (s) to the voiced stretch it
    belongs to: Whisper's times for fillers were 0.5 and 1.2 s late on unseen speech
    (issue 8)."""
    min_stretch_s: float = 0.12
    """Shortest voiced stretch a filled pause is placed in, seconds: a filled pause lasts
    at least about 0.15 s (Shriberg 1994); shorter stretches are the edges of words."""
    word_edge_cost_s: float = 0.3
    """A free stretch cut from the voice of another word costs as much as moving this far
    (s) more than a whole stretch of voice: Whisper's word edges drift, so the part of a
    word's voice left uncovered may be that word's own sound (the practice talk's "um",
    said at 11.28 s and written at 11.91 s, took the uncovered start of "and" at 11.88 s)."""
    share_cost_s: float = 0.3
    """Two filled pauses placed in one stretch cost as much as moving one this far (s), so
    each takes a stretch of its own when one is near ("uh, uh, uh" with a breath between)."""
    max_filler_s: float = 1.5
    """Longest span a placed filled pause gets, seconds (as ``AcousticOptions.max_s``)."""


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


def _filled_pause_word(w: Word) -> bool:
    """The recogniser wrote a filled pause ("um,", "Uhh"; never "'er")."""
    return not w.text.strip().startswith(("'", "’")) and filled_pause_form(w.norm) is not None


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Seconds between two spans; 0 when they overlap."""
    return max(0.0, b[0] - a[1], a[0] - b[1])


def _subtract(
    spans: list[tuple[float, float]], cover: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """``spans`` less the parts ``cover`` covers (``spans`` sorted and disjoint)."""
    merged: list[list[float]] = []
    for s, e in sorted(cover):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out, j = [], 0
    for a, b in spans:
        while j < len(merged) and merged[j][1] <= a:
            j += 1
        t, k = a, j
        while k < len(merged) and merged[k][0] < b:
            if merged[k][0] > t:
                out.append((t, merged[k][0]))
            t = max(t, merged[k][1])
            k += 1
        if t < b:
            out.append((t, b))
    return out


def _trim(
    stretch: tuple[float, float], near: tuple[float, float], max_s: float
) -> tuple[float, float]:
    """At most ``max_s`` of ``stretch``, the part nearest ``near`` (only when it is longer)."""
    a, b = stretch
    if b - a <= max_s:
        return stretch
    length = min(max_s, max(near[1] - near[0], 0.25))
    start = min(max(near[0], a), b - length)
    return start, start + length


def place_filled_pauses(
    words: list[Word],
    voice: list[tuple[float, float]],
    options: FillerOptions = FillerOptions(),
) -> list[Word]:
    """Move each filled pause the recogniser wrote into the voiced stretch it belongs to.

    Whisper's word times for "um" and "uh" are loose (on unseen speech they came 0.5 s
    and 1.2 s late: over the silence after one and over the next word for the other),
    while voice activity knows where the sound is. A filled pause goes to the nearest
    stretch of voice, within ``options.place_reach_s``, that no other word covers and
    that lies between the words written before and after it. Filled pauses that take one
    stretch share it in order; a same-time repeat ("uh uh" at one time) moves as one.
    With no such stretch, a filled pause that is on voice keeps its voiced part (a word
    the recogniser stretched over it covers its sound); one on silence goes to the
    nearest voice within reach, or is dropped. So a filler is never reported over
    non-speech, and the pause it would hide stays a pause.

    Args:
        words: all recognised words, time order (edges already snapped to voice).
        voice: sorted ``(start_s, end_s)`` stretches of voice, seconds (see
            :func:`coach.analysis.pauses.speech_spans`).
        options: reach and lengths.

    Returns:
        The words in time order, filled pauses re-timed (or dropped); other words as
        they were.
    """
    fp = {i for i, w in enumerate(words) if _filled_pause_word(w)}
    if not fp:
        return list(words)
    cover = sorted((w.start_s, w.end_s) for i, w in enumerate(words) if i not in fp)
    free = [s for s in _subtract(voice, cover) if s[1] - s[0] >= options.min_stretch_s - 1e-9]
    voice_edges = {t for span in voice for t in span}
    # a free stretch cut from the voice of a word may be that word's own sound
    edge_cost = [
        0.0 if a in voice_edges and b in voice_edges else options.word_edge_cost_s for a, b in free
    ]
    groups: list[list[int]] = []  # same-time repeats of one form move together
    for i in sorted(fp):
        g = groups[-1] if groups else []
        if (
            g and g[-1] == i - 1
            and filled_pause_form(words[g[0]].norm) == filled_pause_form(words[i].norm)
            and words[i].start_s - words[g[0]].start_s <= options.min_spacing_s
        ):  # fmt: skip
            g.append(i)
        else:
            groups.append([i])
    # the other words bound each group: after the end of those before, before the next
    ends_before = list(accumulate((-1.0 if i in fp else w.end_s for i, w in enumerate(words)), max))
    starts_after = list(accumulate(
        (math.inf if i in fp else w.start_s for i, w in reversed(list(enumerate(words)))), min
    ))[::-1]  # fmt: skip
    reach = options.place_reach_s
    free_ends = [b for _, b in free]  # increasing: the stretches are disjoint
    spans = [(words[g[0]].start_s, max(words[j].end_s for j in g)) for g in groups]
    costs = []  # per group: free stretch -> seconds it would move
    for g, span in zip(groups, spans, strict=True):
        lo = ends_before[g[0]]
        hi = starts_after[g[-1] + 1] if g[-1] + 1 < len(words) else math.inf
        cost = {}
        for k in range(bisect_left(free_ends, span[0] - reach), len(free)):
            a, b = free[k]
            if a > span[1] + reach:
                break
            if a >= lo - 1e-9 and b <= hi + 1e-9 and _distance((a, b), span) <= reach:
                cost[k] = _distance((a, b), span) + edge_cost[k]
        costs.append(cost)
    placed: dict[int, tuple[float, float] | None] = {}  # first index of a group -> span
    sharing: dict[int, list[int]] = {}  # free stretch -> groups placed in it, in order
    for g, span, k in zip(groups, spans, _assign(costs, options), strict=True):
        if k is None:
            placed[g[0]] = _onto_voice(span, voice, options)
        else:
            sharing.setdefault(k, []).append(g[0])
    for k, firsts in sharing.items():
        a, b = free[k]
        step = (b - a) / len(firsts)
        for n, i in enumerate(firsts):
            part = (a + n * step, a + (n + 1) * step)
            placed[i] = _trim(part, (words[i].start_s, words[i].end_s), options.max_filler_s)
    out = [(w.start_s, i, w) for i, w in enumerate(words) if i not in fp]
    for g in groups:
        where = placed[g[0]]
        if where is not None:
            a, b = round(where[0], 3), round(where[1], 3)
            out += [(a, j, Word(words[j].text, a, b, words[j].probability)) for j in g]
    return [w for _, _, w in sorted(out, key=lambda t: t[:2])]


def _assign(costs: list[dict[int, float]], options: FillerOptions) -> list[int | None]:
    """Stretch per group (None: none), in time order, least total movement.

    Groups keep their order (a later group never takes an earlier stretch); two groups in
    one stretch cost ``options.share_cost_s`` more, so each takes a stretch of its own when
    one is near; a group left without costs more than any placement.
    """
    skip = options.place_reach_s + options.share_cost_s + 1.0
    # state: last stretch taken (-1: none) -> (total cost, path as nested pairs)
    best: dict[int, tuple[float, tuple]] = {-1: (0.0, ())}
    for cost in costs:
        if cost:  # states before every candidate are alike from here on: keep the best
            first = min(cost)
            behind = [st for st in best if st < first]
            if len(behind) > 1:
                keep = min(behind, key=lambda st: best[st][0])
                best = {st: v for st, v in best.items() if st >= first or st == keep}
        new: dict[int, tuple[float, tuple]] = {}
        for st, (total, path) in best.items():
            options_here = [(st, total + skip, (path, None))]
            options_here += [
                (k, total + d + (options.share_cost_s if k == st else 0.0), (path, k))
                for k, d in cost.items()
                if k >= st
            ]
            for k, t, p in options_here:
                if k not in new or t < new[k][0]:
                    new[k] = (t, p)
        best = new
    path = min(best.values(), key=lambda v: v[0])[1]
    out: list[int | None] = []
    while path:
        path, k = path
        out.append(k)
    return out[::-1]


def _onto_voice(
    span: tuple[float, float], voice: list[tuple[float, float]], options: FillerOptions
) -> tuple[float, float] | None:
    """A filled pause with no free stretch: its voiced part, else the nearest edge of voice
    within reach, else None."""
    on = [(max(a, span[0]), min(b, span[1])) for a, b in voice if a < span[1] and span[0] < b]
    if on:
        return max(on, key=lambda s: s[1] - s[0])
    near = [s for s in voice if _distance(s, span) <= options.place_reach_s]
    if not near:
        return None
    a, b = min(near, key=lambda s: _distance(s, span))
    length = min(b - a, max(span[1] - span[0], options.min_stretch_s))
    return (a, a + length) if a >= span[1] else (b - length, b)


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


def is_lexical(w: Word) -> bool:
    """Whether a word that is no filler counts as content: not a cut-off fragment or
    laughter, and not empty."""
    return not is_cutoff(w) and not is_laughter(w) and bool(tokens(w.text))


def lexical_words(words: list[Word], filler_index: set[int]) -> list[Word]:
    """Words that count as content: not fillers (by index), cut-off fragments or laughter."""
    return [w for i, w in enumerate(words) if i not in filler_index and is_lexical(w)]
