"""Sentence embeddings: how close two sentences are in meaning, for judging answers.

One :class:`SentenceEncoder` holds all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) as
an int8 ONNX graph run by onnxruntime, which faster-whisper already needs, with the
model's own WordPiece tokenizer (``tokenizers``). The model was trained on a billion
sentence pairs, many of them questions with their answers, so the cosine of a question and
an answer says whether the answer is about what was asked even when they share no word
("How long will it take?" / "About a fortnight"). 23 MB on disk, about 5 ms per sentence
on one core.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from coach.errors import ModelError

logger = logging.getLogger(__name__)

DEFAULT_ENCODER = "all-minilm-l6-v2"
"""Manifest name of the default sentence encoder."""


@dataclass(frozen=True)
class EncoderOptions:
    """Sentence-encoder settings."""

    model: str = DEFAULT_ENCODER
    """A manifest name, or a folder holding ``model.onnx`` (a BERT-style encoder whose
    output is ``last_hidden_state``) and its ``tokenizer.json``."""
    threads: int = 1
    """onnxruntime intra-op threads; one is enough for a few sentences at a time and leaves
    the other cores to the recogniser and the LLM."""
    max_tokens: int = 256
    """Longer texts are cut to this many WordPiece tokens (the model's trained limit)."""


class SentenceEncoder:
    """Unit-length sentence vectors from a BERT-style ONNX encoder (mean pooled)."""

    def __init__(self, session: Any, tokenizer: Any, options: EncoderOptions) -> None:
        self._session = session
        self._tokenizer = tokenizer
        self.options = options
        self._inputs = {i.name for i in session.get_inputs()}
        self._lock = threading.Lock()

    @classmethod
    def load(cls, options: EncoderOptions | None = None) -> SentenceEncoder:
        """Load the encoder named by ``options.model`` (never downloads).

        Raises:
            ModelError: not fetched, not a folder with ``model.onnx`` and
                ``tokenizer.json``, or onnxruntime / tokenizers missing.
        """
        options = options or EncoderOptions()
        folder = Path(options.model).expanduser()
        if not folder.is_dir():
            from coach.models import installed_path

            folder = installed_path(options.model, kind="encoder")
        onnx_path, tok_path = folder / "model.onnx", folder / "tokenizer.json"
        for path in (onnx_path, tok_path):
            if not path.is_file():
                raise ModelError(
                    f"{folder} has no {path.name}: a sentence encoder folder needs "
                    "model.onnx and tokenizer.json (run `coach models fetch "
                    f"{DEFAULT_ENCODER}` for the default)"
                )
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - both come with faster-whisper
            raise ModelError(
                f"the sentence encoder needs onnxruntime and tokenizers ({exc})"
            ) from exc
        so = ort.SessionOptions()
        so.intra_op_num_threads = max(1, options.threads)
        so.inter_op_num_threads = 1
        so.log_severity_level = 3
        try:
            session = ort.InferenceSession(
                str(onnx_path), sess_options=so, providers=["CPUExecutionProvider"]
            )
            tokenizer = Tokenizer.from_file(str(tok_path))
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise ModelError(f"cannot load the sentence encoder in {folder}: {exc}") from exc
        tokenizer.enable_truncation(max_length=options.max_tokens)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        return cls(session, tokenizer, options)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``: float32 array of shape (len(texts), dim), each row unit length
        (an empty text gets the vector of "")."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        with self._lock:
            batch = self._tokenizer.encode_batch([t or "" for t in texts])
            ids = np.array([e.ids for e in batch], dtype=np.int64)
            mask = np.array([e.attention_mask for e in batch], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feeds)[0]
        return mean_pool(hidden, mask)

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two texts, in [-1, 1] (about 0.9 for paraphrases, under
        0.2 for unrelated sentences)."""
        va, vb = self.encode([a, b])
        return float(va @ vb)


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Average the token vectors ``hidden`` (batch, tokens, dim) over the tokens ``mask``
    (batch, tokens) keeps, then scale each row to unit length (pure)."""
    m = mask.astype(np.float32)[:, :, None]
    summed = (hidden * m).sum(axis=1)
    pooled = summed / np.clip(m.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


_DEFAULT: SentenceEncoder | None = None
_DEFAULT_FAILED = False
_DEFAULT_LOCK = threading.Lock()


def default_encoder() -> SentenceEncoder | None:
    """The default encoder, loaded on first use; None (logged once) when it is not
    installed, so judging falls back to the words alone."""
    global _DEFAULT, _DEFAULT_FAILED
    with _DEFAULT_LOCK:
        if _DEFAULT is None and not _DEFAULT_FAILED:
            try:
                _DEFAULT = SentenceEncoder.load()
            except ModelError as exc:
                _DEFAULT_FAILED = True
                logger.warning("no sentence encoder (%s); answers are judged by words only", exc)
        return _DEFAULT
