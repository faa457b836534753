"""A fine-tuning repository whose training loop is a library's trainer (issue 20 items 1, 3
and 4): ``train.py`` parses dataclass arguments, loads a pretrained causal language model,
pads each batch in a collate function and hands everything to ``transformers.Trainer``; the
README launches it with the training arguments. It trains (no "inference only"), its recipe
is the documented command's arguments with the library's defaults for the ones left out,
the trainer is training machinery to replace, and the collate's padding on the host is no
custom op. A tool importing a helper from ``train.py`` does not make its ``__main__`` block a
self-test."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

_TRAIN = """
from dataclasses import dataclass, field
from typing import Dict, Sequence

import torch
import transformers
from torch.utils.data import Dataset
from transformers import Trainer


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="facebook/opt-125m")


@dataclass
class TrainingArguments(transformers.TrainingArguments):
    model_max_length: int = field(default=512)


class SupervisedDataset(Dataset):
    def __init__(self, tokenizer, texts):
        super().__init__()
        self.input_ids = [tokenizer(t, return_tensors="pt").input_ids[0] for t in texts]

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, i) -> Dict[str, torch.Tensor]:
        return dict(input_ids=self.input_ids[i], labels=self.input_ids[i])


@dataclass
class Collator:
    pad_id: int

    def __call__(self, instances: Sequence[Dict]) -> Dict[str, torch.Tensor]:
        input_ids = [x["input_ids"] for x in instances]
        labels = [x["labels"] for x in instances]
        input_ids = torch.nn.utils.rnn.pad_sequence(
            input_ids, batch_first=True, padding_value=self.pad_id
        )
        labels = torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=-100)
        return dict(input_ids=input_ids, labels=labels, attention_mask=input_ids.ne(self.pad_id))


def resize_embeddings(model, tokenizer):
    model.resize_token_embeddings(len(tokenizer))


def train():
    parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_args.model_name_or_path)
    resize_embeddings(model, tokenizer)
    dataset = SupervisedDataset(tokenizer, ["a", "b"])
    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=dataset,
        data_collator=Collator(tokenizer.pad_token_id),
    )
    trainer.train()
    trainer.save_model(output_dir=training_args.output_dir)


if __name__ == "__main__":
    train()
"""

_TOOL = """
import transformers

from train import resize_embeddings


def main():
    model = transformers.AutoModelForCausalLM.from_pretrained("x")
    tokenizer = transformers.AutoTokenizer.from_pretrained("x")
    resize_embeddings(model, tokenizer)


if __name__ == "__main__":
    main()
"""

_README = """
# fine-tune

```bash
torchrun --nproc_per_node=4 train.py \\
    --model_name_or_path <path> \\
    --output_dir <out> \\
    --bf16 True \\
    --num_train_epochs 3 \\
    --per_device_train_batch_size 4 \\
    --gradient_accumulation_steps 8 \\
    --learning_rate 2e-5 \\
    --weight_decay 0. \\
    --warmup_ratio 0.03 \\
    --lr_scheduler_type "cosine"
```
"""


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(
        tmp_path_factory.mktemp("hf") / "repo",
        {"train.py": _TRAIN, "tools/weight_diff.py": _TOOL, "README.md": _README},
    )
    return build_review(str(root), jobs=1)


def rows(review: Review, category: str) -> dict[str, str]:
    found = [r for r in review.recipe if r.category == category]
    assert len(found) == 1, [(r.category, r.name) for r in review.recipe]
    return dict(found[0].values)


def test_a_library_trainer_trains(review: Review) -> None:
    assert not review.inference_only


def test_the_recipe_is_the_documented_training_arguments(review: Review) -> None:
    optimizer = rows(review, "optimizer")
    assert optimizer["learning_rate"] == "2e-5"
    assert optimizer["weight_decay"] == "0."
    assert optimizer["adam_beta2"] == "0.999 (library default)"
    assert rows(review, "scheduler") == {"lr_scheduler_type": "cosine"}
    assert rows(review, "warmup")["warmup_ratio"] == "0.03"
    assert rows(review, "epochs")["num_train_epochs"] == "3"
    assert rows(review, "batch_size") == {"per_device_train_batch_size": "4"}
    assert rows(review, "grad_accum") == {"gradient_accumulation_steps": "8"}
    assert rows(review, "amp") == {"bf16": "True"}
    where = next(r.where for r in review.recipe if r.category == "optimizer")
    assert where.path == "README.md"


def test_the_trainer_is_machinery_and_the_collate_no_custom_op(review: Review) -> None:
    machinery = [i for i in review.work if i.kind == "training-library"]
    assert [i.what for i in machinery] == ["transformers.Trainer"]
    assert review.effort.custom_ops == 0
    assert [i for i in review.work if i.kind == "pretrained-backbone"]
    # the batches padded to their longest sample: an input pipeline to bucket
    assert review.effort.input_shape_rewrites == 1


_MY_TRAINER = """
from transformers import Trainer


class MyTrainer(Trainer):
    def _get_train_sampler(self):
        return super()._get_train_sampler()
"""

_WRAPPER = """
from pkg.train import train

if __name__ == "__main__":
    train()
"""


@pytest.fixture(scope="module")
def wrapped(tmp_path_factory: pytest.TempPathFactory) -> Review:
    """The trainer subclassed in its own module (``class MyTrainer(Trainer)``), built by
    ``pkg/train.py``'s ``train()``, which a wrapper script runs; the README launches the
    wrapper (LLaVA's ``deepspeed llava/train/train_mem.py ...``)."""
    train = _TRAIN.replace(
        "from transformers import Trainer", "from pkg.my_trainer import MyTrainer"
    )
    train = train.replace("trainer = Trainer(", "trainer = MyTrainer(")
    readme = _README.replace("train.py", "pkg/train_wrapper.py")
    root = write_repo(
        tmp_path_factory.mktemp("hfwrapped") / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/my_trainer.py": _MY_TRAINER,
            "pkg/train.py": train,
            "pkg/train_wrapper.py": _WRAPPER,
            "README.md": readme,
        },
    )
    return build_review(str(root), jobs=1)


def test_a_subclassed_trainer_run_by_a_wrapper_trains_with_the_command(wrapped: Review) -> None:
    assert not wrapped.inference_only
    optimizer = rows(wrapped, "optimizer")
    assert optimizer["learning_rate"] == "2e-5"
    assert rows(wrapped, "epochs")["num_train_epochs"] == "3"
    where = next(r.where for r in wrapped.recipe if r.category == "optimizer")
    assert where.path == "README.md"


_OWN_LM = """
import torch.nn as nn
from transformers import LlamaForCausalLM, LlamaModel


class Projector(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x)


class VisualModel(LlamaModel):
    def __init__(self, config):
        super().__init__(config)
        self.projector = Projector(config.hidden_size)


class VisualLM(LlamaForCausalLM):
    def __init__(self, config):
        super().__init__(config)
        self.model = VisualModel(config)
"""


@pytest.fixture(scope="module")
def own_model(tmp_path_factory: pytest.TempPathFactory) -> Review:
    """The training function builds the repository's own language model with the class
    method it inherits (``VisualLM.from_pretrained(...)``), the class re-exported by its
    package's ``__init__`` from a module below; a wrapper script the README launches runs
    the function (LLaVA's layout)."""
    train = _TRAIN.replace(
        "from transformers import Trainer",
        "from transformers import Trainer\nfrom pkg.model import *",
    ).replace(
        "transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)",
        "VisualLM.from_pretrained(model_args.model_name_or_path)",
    )
    root = write_repo(
        tmp_path_factory.mktemp("hfown") / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/model/__init__.py": (
                "try:\n    from .language.visual_lm import VisualLM\n"
                "except ImportError:\n    pass\n"
            ),
            "pkg/model/language/__init__.py": "",
            "pkg/model/language/visual_lm.py": _OWN_LM,
            "pkg/train.py": train,
            "pkg/train_wrapper.py": _WRAPPER,
            "README.md": _README.replace("train.py", "pkg/train_wrapper.py"),
        },
    )
    return build_review(str(root), jobs=1)


def test_the_own_model_a_wrapped_training_builds_is_the_top_model(own_model: Review) -> None:
    tops = [t.cls for t in own_model.top_models]
    assert tops and tops[0].endswith("visual_lm.VisualLM")
    parts = dict(own_model.top_models[0].parts)
    assert parts["extends"] == "transformers.LlamaForCausalLM"
