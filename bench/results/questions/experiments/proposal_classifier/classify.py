"""The script of the proposal classifier experiment (README.md here), as run, tidied.

Usage: classify.py MODEL FIRST LAST VARIANT, e.g. ``classify.py qwen2.5-coder-1.5b-instruct
78 82 a``: every heard talk of splits sealedFIRST..sealedLAST, its kind from the writers'
brief (01-05 proposal, 06-08 report, 09-12 other), the model's P(yes) and whether
``asking.put_forward`` finds an ask; printed a line per talk and written to /tmp.
"""

import glob
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[5]))

from coach.analysis.asking import put_forward  # noqa: E402
from coach.llm import ChatModel, LlmOptions  # noqa: E402

HEARD = Path(__file__).resolve().parents[4] / "data" / "talks" / "heard"
QUESTIONS = {
    "a": "Does the speaker ask the listeners to approve, fund, vote for, sign up for or take "
    "part in something specific? Answer yes or no.",
    "b": "Is the speaker asking this audience for a decision, money, approval or their help "
    "with a specific plan? Answer yes or no.",
}
SYSTEM = "You read the transcript of a talk and answer a question about it."


def main() -> None:
    model, first, last, variant = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    llm = ChatModel.load(LlmOptions(model=model, n_ctx=4096))
    out = []
    started = time.time()
    for n in range(first, last + 1):
        for f in sorted(glob.glob(str(HEARD / f"sealed{n}-*.txt"))):
            stem = Path(f).stem
            num = int(stem.split("-")[1])
            kind = "proposal" if num <= 5 else "report" if num <= 8 else "other"
            talk = Path(f).read_text()
            messages = [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": f"Transcript:\n{talk}\n\n{QUESTIONS[variant]}"},
            ]
            p, _no = llm.choice_probs(messages, ["yes", "no"])
            out.append({"talk": stem, "kind": kind, "p": p, "regex": put_forward(talk) is not None})
            print(stem[:40], kind, round(p, 3), out[-1]["regex"], flush=True)
    print("s/talk", (time.time() - started) / max(len(out), 1))
    Path(f"/tmp/cls_{model[-14:]}_{variant}_{first}_{last}.json").write_text(json.dumps(out))


if __name__ == "__main__":
    main()
