"""bench/accuracy.py's event scoring: fillers as events in order and in time, fillers over
silence (no models, no eval clips)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import accuracy  # noqa: E402


def test_wrong_filler_and_missed_one_do_not_cancel() -> None:
    truth = accuracy.truth_sequence("montreal uh forced aligner")
    # the right count, the wrong place: one false filler and one missed, no hit
    found = accuracy.found_sequence(
        [("Montreal", 0.0), ("forced", 1.0), ("aligner", 1.5)], [("uh", 1.2, 1.4)]
    )
    assert found == ["montreal", "forced", "<uh>", "aligner"]
    assert accuracy.match_in_order(truth, found) == (0, 1, 1)


def test_in_order_hits_need_the_same_kind() -> None:
    truth = accuracy.truth_sequence("but um montreal but um but montreal forced aligner")
    found = ["but", "<um>", "<uh/um>", "montreal", "but", "<um>", "montreal", "forced", "liner"]
    assert accuracy.match_in_order(truth, found) == (2, 1, 0)
    assert accuracy.match_in_order(["<uh>"], ["<um>"]) == (0, 1, 1)
    assert accuracy.match_in_order(["<um>"], ["<uh/um>"]) == (1, 0, 0)
    # "'er" is "her", a word, not a filler
    assert accuracy.truth_sequence("i hardly know 'er") == ["i", "hardly", "know", "er"]


def test_timed_hits_within_0_3_s_and_untimed_set_aside() -> None:
    truth = [("um", 8.02, 8.57), ("um", 22.9, 23.53)]
    found = [("um", 8.2, 8.5), ("um", 23.5, 23.9), ("uh/um", 18.9, 19.3)]
    res = accuracy.match_in_time(truth, found, {"uh": 1})
    assert (res["tp"], res["fp"], res["fn"], res["untimed"]) == (1, 1, 1, 1)
    assert res["precision"] == 0.5 and res["recall"] == 0.5


def test_fillers_over_silence() -> None:
    voiced = np.array([True] * 10 + [False] * 10)  # 30 ms frames: voice to 0.3 s
    fillers = [("um", 0.0, 0.25), ("uh", 0.25, 0.5), ("um", 0.4, 0.55)]
    assert accuracy.over_silence(fillers, voiced, 0.03) == 2
    wt = [{"word": "a", "start": 0.0, "end": 0.5}, {"word": "b", "start": 1.0, "end": 1.4}]
    assert accuracy.over_truth_silence([("um", 0.6, 0.9), ("um", 0.3, 0.6)], wt) == 1
