"""Batch scoring on Ray (issue 11), list files and resumable output.

The Ray tests start one local Ray instance (2 CPUs, no dashboard, a small object store) for
the module and check that a Ray run gives the same JSON per clip as a local run on the
fixtures, and that a worker killed mid-run loses no clip.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from coach.asr import AsrOptions
from coach.batch import (
    RowWriter,
    read_list,
    resume_format,
    score_many,
    still_to_score,
    written_files,
)
from coach.cli import main
from coach.cluster import (
    RAY_MISSING,
    ClipScorer,
    RayOptions,
    RayScorer,
    import_ray,
    local_model,
    pack_model,
    unpack_model,
)
from coach.errors import ModelError, OptionsError
from coach.render.json import clip_object
from coach.report import HEADLINE_COLUMNS, ClipReport
from coach.score import ScoreOptions

FIXTURES = Path(__file__).resolve().parent.parent / "audio_fixtures"
CLIPS = [
    "clean_sentence.wav", "empty.wav", "stereo_44k.flac", "practice_short.mp3", "noise.wav",
    "clean_sentence.ogg", "not_audio.wav", "truncated.wav",
]  # fmt: skip
"""Speech in four formats, silence-like noise and three bad files."""


def _same(report: ClipReport) -> dict:
    """The clip's JSON without its compute times (the only field that may differ)."""
    d = clip_object(report)
    d.pop("timings_s")
    return d


# --- list files, resumable output: no models, no Ray ----------------------------------------


def test_read_list(tmp_path: Path) -> None:
    lst = tmp_path / "clips.txt"
    lst.write_text(
        "# course, week 1\n\nclips/a.wav\n  /data/b.flac  \nfile:///data/c%20d.wav\n"
        "https://example.org/e.mp3\n"
    )
    assert read_list(lst) == [
        str(tmp_path / "clips/a.wav"), "/data/b.flac", "/data/c d.wav",
        "https://example.org/e.mp3",
    ]  # fmt: skip
    with pytest.raises(OptionsError, match="cannot read the list file"):
        read_list(tmp_path / "missing.txt")


def test_resume_jsonl_drops_a_cut_off_row(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    with RowWriter(out, "json") as w:
        w.write(ClipReport(file="a.wav", error="x"))
        w.write(ClipReport(file=str(tmp_path / "b.wav"), duration_s=1.5))
    with out.open("a") as f:
        f.write('{"schema":1,"file":"c.wa')  # a run killed mid-row
    written = written_files(out)
    assert written == {os.path.abspath("a.wav"), str(tmp_path / "b.wav")}
    assert out.read_text().count("\n") == 2 and out.read_text().endswith("}\n")
    todo = still_to_score(["a.wav", "c.wav", str(tmp_path / "b.wav"), "c.wav"], written)
    assert todo == ["c.wav"]
    assert resume_format(out) == "json" and resume_format(Path("x.CSV")) == "csv"
    out.write_text('{"schema":1}\n')
    with pytest.raises(OptionsError, match="not a JSON line"):
        written_files(out)


def test_resume_csv_appends_rows_under_one_header(tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    for name in ("a.wav", "b.wav"):
        with RowWriter(out, "csv") as w:
            w.write(ClipReport(file=name, error="bad, with a comma"))
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [r["file"] for r in rows] == ["a.wav", "b.wav"]
    assert rows[0]["error"] == "bad, with a comma"
    assert list(rows[0]) == HEADLINE_COLUMNS
    assert written_files(out) == {os.path.abspath("a.wav"), os.path.abspath("b.wav")}
    out.write_text("name,size\nx,1\n")
    with pytest.raises(OptionsError, match="not a coach CSV"):
        written_files(out)


def test_cli_resume_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wav = str(FIXTURES / "empty.wav")
    assert main(["score", wav, "--resume", str(tmp_path / "o.jsonl"), "-f", "csv"]) == 2
    assert "--resume writes JSON Lines" in capsys.readouterr().err
    assert main(["score", wav, "--resume", str(tmp_path / "o.jsonl"), "-o", "x.json"]) == 2
    assert "leave out -o" in capsys.readouterr().err
    assert main(["score"]) == 2
    assert "--list FILE" in capsys.readouterr().err
    # everything already written: nothing is loaded, the file is left as it is
    out = tmp_path / "done.jsonl"
    out.write_text(json.dumps({"file": wav}) + "\n")
    assert main(["score", wav, "--resume", str(out), "--no-history"]) == 0
    assert out.read_text() == json.dumps({"file": wav}) + "\n"


def test_ray_missing_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    with pytest.raises(OptionsError) as exc:
        import_ray()
    assert str(exc.value) == RAY_MISSING
    assert main(["score", str(FIXTURES / "clean_sentence.wav"), "--ray", "--no-history"]) == 2
    err = capsys.readouterr().err
    assert err == f"coach: {RAY_MISSING}\n"


def test_models_reach_a_node_without_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "model.bin").write_bytes(b"weights")
    (folder / "config.json").write_text("{}")
    assert local_model(str(folder), None) == str(folder)  # readable here: used in place
    files = pack_model(folder)
    gone = str(tmp_path / "elsewhere" / "tiny")  # the head's path, absent on this node
    with pytest.raises(ModelError, match="not readable on this Ray node"):
        local_model(gone, None)
    cache = tmp_path / "cache"
    first = unpack_model(files, cache)
    assert unpack_model(files, cache) == first  # a second worker reuses the copy
    assert (first / "model.bin").read_bytes() == b"weights"
    assert [p.name for p in cache.iterdir()] == [first.name]  # no half-written folders


# --- Ray with the real models ----------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_local():  # type: ignore[no-untyped-def]
    ray = pytest.importorskip("ray", reason="pip install 'coach[ray]'")
    ray.init(
        num_cpus=2, include_dashboard=False, object_store_memory=128 * 1024 * 1024,
        log_to_driver=False, logging_level="warning", _system_config={"worker_niceness": 0},
    )  # fmt: skip
    yield ray
    ray.shutdown()


OPTIONS = ScoreOptions(asr=AsrOptions(cpu_threads=1))
"""One ASR thread, as each Ray worker and each of `--jobs 2` on 2 cores use."""


@pytest.mark.models
def test_ray_gives_the_same_json_as_a_local_run(ray_local) -> None:  # type: ignore[no-untyped-def]
    paths = [str(FIXTURES / n) for n in CLIPS]
    local = list(score_many(paths, OPTIONS))
    seen: list[str] = []
    with RayScorer(OPTIONS, RayOptions()) as scorer:
        assert scorer.workers == 2 and len(set(scorer.pids)) == 2
        assert os.getpid() not in scorer.pids
        remote = list(scorer.score(paths, on_done=lambda r: seen.append(r.file)))
        peaks = scorer.worker_peak_mb()
    assert max(peaks) < 1500, peaks  # the models once per worker, not once per clip
    assert [r.file for r in remote] == paths  # in input order
    assert sorted(seen) == sorted(paths)
    for a, b in zip(local, remote, strict=True):
        assert _same(b) == _same(a), a.file
    assert sum(r.ok for r in remote) == 5 and remote[0].tracks is None
    assert "empty file" in (remote[1].error or "")


@pytest.mark.models
def test_a_killed_worker_loses_no_clip(ray_local) -> None:  # type: ignore[no-untyped-def]
    paths = [str(FIXTURES / n) for n in CLIPS if n not in ("empty.wav", "not_audio.wav")]
    seen: list[str] = []
    with RayScorer(OPTIONS, RayOptions(workers=2)) as scorer:
        victim = scorer.pids[0]

        def kill_once(report: ClipReport) -> None:
            seen.append(report.file)
            if len(seen) == 1:
                os.kill(victim, signal.SIGKILL)  # mid-run: the worker holds queued clips

        reports = list(scorer.score(paths, on_done=kill_once))
        pids = scorer.worker_pids()
        assert victim not in pids and len(set(pids)) == 2  # Ray restarted it (models reloaded)
    assert [r.file for r in reports] == paths  # every clip exactly once, in order
    assert len(seen) == len(paths)
    assert all(r.ok or "no speech" in (r.error or "") for r in reports), [r.error for r in reports]


@pytest.mark.models
def test_cli_ray_resume(ray_local, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    clips = [FIXTURES / n for n in ("clean_sentence.wav", "empty.wav", "stereo_44k.flac")]
    lst = tmp_path / "clips.txt"
    lst.write_text("".join(f"{p}\n" for p in clips))
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({"file": str(clips[0]), "error": None}) + "\n" + '{"fi')
    code = main(["score", "--list", str(lst), "--ray", "--resume", str(out), "--no-history"])
    captured = capsys.readouterr()
    assert code == 1, captured.err  # empty.wav
    assert "1 clip(s) already there, 2 to score" in captured.err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["file"] for r in rows] == [str(p) for p in clips]
    assert "empty file" in rows[1]["error"] and rows[2]["error"] is None


def test_clip_scorer_without_ray_reports_bad_files(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not readable on this Ray node"):
        ClipScorer(ScoreOptions(), str(tmp_path / "no-model"))


def test_ray_then_a_folder_scores_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `coach score --ray clips/`: the folder is not taken for a Ray address
    assert main(["score", "--ray", str(tmp_path), "--no-history"]) == 2
    assert f"no audio files found in {tmp_path}" in capsys.readouterr().err
