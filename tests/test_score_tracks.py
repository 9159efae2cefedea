"""The tracks thread of `coach score` yields the CPU to the recogniser."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from coach.score import ScoreOptions, _yield_to_asr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux")
def test_yield_to_asr_lowers_only_the_calling_thread() -> None:
    seen: dict[str, int] = {}

    def work() -> None:
        _yield_to_asr()
        seen["nice"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    th = threading.Thread(target=work)
    th.start()
    th.join()
    assert seen["nice"] == 19
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before


def test_a_ten_minute_file_is_one_chunk() -> None:
    assert ScoreOptions().chunk_s >= 600
