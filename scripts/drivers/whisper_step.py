"""Whisper's training step and its decoding (greedy with timestamp rules, then beam search) on
random log-mel input, on CPU, for the tracers.

Runs from the root of a whisper checkout (the tracers set the working directory to the root)
and imports ``whisper`` from there, with its tokenizer files; nothing of it is copied here. A
tiny randomly initialised model (2 layers, 64 channels, 100 mel frames) with the multilingual
vocabulary. The end-of-text logit is given a term the input moves, so that, with random
weights, some hypotheses end early and others run to the length limit, as real decoding does:
how long each one gets depends on the input, whose shape the seed never changes::

    python scripts/trace_shapes.py --root WHISPER --out t.jsonl -- \\
        /abs/path/scripts/drivers/whisper_step.py --seed 1
"""

from __future__ import annotations

import argparse
import os
import sys
import types


def numba_fallback() -> None:
    """``whisper.timing`` imports numba at the top for its word-level alignment, which this
    driver never calls: a stand-in whose ``jit`` leaves functions as they are."""
    try:
        import numba
    except ImportError:
        numba = types.ModuleType("numba")
        numba.jit = lambda *args, **kwargs: lambda fn: fn  # type: ignore[attr-defined]
        numba.prange = range  # type: ignore[attr-defined]
        sys.modules["numba"] = numba


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd())
    numba_fallback()
    import torch
    import whisper
    from whisper.model import ModelDimensions, Whisper
    from whisper.tokenizer import get_tokenizer

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    dims = ModelDimensions(
        n_mels=80,
        n_audio_ctx=50,
        n_audio_state=64,
        n_audio_head=2,
        n_audio_layer=2,
        n_vocab=51865,
        n_text_ctx=64,
        n_text_state=64,
        n_text_head=2,
        n_text_layer=2,
    )
    model = Whisper(dims)
    tokenizer = get_tokenizer(True, num_languages=model.num_languages, task="transcribe")
    with torch.no_grad():
        # the text decoder's positional embedding is ``torch.empty`` until a checkpoint is
        # loaded: left so, runs differ by whatever memory held (a NaN loss, other lengths)
        model.decoder.positional_embedding.normal_(0.0, 0.02)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model.train()
    for _ in range(2):
        mel = torch.randn(2, 80, 100, generator=data)
        text = torch.randint(0, 50000, (2, 8), generator=data)
        start = torch.tensor(list(tokenizer.sot_sequence)).expand(2, -1)
        tokens = torch.cat([start, text, torch.full((2, 1), tokenizer.eot)], dim=1)
        logits = model(mel, tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.transpose(1, 2), tokens[:, 1:])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    # Two training steps on random text leave a model that repeats one token: the end-of-text
    # logit is given a term that the input moves, ``scale * (n . u + 1)`` for the decoder's
    # normalised output ``n`` and a unit vector ``u`` (its last layer norm's bias and the
    # end-of-text embedding), so that where decoding stops depends on the audio. The scales
    # sit where the two seeds stop at other steps, greedy and beam search alike.
    unit = torch.nn.functional.normalize(torch.randn(dims.n_text_state), dim=0)

    def end_of_text(scale: float) -> None:
        with torch.no_grad():
            model.decoder.ln.bias.copy_(unit)
            model.decoder.token_embedding.weight[tokenizer.eot] = scale * unit

    mel = torch.randn(2, 80, 100, generator=data)
    end_of_text(16.0)
    greedy = whisper.decode(model, mel, whisper.DecodingOptions(sample_len=12, fp16=False))
    end_of_text(18.0)
    beams = whisper.decode(  # one audio: this version's beam search broadcasts its features
        model,
        mel[:1],
        whisper.DecodingOptions(
            language="en", beam_size=2, sample_len=10, fp16=False, without_timestamps=True
        ),
    )
    lengths = [len(r.tokens) for r in (*greedy, *beams)]
    print(f"seed {options.seed}: loss {float(loss):.3f}, decoded lengths {lengths}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
