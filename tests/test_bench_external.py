"""bench/external.py's parsing: TextGrids in both text formats, transcripts and the truth
derived from them (no network, no models)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import external  # noqa: E402

SHORT = """File type = "ooTextFile"
Object class = "TextGrid"

0
2.5
<exists>
2
"IntervalTier"
"words"
0
2.5
4
0
0.4
""
0.4
0.9
"uh"
0.9
0.91
"um"
0.91
2.5
"say ""hi"" [laughter]"
"TextTier"
"events"
0
2.5
1
1.2
"click"
"""

LONG = """File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 1.5
tiers? <exists>
size = 1
item []:
    item [1]:
        class = "IntervalTier"
        name = "words"
        xmin = 0
        xmax = 1.5
        intervals: size = 2
        intervals [1]:
            xmin = 0
            xmax = 1.05
            text = "montreal"
        intervals [2]:
            xmin = 1.05
            xmax = 1.5
            text = ""
"""


def test_short_textgrid_with_a_point_tier_and_quotes() -> None:
    tiers = external.parse_textgrid(SHORT)
    assert list(tiers) == ["words"]  # point tiers are skipped
    assert tiers["words"] == [(0.0, 0.4, ""), (0.4, 0.9, "uh"), (0.9, 0.91, "um"),
                              (0.91, 2.5, 'say "hi" [laughter]')]  # fmt: skip


def test_long_textgrid() -> None:
    assert external.parse_textgrid(LONG) == {"words": [(0.0, 1.05, "montreal"), (1.05, 1.5, "")]}


def test_not_a_textgrid() -> None:
    with pytest.raises(ValueError, match="TextGrid"):
        external.parse_textgrid("hello")
    with pytest.raises(ValueError, match="malformed"):
        external.parse_textgrid(SHORT[: SHORT.index('"uh"')])


def test_truth_from_transcript_and_alignment() -> None:
    lab = "uh so this is the [adif] corpus um you know yknow mon- <VOCNOISE> the uh uh end\n"
    words = [(0.0, 0.3, ""), (0.3, 0.6, "uh"), (0.6, 0.8, "so"), (0.8, 1.0, "<VOCNOISE>"),
             (1.0, 1.5, "um"), (1.5, 1.51, "uh"), (1.6, 2.0, "uh"), (2.0, 2.4, "end")]  # fmt: skip
    t = external.derive_truth(lab, words, 2.4)
    assert t["transcript"] == "uh so this is the corpus um you know yknow mon- the uh uh end"
    assert t["filled_pauses"] == {"uh": 3, "um": 1} and t["filled_pause_count"] == 4
    # lexical words: not fillers, not yknow, not cut-offs, not annotations
    assert t["words"] == 9
    # the 10 ms "uh" has no time; annotations have none either
    assert [w["word"] for w in t["word_times"]] == ["uh", "so", "um", "uh", "end"]
    assert "uh at 1.50-1.51 s" in t["notes"]
    assert "'uh': 3 in the transcript, 2 timed" in t["notes"]


def test_committed_truth_matches_the_manifest() -> None:
    manifest = json.loads(external.MANIFEST.read_text())
    truth = json.loads(external.TRUTH.read_text())
    clips = {c for s in manifest["sources"] for c in s["clips"]}
    assert set(truth) == clips
    for t in truth.values():
        assert t["filled_pause_count"] == sum(t["filled_pauses"].values()) > 0
        starts = [w["start"] for w in t["word_times"]]
        assert starts == sorted(starts)


def test_a_second_alignment_scores_the_fillers_found_in_time() -> None:
    import second_alignment

    words = second_alignment.word_times(SHORT)
    assert [w["word"] for w in words] == ["uh", "um", 'say "hi" [laughter]']
    # the "um" aligned 10 ms long has no time; "uh" found 0.2 s late is a hit, and an
    # "um" placed on the last words is false
    out = second_alignment.score([["uh", 0.6, 0.9], ["um", 1.5, 1.9]], words)
    assert (out["tp"], out["fp"], out["fn"]) == (1, 1, 0)
    assert out["truth"] == [["uh", 0.4, 0.9]]
    assert second_alignment.score([], words)["fn"] == 1
