"""Audience question quality, judged blind: coach's audience against a plain prompt.

Three stages, each re-runnable:

``transcribe``
    Each talk in ``bench/data/talks/{dev,test}/`` is spoken by Piper and heard by coach's
    recogniser (tiny.en), so the questions are asked about what coach would really hear
    (numbers as digits, a word misheard here and there). Transcripts are kept in
    ``bench/data/talks/heard/``.
``generate``
    For each model (``--llm``), talk and persona (curious, skeptical, expert, and a
    described one), coach's audience asks ``--per-persona`` questions. In the same run and
    with the same model, threads and decoding, the *baseline* asks one: what a user
    would do instead, a chat prompt with the whole talk ("You are <persona> ... ask one
    question"). Every question goes into a review file per talk, in shuffled order with
    an id and no sign of which system or model asked it (the key is kept apart in
    ``key.jsonl``). Also records seconds per question and peak memory per model.
``score``
    Reads the blind reviewers' verdicts (``verdicts/*.jsonl``: id, verdict, persona
    guess) and writes ``bench/results/questions.json``: the acceptable share per split,
    system, model and persona, and how often the reviewer recognised the persona.

The reviewer sees only the talk, the questions and the rubric (``RUBRIC.md``); never the
code, the prompts or the product's checks.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from results import peak_rss_mb, write_results  # noqa: E402

TALKS = ROOT / "bench" / "data" / "talks"
HEARD = TALKS / "heard"
OUT = ROOT / "bench" / "results" / "questions"
PERSONAS = ("curious", "skeptical", "expert", "described")
SPLITS = (
    "dev", "test", "holdout", "final", "sealed", "sealed2", "sealed3", "sealed4", "sealed5",
    "sealed6", "sealed7", "sealed8", "sealed9", "sealed10", "sealed11", "sealed12", "sealed13",
    "sealed14", "sealed15", "sealed16", "sealed17", "sealed18", "sealed19", "sealed20",
    "sealed21", "sealed22", "sealed23", "sealed24", "sealed25", "sealed26", "sealed27",
    "sealed28", "sealed29", "sealed30", "sealed31", "sealed32", "sealed33",
    "sealed34", "sealed35", "sealed36", "sealed37",
    "sealed38", "sealed39", "sealed40", "sealed41", "sealed42", "sealed43",
    "sealed44", "sealed45", "sealed46", "sealed47", "sealed48", "sealed49",
    "sealed50",
    "sealed51",
    "sealed52",
    "sealed53",
    "sealed54",
    "sealed55",
    "sealed56",
    "sealed57",
    "sealed58",
    "sealed59",
    "sealed60",
    "sealed61",
    "sealed62",
    "sealed63",
    "sealed64",
    "sealed65",
    "sealed66",
    "sealed67",
    "sealed68",
    "sealed69",
    "sealed70",
    "sealed71",
    "sealed72",
    "sealed73",
    "sealed74",
    "sealed75",
    "sealed76",
    "sealed77",
    "sealed78",
    "sealed79",
    "sealed80",
    "sealed81",
    "sealed82",
    "sealed83",
    "sealed84",
)  # fmt: skip
"""dev tunes. test was written before any tuning, and held out until round d's verdicts
were read. Every later split was written by a helper that saw no code and no earlier talk,
after the round before it, and is held out only for the round that first measured it:
holdout (round e), final (f), sealed (g), sealed2 (h), sealed3 (i), sealed4 (j), sealed5 (k),
sealed6 (l), sealed7 (m), sealed8 (n), sealed9 (o) ... sealed13 (s), sealed14 (t),
sealed15 (u), sealed16 (v), sealed17 (w), sealed18 (x), sealed19 (y), sealed20 (z),
sealed21 (aa), sealed22 (ab), sealed23 (ac), sealed24 (ad), sealed25 (ae), sealed26 (af),
sealed27 (ag), sealed28 (ah), sealed29 (ai), sealed30 (aj),
sealed31 (ak), sealed32 (al), sealed33 (am), sealed34 (an: heard in primed pieces of at most
25 s, as ``coach score`` now recognises, where earlier splits were heard as one piece),
sealed35 (ao, heard likewise), sealed36 (ap, likewise),
sealed37 (aq, likewise), sealed38 (ar, likewise),
sealed39 (as, likewise), sealed40 (at, likewise),
sealed41 (au, likewise), sealed42 (av, likewise),
sealed43 (aw, heard with each piece one window of the
recogniser: ``AsrOptions.last_window_ends``), sealed44 (ax, heard likewise),
sealed45 (ay, likewise), sealed46 (az, likewise),
sealed47 (ba, likewise), sealed48 (bb, likewise),
sealed49 (bc, likewise), sealed50 (bd, likewise),
sealed51 (be, likewise), sealed52 (bf, likewise),
sealed53 (bg, likewise), sealed54 (bh, likewise),
sealed55 (bi, likewise), sealed56 (bj, likewise),
sealed57 (bk, likewise), sealed58 (bl, likewise), sealed59 (bm, likewise),
sealed60 (bn, likewise), sealed61 (bo, likewise),
sealed62 (bp, likewise), sealed63 (bq, likewise),
sealed64 (br, likewise), sealed65 (bs, likewise),
sealed66 (bt, likewise), sealed67 (bu, likewise),
sealed68 (bv, likewise),
sealed69 (bw, likewise),
sealed70 (bx, likewise),
sealed71 (by, likewise),
sealed72 (bz, likewise),
sealed73 (ca, likewise),
sealed74 (cb, likewise),
sealed75 (cc, likewise), sealed76 (cd, likewise), sealed77 (ce, likewise),
sealed78 (cf, likewise), sealed79 (cg, likewise),
sealed80 (ch, likewise), sealed81 (ci, likewise),
sealed82 (cj, likewise), sealed83 (ck, likewise), sealed84 (cl, likewise)."""
DESCRIBED = "a local business owner who worries about what this will cost and who pays"

RUBRIC = """# Rubric for audience questions

You see a talk (what the speaker said) and questions an audience member asked after it.
Judge each question on its own.

ACCEPTABLE only if all four hold:
1. It is one natural, grammatical English question (a short lead-in sentence before it
   is fine; two questions joined by "and" about the same point are fine).
2. It is about a specific point of the talk, and represents that point correctly (no
   misquoted numbers, no claim the talk did not make, no reversed meaning).
3. It does not ask for a fact the talk stated plainly (asking for more detail than the
   talk gave is fine).
4. A thoughtful real audience member might plausibly ask it.

Otherwise NOT_ACCEPTABLE, with the number of the first rule it breaks.

A question shown "(right after ...)" was asked straight after that other question, in the
same conversation; judge the question itself, with that as its context.

Also say which listener the question sounds most like: "curious" (wants examples,
applications, what happens next), "skeptical" (doubts the claim, asks for evidence,
raises objections or costs), "expert" (asks about method, measurement, limits), or
"unclear".
"""


def heard_folder(ear: str) -> Path:
    """Where the talks as heard by ``ear`` are kept (tiny.en: ``heard/``)."""
    return HEARD if ear == "tiny.en" else TALKS / f"heard_{ear}"


def talk_files(split: str) -> list[Path]:
    return sorted((TALKS / split).glob("*.md"))


def talk_text(path: Path) -> str:
    lines = path.read_text().splitlines()
    return " ".join(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def transcribe(force: bool, ear: str = "tiny.en", splits: tuple[str, ...] = SPLITS) -> None:
    """Speak every talk with Piper, hear it with ``ear`` (tiny.en: the live recogniser;
    base: the audience's own, ``coach rehearse --audience-asr``), keep the transcript."""
    import numpy as np
    import soundfile as sf

    from coach.asr import AsrOptions, Transcriber
    from coach.score import ScoreOptions, score_file
    from coach.tts import Speaker

    folder = heard_folder(ear)
    folder.mkdir(parents=True, exist_ok=True)
    speaker = Speaker.load()
    transcriber = Transcriber.load(AsrOptions(model=ear))
    for split in splits:
        for path in talk_files(split):
            out = folder / f"{path.stem}.txt"
            words_out = folder / f"{path.stem}.words.json"
            if out.exists() and words_out.exists() and not force:
                continue
            chunks = list(speaker.speak(talk_text(path)))
            rate = chunks[0].sample_rate_hz
            audio = np.concatenate([c.samples for c in chunks])
            with tempfile.TemporaryDirectory() as tmp:
                wav = Path(tmp) / "talk.wav"
                sf.write(wav, audio, rate)
                report = score_file(wav, transcriber, ScoreOptions())
            out.write_text(report.transcript.strip() + "\n")
            words = [[w.text, round(w.probability, 3)] for w in report.words]
            words_out.write_text(json.dumps(words) + "\n")
            print(f"{path.stem}: {len(report.transcript.split())} words heard", flush=True)


def disputed_by(stem: str, mine: list[str], checked_by: str) -> list[tuple[str, str, str]]:
    """The words of a talk as one recogniser heard them (``mine``) that ``checked_by`` wrote
    otherwise, from its kept transcript (as ``coach rehearse --audience-asr`` leaves out)."""
    from coach.analysis.asking import disputed_words

    theirs = (heard_folder(checked_by) / f"{stem}.txt").read_text().split()
    return disputed_words(mine, theirs)


def baseline_questions(llm, talk: str, persona_text: str, n: int) -> list[tuple[str, float]]:  # type: ignore[no-untyped-def]
    """What a user would run instead: the same model asked plainly, with the whole talk."""
    out: list[tuple[str, float]] = []
    for _ in range(n):
        earlier = "".join(f"\n- {q}" for q, _t in out)
        prompt = (
            f"Here is a talk I just gave:\n\n{talk}\n\nYou are {persona_text} in the "
            "audience. Ask me one question about the talk."
            + (f" Do not repeat these questions:{earlier}" if earlier else "")
        )
        t0 = time.perf_counter()
        reply = llm.complete([{"role": "user", "content": prompt}], max_tokens=80)
        text = " ".join(reply.split())
        m = re.search(r"[^?]*\?", text)  # the first question, as a user would read it
        out.append(((m.group(0).strip() if m else text), time.perf_counter() - t0))
    return out


def generate_one(
    model: str, per_persona: int, *, baseline: bool = True, wording: str = "llm",
    ear: str = "tiny.en", splits: tuple[str, ...] = SPLITS, use_unsure: bool = True,
    script: bool = False, stance: bool = True, checked_by: str | None = None,
    asks_model: str = "none",
) -> None:  # fmt: skip
    """One model's questions (its own process, so its peak memory is its own). Model
    ``none`` asks without a model (grounded wording only). ``use_unsure``: the audience
    knows which words the recogniser was unsure of (as in ``coach rehearse``), where the
    talk's word probabilities were kept. ``script``: the speaker gave the talk as written
    as their script (``coach rehearse --script``). ``checked_by``: a second recogniser's
    transcripts (the live one's, tiny.en, when ``ear`` is the audience's own): words the
    two wrote differently are not quoted, as in ``coach rehearse --audience-asr``.
    ``asks_model``: the judge model that reads each talk for its ask, as ``coach rehearse``
    does (``none``: the patterns alone); it reads the talk whole, where a live session
    reads it up to its last utterance."""
    from coach.analysis.asking import unsure_words
    from coach.audience import PERSONAS as BUILTIN
    from coach.audience import Audience, AudienceOptions
    from coach.llm import ChatModel, LlmOptions

    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    llm = None if model == "none" else ChatModel.load(LlmOptions(model=model))
    load_s = time.perf_counter() - t0
    asks = None
    if asks_model != "none" and wording == "grounded":
        from coach.judging import ASKS_N_CTX, AnswerJudge, JudgeOptions

        reader = AnswerJudge.load(JudgeOptions(model=asks_model), n_ctx=ASKS_N_CTX)

        def asks(transcript: str, cancel: threading.Event | None) -> float:
            return reader.asks_listeners(transcript, cancel=cancel)

    times: dict[str, list[float]] = {"coach": [], "baseline": []}
    sources: dict[str, int] = defaultdict(int)
    items: list[dict] = []
    talks = [(split, path) for split in splits for path in talk_files(split)]
    # coach's questions for every talk first, then the baseline's: each system keeps its
    # own prompt prefix in llama.cpp's cache, as it would in use
    for split, path in talks:
        heard = (heard_folder(ear) / f"{path.stem}.txt").read_text().strip()
        words_file = heard_folder(ear) / f"{path.stem}.words.json"
        unsure = (
            unsure_words([(t, p) for t, p in json.loads(words_file.read_text())])
            if words_file.exists() and use_unsure
            else []
        )
        if checked_by is not None:
            mine = [t for t, _p in json.loads(words_file.read_text())] if words_file.exists() \
                else heard.split()  # fmt: skip
            unsure += disputed_by(path.stem, mine, checked_by)
        for persona in PERSONAS:
            p_opt = DESCRIBED if persona == "described" else persona
            audience = Audience(llm, heard, AudienceOptions(persona=p_opt, wording=wording,
                                                            stance=stance),
                                unsure=unsure, asks=asks,
                                script=path.read_text() if script else None)  # fmt: skip
            before = ""
            for q in audience.questions(per_persona):
                dt = (q.ready_at or 0) - (q.started_at or 0)
                times["coach"].append(dt)
                sources[q.source] += 1
                items.append({
                    "split": split, "talk": path.stem, "system": f"coach-{wording}",
                    "model": model, "persona": persona, "question": q.spoken_text,
                    "source": q.source, "ask_kind": q.ask_kind, "seconds": round(dt, 2),
                    "rejected": q.rejected,
                    # a question that goes on from the one before is judged after it
                    **({"after": before} if not q.lead_in.startswith("You said") else {}),
                })  # fmt: skip
                before = q.spoken_text
        print(f"{model} {path.stem}: coach done", flush=True)
    for split, path in talks if baseline and llm is not None else []:
        heard = (HEARD / f"{path.stem}.txt").read_text().strip()
        for persona in PERSONAS:
            p_opt = DESCRIBED if persona == "described" else persona
            persona_text = BUILTIN.get(p_opt, p_opt)
            for text, dt in baseline_questions(llm, heard, persona_text, 1):
                times["baseline"].append(dt)
                items.append({
                    "split": split, "talk": path.stem, "system": "baseline",
                    "model": model, "persona": persona, "question": text,
                    "source": "llm", "ask_kind": "", "seconds": round(dt, 2),
                })  # fmt: skip
        print(f"{model} {path.stem}: baseline done", flush=True)
    perf = {
        "load_s": round(load_s, 2),
        "peak_rss_mb": peak_rss_mb(),
        "sources": dict(sources),
        # the audience may stop early rather than ask a poor question: asked / requested
        "requested": per_persona * len(PERSONAS) * len(talks),
        "asked": sum(1 for item in items if item["system"] != "baseline"),
        **{f"{sys_}_s_p50": round(statistics.median(v), 2) for sys_, v in times.items() if v},
        **{
            f"{sys_}_s_p95": round(sorted(v)[int(0.95 * (len(v) - 1))], 2)
            for sys_, v in times.items()
            if v
        },  # fmt: skip
    }
    name = model if wording == "llm" else wording
    name += "" if ear == "tiny.en" else f"-{ear}"
    name += "" if checked_by is None else "-checked"
    name += "-script" if script else ""
    name += "" if stance else "-nostance"
    for item in items:
        item["ear"] = ear
    with (OUT / f"gen_{name}.jsonl").open("w") as f:
        f.write(json.dumps({"perf": perf}) + "\n")
        for item in items:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    print(json.dumps(perf, indent=2))


def generate(models: list[str], per_persona: int, seed: int, wording: str, asks_model: str) -> None:
    """Each model in its own process, then the shuffled review files and the key."""
    import subprocess

    for model in models:
        subprocess.run([sys.executable, __file__, "_one", "--llm", model, "--wording", wording,
                        "--per-persona", str(per_persona), "--asks-model", asks_model],
                       check=True)  # fmt: skip
    build_reviews(seed)


def build_reviews(seed: int, models: list[str] | None = None, prefix: str = "q") -> None:
    """Review files (one per talk, shuffled, ids ``PREFIX0001``...) and the key, for the
    questions of ``models`` (all generated ones by default). Several rounds may share the
    folder: each round's files are named by its prefix, and the key grows. A question
    asked in the same words twice in one talk (by two personas, or by two systems) is
    listed once, and its verdicts count for each time it was asked."""
    rng = random.Random(seed)
    by_talk: dict[str, list[dict]] = defaultdict(list)
    perf: dict[str, dict] = {}
    paths = sorted(OUT.glob("gen_*.jsonl"))
    if models:
        paths = [OUT / f"gen_{m}.jsonl" for m in models]
    for path in paths:
        lines = [json.loads(line) for line in path.open() if line.strip()]
        perf[path.stem[4:]] = lines[0]["perf"]
        for item in lines[1:]:
            by_talk[item["talk"]].append(item)
    (OUT / "RUBRIC.md").write_text(RUBRIC)
    key: list[dict] = []
    n = 0
    for stem, items in sorted(by_talk.items()):
        rng.shuffle(items)
        path = TALKS / items[0]["split"] / f"{stem}.md"
        lines = [f"# Talk {stem}", "", talk_text(path), "", "## Questions", ""]
        listed: dict[tuple[str, str], str] = {}  # the same words are judged once
        for item in items:
            after = f'(right after "{item["after"]}") ' if item.get("after") else ""
            same = listed.get((after, item["question"]))
            if same is None:
                n += 1
                same = listed[(after, item["question"])] = f"{prefix}{n:04d}"
                lines.append(f"- {same}: {after}{item['question']}")
            item["id"] = same
            key.append(item)
        (OUT / f"review_{prefix}_{stem}.md").write_text("\n".join(lines) + "\n")
    old_key = OUT / "key.jsonl"
    kept = [line for line in old_key.open() if not json.loads(line)["id"].startswith(prefix)] if (
        old_key.exists() and models) else []  # fmt: skip
    with old_key.open("w") as f:
        f.writelines(kept)
        for item in key:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    gen_file = OUT / "generation.json"
    old_perf = json.loads(gen_file.read_text()) if gen_file.exists() and models else {}
    gen_file.write_text(json.dumps({**old_perf, **perf}, indent=2) + "\n")


def _as_judged(question: str) -> str:
    """A verdict's question without the '(right after "...")' context a reviewer may have
    copied with it from the review file."""
    return re.sub(r'^\(right after ".*?"\) ', "", question, flags=re.S)


def score_verdicts(out: Path, name: str, *, group_by: str = "talk") -> int:
    """Join the blind verdicts with the key and write ``bench/results/NAME.json``.

    A verdict counts only for the very question it judged (a new run asks new ones), so
    stale verdicts are left out and reported as unjudged. Every reviewer's verdict counts:
    a share is accepted verdicts over all verdicts (two reviewers judge each question in
    the later rounds; their strictness differs, so neither alone is the figure).
    """
    key = [json.loads(line) for line in (out / "key.jsonl").open() if line.strip()]
    verdicts: dict[str, list[dict]] = defaultdict(list)
    for path in sorted((out / "verdicts").glob("*.jsonl")):
        for line in path.open():
            if line.strip():
                v = json.loads(line)
                verdicts[v["id"]].append(v)
    groups: dict[tuple, list[bool]] = defaultdict(list)
    persona_hits: dict[tuple, list[bool]] = defaultdict(list)
    rules: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    unjudged = 0
    for item in key:
        asked = item["question"]
        judged = [v for v in verdicts.get(item["id"], [])
                  if _as_judged(v.get("question", asked)) == asked]  # fmt: skip
        if not judged:
            unjudged += 1
            continue
        for v in judged:
            ok = v["verdict"].upper() == "ACCEPTABLE"
            for persona in (item["persona"], "all"):
                g = (item["split"], item["system"], item["model"], persona)
                groups[g].append(ok)
                if not ok:
                    rules[g][str(v.get("rule", "?"))] += 1
                if item["persona"] in ("curious", "skeptical", "expert") and "sounds_like" in v:
                    persona_hits[g].append(v.get("sounds_like") == item["persona"])
    if unjudged:
        print(f"{unjudged} questions have no verdict for their exact words yet", file=sys.stderr)
    figures: dict[str, dict] = {}
    print(f"{'split':5} {'system':8} {'model':28} {'persona':10} acceptable   persona recognised")
    for g in sorted(groups):
        oks = groups[g]
        hits = persona_hits.get(g, [])
        figures["/".join(g)] = {
            "verdicts": len(oks), "acceptable": sum(oks),
            "acceptable_share": round(sum(oks) / len(oks), 3),
            "persona_recognised_share": round(sum(hits) / len(hits), 3) if hits else None,
            "not_acceptable_by_rule": dict(rules[g]),
        }  # fmt: skip
        pr = f"{sum(hits)}/{len(hits)}" if hits else "-"
        print(f"{g[0]:5} {g[1]:8} {g[2]:28} {g[3]:10} {sum(oks):3}/{len(oks):<3} "
              f"{sum(oks) / len(oks):5.0%}   {pr}")  # fmt: skip
    gen = json.loads((out / "generation.json").read_text())
    path = write_results(name, {"groups": figures, "generation": gen, "unjudged": unjudged})
    print(f"figures written to {path.relative_to(ROOT)}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stage", choices=("transcribe", "generate", "score", "all", "_one"))
    models = ["qwen2.5-coder-0.5b-instruct", "qwen2.5-coder-1.5b-instruct"]
    ap.add_argument("--llm", nargs="+", default=models)
    ap.add_argument("--per-persona", type=int, default=2)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--force", action="store_true", help="transcribe again")
    ap.add_argument("--no-baseline", action="store_true", help="coach's questions only")
    ap.add_argument(
        "--wording",
        choices=("grounded", "llm"),
        default="llm",
        help="how coach words new questions (grounded: --llm none needs no model)",
    )
    ap.add_argument(
        "--ear", default="tiny.en", help="the recogniser the talks are heard with (tiny.en, base)"
    )
    ap.add_argument(
        "--checked-by", metavar="EAR",
        help="a second recogniser's transcripts (tiny.en): words it wrote otherwise than "
        "--ear are not quoted, as in coach rehearse --audience-asr",
    )  # fmt: skip
    ap.add_argument("--splits", nargs="+", default=list(SPLITS), help="talk splits to ask on")
    ap.add_argument(
        "--review",
        metavar="PREFIX",
        help="only build review files for --llm's generations, ids PREFIX0001...",
    )
    ap.add_argument(
        "--no-unsure", action="store_true",
        help="the audience is not told which words the recogniser was unsure of",
    )  # fmt: skip
    ap.add_argument(
        "--no-stance",
        action="store_true",
        help="built-in personas do not say where they stand (as before round q)",
    )
    ap.add_argument(
        "--asks-model", default="qwen2.5-coder-1.5b-instruct",
        help="the judge model that reads each talk for its ask with grounded wording, as coach "
        "rehearse does ('none': the patterns alone)",
    )  # fmt: skip
    ap.add_argument("--script", action="store_true",
                    help="the speaker gives the talk as written as their script")  # fmt: skip
    args = ap.parse_args()
    if args.stage == "_one":
        generate_one(args.llm[0], args.per_persona, baseline=not args.no_baseline,
                     wording=args.wording, ear=args.ear, splits=tuple(args.splits),
                     use_unsure=not args.no_unsure, script=args.script,
                     stance=not args.no_stance, checked_by=args.checked_by,
                     asks_model=args.asks_model)  # fmt: skip
        return 0
    if args.review:
        build_reviews(args.seed, args.llm, prefix=args.review)
        return 0
    if args.stage in ("transcribe", "all"):
        transcribe(args.force, args.ear, tuple(args.splits))
    if args.stage in ("generate", "all"):
        generate(args.llm, args.per_persona, args.seed, args.wording, args.asks_model)
    if args.stage in ("score", "all"):
        return score_verdicts(OUT, "questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
