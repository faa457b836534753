"""Hugging Face transformers models, tiny and randomly initialised, on CPU, for the tracers:
GPT-2 (a training step, then beam-search generation), T5 (a seq2seq training step, then beam
search) and wav2vec2 for CTC (a training step on padded audio of varying valid length, with
SpecAugment masking, then greedy decoding).

Runs from an unpacked transformers wheel (the tracers set the working directory to the root,
the folder holding ``transformers/``), whose dependencies are installed; nothing of
transformers is copied here. Offline: configurations are built in code, nothing is
downloaded::

    python scripts/trace_shapes.py --root HF_ROOT --out t.jsonl -- \\
        /abs/path/scripts/drivers/hf_step.py --model gpt2 --seed 1

Same shapes for every seed; the seed changes the tokens, the audio, how much of each audio is
valid (its attention mask) and how many label tokens each example has (padded with -100). The
end-of-sequence token's embedding is scaled up so that, with random weights, some beams end
early and others run to the length limit.
"""

from __future__ import annotations

import argparse
import os
import sys

MODELS = ("gpt2", "t5", "wav2vec2")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=MODELS, default="gpt2")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    sys.path.insert(0, os.getcwd())
    import torch
    import transformers

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    run = {"gpt2": gpt2, "t5": t5, "wav2vec2": wav2vec2}[options.model]
    summary = run(torch, transformers, data)
    print(f"{options.model} seed {options.seed}: {summary}")
    return 0


def _step(torch, model, batch) -> float:  # type: ignore[no-untyped-def]
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model.train()
    loss = model(**batch).loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.eval()
    return float(loss)


def gpt2(torch, transformers, data) -> str:  # type: ignore[no-untyped-def]
    config = transformers.GPT2Config(
        vocab_size=64,
        n_positions=64,
        n_embd=32,
        n_layer=2,
        n_head=2,
        bos_token_id=0,
        eos_token_id=1,
        pad_token_id=2,
    )
    model = transformers.GPT2LMHeadModel(config)
    with torch.no_grad():
        model.transformer.wte.weight[1] *= 8.0  # the tied head: EOS wins for some inputs
    tokens = torch.randint(3, 64, (2, 12), generator=data)
    loss = _step(torch, model, {"input_ids": tokens, "labels": tokens})
    prompt = torch.randint(3, 64, (2, 4), generator=data)
    with torch.no_grad():
        out = model.generate(
            prompt,
            attention_mask=torch.ones_like(prompt),
            num_beams=3,
            max_new_tokens=8,
            early_stopping=True,
            do_sample=False,
        )
    return f"loss {loss:.3f}, generated {tuple(out.shape)}"


def t5(torch, transformers, data) -> str:  # type: ignore[no-untyped-def]
    config = transformers.T5Config(
        vocab_size=64,
        d_model=32,
        d_kv=8,
        d_ff=64,
        num_layers=2,
        num_decoder_layers=2,
        num_heads=2,
        decoder_start_token_id=0,
        eos_token_id=1,
        pad_token_id=0,
    )
    model = transformers.T5ForConditionalGeneration(config)
    with torch.no_grad():
        model.shared.weight[1] *= 8.0
    source = torch.randint(2, 64, (2, 10), generator=data)
    labels = torch.randint(2, 64, (2, 6), generator=data)
    labels[:, -1] = 1
    loss = _step(torch, model, {"input_ids": source, "labels": labels})
    with torch.no_grad():
        out = model.generate(source, num_beams=2, max_new_tokens=8, do_sample=False)
    return f"loss {loss:.3f}, generated {tuple(out.shape)}"


def wav2vec2(torch, transformers, data) -> str:  # type: ignore[no-untyped-def]
    config = transformers.Wav2Vec2Config(
        vocab_size=12,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        conv_dim=(16, 16),
        conv_stride=(5, 4),
        conv_kernel=(10, 8),
        num_conv_pos_embeddings=8,
        num_conv_pos_embedding_groups=2,
        mask_time_prob=0.3,
        mask_time_length=2,
        feat_extract_norm="layer",
        do_stable_layer_norm=True,
        ctc_loss_reduction="mean",
        pad_token_id=0,
    )
    model = transformers.Wav2Vec2ForCTC(config)
    samples, batch = 1600, 2
    audio = torch.randn(batch, samples, generator=data)
    valid = torch.randint(samples // 2, samples + 1, (batch,), generator=data)
    mask = (torch.arange(samples)[None, :] < valid[:, None]).long()
    audio = audio * mask
    labels = torch.randint(1, 12, (batch, 8), generator=data)
    lengths = torch.randint(3, 9, (batch,), generator=data)
    labels[torch.arange(8)[None, :] >= lengths[:, None]] = -100  # padded label rows
    loss = _step(torch, model, {"input_values": audio, "attention_mask": mask, "labels": labels})
    with torch.no_grad():
        ids = model(audio, attention_mask=mask).logits.argmax(-1)
    return f"loss {loss:.3f}, ids {tuple(ids.shape)}"


if __name__ == "__main__":
    sys.exit(main())
