"""The local LLM (llama.cpp through llama-cpp-python): one class behind a ``load()`` factory.

One :class:`ChatModel` holds the weights and the conversation's KV cache: llama.cpp reuses
the cached prefix when the next prompt starts with the previous one, so a conversation
that only grows costs only its new tokens per turn.
"""

from __future__ import annotations

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


def resolve_gguf(name: str) -> Path:
    """A manifest name or a GGUF path -> the file to load (never downloads)."""
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
            f"LLM model '{name}' not found: pass a GGUF file with --llm-model PATH, or run "
            f"`coach models fetch {DEFAULT_LLM}`"
        )
    with path.open("rb") as f:
        if f.read(4) != b"GGUF":
            raise ModelError(f"{path} is not a GGUF file (llama.cpp needs .gguf weights)")
    return path


class ChatModel:
    """A chat LLM on the CPU; make one with :meth:`load`."""

    def __init__(self, llama: Any, options: LlmOptions, path: Path) -> None:
        self._llama = llama
        self.options = options
        self.path = path
        self._cancel = threading.Event()

    def cancel(self) -> None:
        """Stop every generation at its next token (from any thread), and refuse new ones
        until :meth:`resume`: a session ending on Ctrl-C or an error does not wait for a
        reply nobody will hear."""
        self._cancel.set()

    def resume(self) -> None:
        """Allow generations again after :meth:`cancel`."""
        self._cancel.clear()

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
        for chunk in self._llama.create_chat_completion(
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

    def complete(self, messages: list[Message], **kwargs: Any) -> str:
        """The whole reply at once (see :meth:`stream` for the arguments)."""
        return "".join(self.stream(messages, **kwargs))
