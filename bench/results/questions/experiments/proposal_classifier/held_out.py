"""The proposal classifier (README.md here) on talks it was not tuned on, read as a live
session would read them: the talk so far, every third sentence, then all but its last
sentence, then whole.

Usage: held_out.py FIRST LAST OUT.json, e.g. ``held_out.py 67 77 held_out.json``: every
heard talk of splits sealedFIRST..sealedLAST, its kind from the writers' brief (01-05
proposal, 06-08 report, 09-12 other), whether ``asking.put_forward`` (the code as it is
now, mended on these talks) finds an ask, and the 1.5B model's P(yes) for each prefix.
The prompt is the one of classify.py (variant "a"), the product's since
(:func:`coach.judging.asks_messages`).
"""

import glob
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[5]))

from coach.analysis.asking import put_forward  # noqa: E402
from coach.analysis.claims import talk_sentences  # noqa: E402
from coach.judging import ASKS_QUESTION, asks_messages  # noqa: E402
from coach.llm import ChatModel, LlmOptions  # noqa: E402

HERE = Path(__file__).resolve().parent
HEARD = HERE.parents[3] / "data" / "talks" / "heard"


def main() -> None:
    first, last, out_name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    llm = ChatModel.load(LlmOptions(model="qwen2.5-coder-1.5b-instruct", n_ctx=4096))
    out = []
    started = time.time()
    for n in range(first, last + 1):
        for f in sorted(glob.glob(str(HEARD / f"sealed{n}-*.txt"))):
            stem = Path(f).stem
            num = int(stem.split("-")[1])
            kind = "proposal" if num <= 5 else "report" if num <= 8 else "other"
            talk = Path(f).read_text()
            sentences = talk_sentences(talk)
            counts = sorted(
                set(range(3, len(sentences) - 1, 3)) | {len(sentences) - 1, len(sentences)}
            )
            ps = []
            t0 = time.time()
            for k in counts:
                text = " ".join(sentences[:k])
                messages = asks_messages(text, max_words=len(text.split()))  # whole
                ps.append([k, round(llm.choice_probs(messages, ["yes", "no"])[0], 4)])
            found = put_forward(talk)
            out.append(
                {
                    "talk": stem,
                    "kind": kind,
                    "sentences": len(sentences),
                    "pattern": found[0] if found else None,
                    "p": ps,
                    "seconds": round(time.time() - t0, 1),
                }
            )
            print(
                stem[:40],
                kind,
                ps[-2][1],
                ps[-1][1],
                found is not None,
                out[-1]["seconds"],
                flush=True,
            )
            (HERE / out_name).write_text(
                json.dumps(
                    {"date": time.strftime("%Y-%m-%d"), "question": ASKS_QUESTION, "talks": out},
                    indent=1,
                )
            )
    print("s/talk", (time.time() - started) / max(len(out), 1))


if __name__ == "__main__":
    main()
