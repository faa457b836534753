"""A fine-tuning script that builds its ``TrainingArguments(...)`` in the code, inline in the
trainer's construction, from the parameters of a training function run through a command
line wrapper: the recipe is those keywords followed to the parameters' defaults, not the
library's defaults."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

_TRAIN = """
import fire
import transformers


def train(
    base_model: str = "",
    micro_batch_size: int = 4,
    num_epochs: int = 3,
    learning_rate: float = 3e-4,
):
    model = transformers.AutoModelForCausalLM.from_pretrained(base_model)
    trainer = transformers.Trainer(
        model=model,
        train_dataset=None,
        args=transformers.TrainingArguments(
            per_device_train_batch_size=micro_batch_size,
            warmup_steps=100,
            num_train_epochs=num_epochs,
            learning_rate=learning_rate,
            fp16=True,
            output_dir="out",
        ),
    )
    trainer.train()


if __name__ == "__main__":
    fire.Fire(train)
"""


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("hfcode") / "repo", {"finetune.py": _TRAIN})
    return build_review(str(root), jobs=1)


def rows(review: Review, category: str) -> dict[str, str]:
    found = [r for r in review.recipe if r.category == category]
    assert len(found) == 1, [(r.category, r.name) for r in review.recipe]
    return dict(found[0].values)


def test_the_code_given_training_arguments_are_the_recipe(review: Review) -> None:
    optimizer = rows(review, "optimizer")
    assert optimizer["learning_rate"].startswith("3e-4")
    assert optimizer["weight_decay"] == "0.0 (library default)"
    assert rows(review, "warmup")["warmup_steps"] == "100"
    assert rows(review, "batch_size")["per_device_train_batch_size"].startswith("4")
    assert rows(review, "epochs")["num_train_epochs"].startswith("3")
    assert rows(review, "amp") == {"fp16": "True"}
    row = next(r for r in review.recipe if r.category == "optimizer")
    assert row.where.path == "finetune.py"
    assert "given in the code" in row.note


_PEFT = """
import transformers
from peft import LoraConfig, get_peft_model, prepare_model_for_int8_training


def train(base_model: str = "", lora_r: int = 8):
    model = transformers.AutoModelForCausalLM.from_pretrained(base_model, load_in_8bit=True)
    model = prepare_model_for_int8_training(model)
    model = get_peft_model(model, LoraConfig(r=lora_r, lora_alpha=16, target_modules=["q"]))
    trainer = transformers.Trainer(
        model=model,
        args=transformers.TrainingArguments("out"),
        data_collator=transformers.DataCollatorForSeq2Seq(None, pad_to_multiple_of=8, padding=True),
    )
    old_state_dict = model.state_dict
    model.state_dict = (lambda self, *_: old_state_dict()).__get__(model, type(model))
    trainer.train()


if __name__ == "__main__":
    train()
"""


@pytest.fixture(scope="module")
def adapted(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("peft") / "repo", {"finetune.py": _PEFT})
    return build_review(str(root), jobs=1)


def test_adapters_and_quantised_loading_are_training_work(adapted: Review) -> None:
    machinery = {i.what: i.why for i in adapted.work if i.kind == "training-library"}
    assert "peft.prepare_model_for_int8_training" in machinery
    assert "bitsandbytes" in machinery["peft.prepare_model_for_int8_training"]
    adapters = next(why for what, why in machinery.items() if "get_peft_model" in what)
    assert "LoRA" in adapters
    assert "transformers.Trainer" in machinery


def test_the_adapter_settings_are_model_settings(adapted: Review) -> None:
    found = [r for r in adapted.recipe if r.category == "model" and "LoraConfig" in r.name]
    assert len(found) == 1, [(r.category, r.name) for r in adapted.recipe]
    values = dict(found[0].values)
    assert values["r"].startswith("8")
    assert values["lora_alpha"] == "16"
    assert "q" in values["target_modules"]


def test_a_method_bound_on_the_model_replaces_no_layer(adapted: Review) -> None:
    backbone = [i for i in adapted.work if i.kind == "pretrained-backbone"]
    assert backbone, [i.kind for i in adapted.work]
    assert all("replaced" not in i.why for i in backbone)


def test_a_library_collator_padding_to_the_longest_is_an_input_pipeline(adapted: Review) -> None:
    assert adapted.effort.input_shape_rewrites == 1
    said = next(e for e in adapted.effort.explanation if "input pipeline" in e)
    assert "DataCollatorForSeq2Seq" in said


def test_a_collator_padding_to_a_fixed_length_is_none(tmp_path) -> None:
    fixed = _PEFT.replace("padding=True", 'padding="max_length", max_length=512')
    root = write_repo(tmp_path / "repo", {"finetune.py": fixed})
    assert build_review(str(root), jobs=1).effort.input_shape_rewrites == 0


def test_a_language_model_from_a_hub_maps_no_batchnorm(adapted: Review) -> None:
    backbone = next(i for i in adapted.work if i.kind == "pretrained-backbone")
    assert "BatchNorm" not in backbone.why
    assert "MindNLP" in backbone.why
