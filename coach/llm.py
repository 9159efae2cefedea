"""The local LLM (llama.cpp through llama-cpp-python): one class behind a ``load()`` factory.

One :class:`ChatModel` holds the weights and the conversation's KV cache: llama.cpp reuses
the cached prefix when the next prompt starts with the previous one, so a conversation
that only grows costs only its new tokens per turn.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coach.errors import CoachError, ModelError

logger = logging.getLogger(__name__)

DEFAULT_LLM = "qwen2.5-coder-0.5b-instruct"
"""Manifest name of the default GGUF."""


@dataclass(frozen=True)
class LlmOptions:
    """LLM settings."""

    model: str = DEFAULT_LLM
    """A manifest name or a path to any GGUF file."""
    n_ctx: int = 2048
    """Context length in tokens: the (condensed) talk plus one turn's prompt and reply."""
    n_batch: int = 128
    """Prompt tokens evaluated per batch. llama-cpp-python keeps a logits buffer of
    n_batch x vocabulary floats (512 x 152k = 311 MB for Qwen2.5); 128 measured as fast
    on 2 cores for a quarter of the memory."""
    threads: int = 0
    """CPU threads; 0 uses every logical CPU (token generation is memory-bound). A live
    session gives it its share of the cores (:func:`coach.live.models.session_threads`)."""
    temperature: float = 0.7
    """Sampling temperature."""
    seed: int = 0
    """Sampling seed, for repeatable sessions."""


class GenerationCancelled(CoachError):
    """:meth:`ChatModel.cancel` stopped a generation between two tokens."""


Message = dict[str, str]
"""A chat message: {"role": "system"|"user"|"assistant", "content": text}."""


def resolve_gguf(name: str, *, flag: str = "--llm-model", default: str = DEFAULT_LLM) -> Path:
    """A manifest name or a GGUF path -> the file to load (never downloads); ``flag`` and
    ``default`` name the option and the model the error message suggests."""
    from coach import models

    if name in models.load_manifest():
        folder = models.installed_path(name, kind="llm")
        ggufs = sorted(folder.glob("*.gguf"))
        if ggufs:
            return ggufs[0]
        raise ModelError(f"{folder} holds no .gguf: run `coach models fetch --force {name}`")
    path = Path(name).expanduser()
    if path.is_dir():
        ggufs = sorted(path.glob("*.gguf"))
        if len(ggufs) != 1:
            raise ModelError(f"{path}: expected exactly one .gguf file, found {len(ggufs)}")
        return ggufs[0]
    if not path.is_file():
        raise ModelError(
            f"LLM model '{name}' not found: pass a GGUF file with {flag} PATH, or run "
            f"`coach models fetch {default}`"
        )
    with path.open("rb") as f:
        if f.read(4) != b"GGUF":
            raise ModelError(f"{path} is not a GGUF file (llama.cpp needs .gguf weights)")
    return path


CANCEL_CHUNK_TOKENS = 32
"""Tokens evaluated between checks of a reading's cancel event (a fraction of a second of
the 1.5B model on one thread)."""


class ChatModel:
    """A chat LLM on the CPU; make one with :meth:`load`."""

    def __init__(self, llama: Any, options: LlmOptions, path: Path) -> None:
        self._llama = llama
        self.options = options
        self.path = path
        self._cancel = threading.Event()
        self._score_lock = threading.Lock()
        self._template: Any = None  # the chat template, made on first use (False: none)

    def cancel(self) -> None:
        """Stop every generation at its next token (from any thread), and refuse new ones
        until :meth:`resume`: a session ending on Ctrl-C or an error does not wait for a
        reply nobody will hear."""
        self._cancel.set()

    def resume(self) -> None:
        """Allow generations again after :meth:`cancel`."""
        self._cancel.clear()

    def close(self) -> None:
        """Free the model's memory now; it cannot be used afterwards. Call it only when no
        generation runs (a session's questions are over and its LLM thread is idle)."""
        with self._score_lock:
            llama, self._llama = self._llama, None
        if llama is not None:
            llama.close()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has freed the model."""
        return self._llama is None

    def _model(self) -> Any:
        """The loaded llama.cpp model; a closed one is an error that says so."""
        if self._llama is None:
            raise ModelError(f"the LLM {self.path.name} was closed to free its memory")
        return self._llama

    @classmethod
    def load(cls, options: LlmOptions = LlmOptions()) -> ChatModel:
        """Load the GGUF named in ``options.model``.

        Raises:
            ModelError: missing file, not a GGUF, or llama.cpp cannot load it; says what to do.
        """
        path = resolve_gguf(options.model)
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise ModelError(
                "llama-cpp-python is not installed: run `make setup` (it builds from source)"
            ) from exc
        try:
            llama = Llama(
                model_path=str(path),
                n_ctx=options.n_ctx,
                n_batch=options.n_batch,
                n_threads=options.threads or os.cpu_count() or 2,
                seed=options.seed,
                verbose=False,
            )
        except Exception as exc:  # llama.cpp raises ValueError/RuntimeError on bad files
            raise ModelError(f"cannot load LLM {path}: {exc}".splitlines()[0]) from exc
        return cls(llama, options, path)

    def stream(
        self,
        messages: list[Message],
        *,
        schema: dict[str, Any] | None = None,
        max_tokens: int = 80,
        temperature: float | None = None,
    ) -> Iterator[str]:
        """Generate a reply token by token.

        Args:
            messages: the conversation so far.
            schema: a JSON schema the reply must follow (grammar-constrained), or None.
            max_tokens: upper bound on generated tokens.
            temperature: overrides the options' temperature.

        Yields:
            Text pieces as the model produces them.

        Raises:
            GenerationCancelled: :meth:`cancel` was called (checked before every token).
        """
        if self._cancel.is_set():
            raise GenerationCancelled("the LLM was stopped")
        kwargs: dict[str, Any] = {}
        if schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        for chunk in self._model().create_chat_completion(
            messages=messages,
            stream=True,
            max_tokens=max_tokens,
            temperature=self.options.temperature if temperature is None else temperature,
            **kwargs,
        ):
            if self._cancel.is_set():
                raise GenerationCancelled("the LLM was stopped")
            piece = chunk["choices"][0]["delta"].get("content")
            if piece:
                yield piece

    def choice_probs(
        self, messages: list[Message], choices: list[str], *, cancel: threading.Event | None = None
    ) -> list[float]:
        """How likely the reply is to start with each of ``choices`` (one word or letter
        each), from the first reply token's logits: no sampling, so the same messages
        always give the same figures. The chat is laid out with the model's own template,
        and a prompt that starts like the previous one evaluates only its new tokens.
        ``cancel``, when set (from another thread), stops the evaluation within
        :data:`CANCEL_CHUNK_TOKENS` tokens (the tokens evaluated so far stay cached).

        Returns:
            One probability per choice, summing to 1 over the choices (the model's odds
            between them, whatever else it might have said).

        Raises:
            GenerationCancelled: :meth:`cancel` was called.
        """
        import numpy as np

        with self._evaluated(self._chat_prompt(messages), cancel=cancel) as llama:
            logits = _last_logits(llama).astype(np.float64)
        scores = []
        for choice in choices:  # "yes" and "Yes", " yes": any first token of the word
            forms = (choice, choice.capitalize(), choice.lower(), " " + choice)
            ids = {llama.tokenize(v.encode(), add_bos=False, special=False)[0] for v in forms}
            scores.append(float(np.logaddexp.reduce(logits[sorted(ids)])))
        top = max(scores)
        weights = [float(np.exp(v - top)) for v in scores]
        return [w / sum(weights) for w in weights]

    def continuation_logprobs(
        self, prompt: str, continuation: str, *, max_tokens: int = 200
    ) -> list[float]:
        """How likely ``continuation`` is to follow ``prompt``: the natural-log probability
        of each of its tokens (at most ``max_tokens``, and what fits the context), read from
        the logits with no sampling. Both are plain text (no chat template); a prompt that
        starts like the previous one evaluates only its new tokens.

        Raises:
            GenerationCancelled: :meth:`cancel` was called.
        """
        import numpy as np

        with self._evaluated(prompt) as llama:
            room = llama.n_ctx() - llama.n_tokens - 1
            ids = llama.tokenize(continuation.encode(), add_bos=False, special=False)
            ids = ids[: max(0, min(max_tokens, room))]
            if not ids:
                return []
            n_vocab = llama.n_vocab()
            out = _picked(_last_logits(llama)[None, :], ids[:1])
            rest = ids[:-1]  # the last token's own logits predict nothing asked for
            for i in range(0, len(rest), llama.n_batch):
                chunk = rest[i : i + llama.n_batch]
                n_past = llama.n_tokens
                llama._batch.set_batch(batch=chunk, n_past=n_past, logits_all=True)
                llama._ctx.decode(llama._batch)
                llama.input_ids[n_past : n_past + len(chunk)] = chunk
                llama.n_tokens += len(chunk)
                logits = np.ctypeslib.as_array(llama._ctx.get_logits(),
                                               shape=(len(chunk), n_vocab))  # fmt: skip
                out += _picked(logits, ids[i + 1 : i + 1 + len(chunk)])
        return out

    @contextlib.contextmanager
    def _evaluated(self, text: str, *, cancel: threading.Event | None = None) -> Iterator[Any]:
        """The llama.cpp model with ``text``'s tokens evaluated (the cached ones it starts
        with kept), held under ``_score_lock`` while its logits are read; with ``cancel``,
        in chunks of :data:`CANCEL_CHUNK_TOKENS`, checked before each.

        Raises:
            GenerationCancelled: :meth:`cancel` was called, or ``cancel`` was set.
        """
        if self._cancel.is_set():
            raise GenerationCancelled("the LLM was stopped")
        with self._score_lock:
            llama = self._model()
            tokens = llama.tokenize(text.encode(), add_bos=False, special=True)
            cached = llama.input_ids[: llama.n_tokens].tolist()
            keep = 0
            while keep < min(len(cached), len(tokens) - 1) and cached[keep] == tokens[keep]:
                keep += 1
            llama.n_tokens = keep
            step = CANCEL_CHUNK_TOKENS if cancel is not None else len(tokens)
            for start in range(keep, len(tokens), max(step, 1)):
                if (cancel is not None and cancel.is_set()) or self._cancel.is_set():
                    raise GenerationCancelled("the LLM was stopped")
                llama.eval(tokens[start : start + step])
            yield llama

    def set_threads(self, threads: int) -> None:
        """Evaluate with ``threads`` CPU threads from now on (0: every logical CPU): a model
        loaded with a session's share of the cores gets them all once the session's
        recogniser is idle."""
        n = threads or os.cpu_count() or 2
        ctx = getattr(self._model(), "_ctx", None)
        if ctx is not None and hasattr(ctx, "set_n_threads"):
            ctx.set_n_threads(n, n)

    def _chat_prompt(self, messages: list[Message]) -> str:
        """``messages`` as the prompt text the model's chat template makes, ready for the
        assistant's reply (a plain "Role: text" layout for a GGUF without a template)."""
        if self._template is None:
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            llama = self._model()
            template = llama.metadata.get("tokenizer.chat_template")
            if template:
                text = lambda i: llama._model.token_get_text(i) if i != -1 else ""  # noqa: E731
                self._template = Jinja2ChatFormatter(
                    template=template, eos_token=text(llama.token_eos()),
                    bos_token=text(llama.token_bos()),
                )  # fmt: skip
            else:
                self._template = False
        if self._template is False:
            lines = [f"{m['role'].capitalize()}: {m['content']}" for m in messages]
            return "\n".join([*lines, "Assistant:"])
        return self._template(messages=messages).prompt

    def complete(self, messages: list[Message], **kwargs: Any) -> str:
        """The whole reply at once (see :meth:`stream` for the arguments)."""
        return "".join(self.stream(messages, **kwargs))


def _last_logits(llama: Any) -> Any:
    """The logits after the last evaluated token: a float32 view of llama.cpp's buffer
    (vocabulary-sized), valid until the next evaluation (the caller holds the lock)."""
    import llama_cpp
    import numpy as np

    return np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llama._ctx.ctx, -1),
                                 shape=(llama.n_vocab(),))  # fmt: skip


def _picked(logits: Any, targets: list[int]) -> list[float]:
    """Natural-log probabilities of ``targets``, one per row of ``logits`` (rows x vocabulary,
    float32, read in place: one row-sized temporary at a time, never the whole float64)."""
    import numpy as np

    out = []
    for row, target in zip(logits, targets, strict=True):
        top = float(row.max())
        total = top + float(np.log(np.exp(row - top, dtype=np.float64).sum()))
        out.append(float(row[target]) - total)
    return out
