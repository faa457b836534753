"""Training run by a library's trainer object: ``transformers.Trainer``.

Many fine-tuning repositories hold no optimizer, backward pass or schedule of their own: a
script builds ``transformers.Trainer(model=..., args=training_args, ...)`` and calls
``trainer.train()``, and the recipe is the ``TrainingArguments`` the documented command gives
(``torchrun ... train.py --learning_rate 2e-5 --num_train_epochs 3 --bf16 True --fsdp
"full_shard auto_wrap"``), parsed by ``HfArgumentParser`` into dataclasses the repository
may extend. No torch API marks any of it, so without this module such a repository reads as
inference only.

This module tells which files train that way (a call of the trainer class, or of a class of
the file deriving from it) and turns the documented command's arguments, with the library's
documented defaults for the ones it leaves out, into recipe rows. Everything is read from
the scan's records and the documented commands (:mod:`apiscan.review.commands`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from apiscan.extract.records import FileAnalysis
from apiscan.extract.values import Expr
from apiscan.review.commands import Launch, documented_runs
from apiscan.review.model import RecipeItem, Where
from apiscan.review.sources import (
    is_test_path,
    place,
    trainer_calls,
    trainer_lines,
    trainer_subclasses,
    with_facts,
)

#: The arguments of ``transformers.TrainingArguments`` that make the recipe: the option ->
#: (category, the library's documented default, or None where it has no value of its own).
TRAINING_ARGUMENTS: dict[str, tuple[str, str | None]] = {
    "learning_rate": ("optimizer", "5e-5"),
    "weight_decay": ("optimizer", "0.0"),
    "adam_beta1": ("optimizer", "0.9"),
    "adam_beta2": ("optimizer", "0.999"),
    "adam_epsilon": ("optimizer", "1e-8"),
    "optim": ("optimizer", "adamw_torch"),
    "lr_scheduler_type": ("scheduler", "linear"),
    "warmup_ratio": ("warmup", "0.0"),
    "warmup_steps": ("warmup", "0"),
    "num_train_epochs": ("epochs", "3.0"),
    "max_steps": ("epochs", "-1"),
    "per_device_train_batch_size": ("batch_size", "8"),
    "gradient_accumulation_steps": ("grad_accum", "1"),
    "max_grad_norm": ("grad_clip", "1.0"),
    "bf16": ("amp", "False"),
    "fp16": ("amp", "False"),
    "tf32": ("amp", None),
    "fsdp": ("distributed", None),
    "fsdp_transformer_layer_cls_to_wrap": ("distributed", None),
    "deepspeed": ("distributed", None),
    "gradient_checkpointing": ("distributed", "False"),
    "seed": ("seed", "42"),
}
#: What each category's row is named.
_ROW_NAMES = {
    "optimizer": "AdamW of transformers.Trainer (TrainingArguments)",
    "scheduler": "LR schedule of transformers.Trainer (TrainingArguments)",
    "warmup": "warm-up of transformers.Trainer (TrainingArguments)",
    "epochs": "training length (TrainingArguments)",
    "batch_size": "batch per device (TrainingArguments)",
    "grad_accum": "gradient accumulation (TrainingArguments)",
    "grad_clip": "gradient clipping of transformers.Trainer (TrainingArguments)",
    "amp": "mixed precision (TrainingArguments)",
    "distributed": "sharding (TrainingArguments)",
    "seed": "seed (TrainingArguments)",
}


def trainer_files(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The files outside tests that build a library trainer (:data:`LIBRARY_TRAINER`), or a
    class of the repository deriving from one (defined there or imported): the training
    entry of a repository whose loop is the library's."""
    found = set()
    subclasses = trainer_subclasses(analyses)
    for fa, facts in with_facts(analyses):
        if is_test_path(fa.path):
            continue
        if any(trainer_calls(facts)) or trainer_lines(fa, subclasses):
            found.add(fa.path)
    return frozenset(found)


def trainer_functions(analyses: Sequence[FileAnalysis]) -> frozenset[tuple[str, str]]:
    """(path, top-level def) of each function that builds a library trainer or a class of
    the repository deriving from one: the training itself, as a function that builds an
    optimizer is (stanford_alpaca's ``train()``, run by the ``__main__`` block of a script
    other scripts import helpers from; LLaVA's ``train()`` building its ``LLaVATrainer``)."""
    found = set()
    subclasses = trainer_subclasses(analyses)
    for fa, facts in with_facts(analyses):
        defs = facts.values.defs if facts.values is not None else ()
        lines = trainer_lines(fa, subclasses)
        calls = (
            [
                *trainer_calls(facts),
                *(c for c in facts.values.calls if c.expr.line in lines),
            ]
            if facts.values is not None
            else []
        )
        for call in calls:
            if 0 <= call.function < len(defs):
                found.add((fa.path, defs[call.function].qual.partition(".")[0]))
    return frozenset(found)


#: The classes of the training arguments, by absolute name.
_ARGUMENT_CLASSES = frozenset(
    {"transformers.TrainingArguments", "transformers.Seq2SeqTrainingArguments"}
)

#: Reads an argument's value: (path, index of the enclosing def, the expression) -> its
#: value as the recipe follows it (a parameter's default, an argparse option), else None.
ValueReader = Callable[[str, int, Expr], "str | None"]


def trainer_recipe(
    root: Path | None,
    analyses: Sequence[FileAnalysis],
    scripts: Iterable[str],
    value: ValueReader | None = None,
) -> tuple[RecipeItem, ...]:
    """The recipe rows of the training arguments each of ``scripts`` (root-relative, from
    :func:`trainer_files`) runs with: the first documented training command's values, then
    the keywords the script's own ``TrainingArguments(...)`` passes (followed by ``value``
    to the defaults of the parameters and options they read), the library's defaults for
    the arguments neither gives (where there is one), one row per category at the command
    (or at the arguments' or the trainer's construction where nothing documents a run)."""
    by_path = {fa.path: fa for fa in analyses}
    subclasses = trainer_subclasses(analyses)
    # the scripts that run a training function of another file (LLaVA's train_mem.py:
    # ``from llava.train.train import train`` ... ``train(...)``): their commands are its run
    trained = {
        f"{m}.{fn}": path
        for path, fn in trainer_functions(analyses)
        for m in by_path[path].modules
        if path in by_path
    }
    runners: dict[str, list[FileAnalysis]] = {}
    for fa in analyses:
        for c in fa.calls:
            target = trained.get(c.callee)
            if c.role == "call" and target is not None and target != fa.path:
                runners.setdefault(target, []).append(fa)
    out: list[RecipeItem] = []
    for script in sorted(scripts):
        fa = by_path.get(script)
        if fa is None:
            continue
        named = {script: script, **{m: script for m in fa.modules}}
        for runner in runners.get(script, ()):
            named.update({runner.path: runner.path, **{m: runner.path for m in runner.modules}})
        runs = documented_runs(root, named)
        run = runs[0] if runs else None
        built = _construction(fa, subclasses)
        coded, coded_at = _coded_arguments(fa, value)
        where = Where(run.path, run.line) if run is not None else coded_at or built
        if where is None:
            continue
        rows: dict[str, list[tuple[str, str]]] = {}
        for option, (category, default) in TRAINING_ARGUMENTS.items():
            given = _given(run, option)
            if given is None:
                given = coded.get(option)
            if given is not None:
                rows.setdefault(category, []).append((option, given))
            elif default is not None and category not in ("amp", "distributed", "seed"):
                rows.setdefault(category, []).append((option, f"{default} (library default)"))
        for category, values in rows.items():
            in_code = any(option in coded for option, _ in values)
            if run is not None:
                note = f"given by the documented command at {run.path}:{run.line}"
            elif in_code and coded_at is not None:
                note = f"given in the code at {coded_at.path}:{coded_at.line}"
            elif category == "optimizer":
                note = "the library's defaults: no documented command gives the arguments"
            else:
                note = ""
            out.append(RecipeItem(category, _ROW_NAMES[category], where, tuple(values), note))
        out.extend(_adapter_settings(fa, value))
    return tuple(out)


#: The adapter configurations of peft, by absolute name: the settings of the adapters a
#: fine-tuning run injects into its pretrained model (LoRA's rank, alpha, dropout, targets).
_ADAPTER_CONFIG = re.compile(r"peft\.(?:\w+\.)*(\w*Lora|IA3|PrefixTuning|PromptTuning|\w+)Config$")


#: How an adapter configuration's model-settings row is named: ``adapters (LoraConfig)``.
ADAPTER_ROW = "adapters ("


def _adapter_settings(fa: FileAnalysis, value: ValueReader | None) -> list[RecipeItem]:
    """A model-settings row for each adapter configuration ``fa`` builds
    (``LoraConfig(r=lora_r, lora_alpha=16, target_modules=[...])``): its keywords, followed
    by ``value`` to the parameters' defaults: the numbers the port's adapters take."""
    from apiscan.review.oplibs import absolute_call_values

    facts = fa.syntax
    if facts is None:
        return []
    out = []
    for name, call in absolute_call_values(facts):
        if not _ADAPTER_CONFIG.match(name):
            continue
        values = []
        for keyword in call.expr.keywords:
            if not keyword.name:
                continue
            written = keyword.target
            shown = value(fa.path, call.function, written) if value is not None else None
            values.append((keyword.name, shown if shown is not None else written.text))
        if values:
            out.append(
                RecipeItem(
                    "model",
                    f"{ADAPTER_ROW}{name.rpartition('.')[2]})",
                    place(fa, call.expr.line),
                    tuple(values),
                    "the adapters injected into the pretrained model: the settings the "
                    "port's adapter layers take",
                )
            )
    return out


def _coded_arguments(
    fa: FileAnalysis, value: ValueReader | None
) -> tuple[dict[str, str], Where | None]:
    """The training arguments ``fa``'s own ``TrainingArguments(...)`` calls pass by keyword
    (inline in the trainer's construction or built before it), each as ``value`` follows it
    (``learning_rate=learning_rate``: the default of the training function's parameter),
    else as written; and where the first such call is."""
    from apiscan.review.oplibs import absolute_call_values

    facts = fa.syntax
    if facts is None:
        return {}, None
    found: dict[str, str] = {}
    first: int | None = None
    for name, call in absolute_call_values(facts):
        if name not in _ARGUMENT_CLASSES:
            continue
        first = call.expr.line if first is None else min(first, call.expr.line)
        for keyword in call.expr.keywords:
            if keyword.name not in TRAINING_ARGUMENTS or keyword.name in found:
                continue
            written = keyword.target
            shown = value(fa.path, call.function, written) if value is not None else None
            if shown is None:
                shown = written.text
            found[keyword.name] = shown
    return found, place(fa, first) if first is not None else None


def _construction(fa: FileAnalysis, subclasses: frozenset[str]) -> Where | None:
    """Where ``fa`` builds the library trainer (or a subclass of the repository), first."""
    facts = fa.syntax
    if facts is None:
        return None
    lines = [call.expr.line for call in trainer_calls(facts)]
    lines += trainer_lines(fa, subclasses)
    return place(fa, min(lines)) if lines else None


def _given(run: Launch | None, option: str) -> str | None:
    """The value the documented command gives ``--option`` (a bare flag: True), None when it
    gives none."""
    if run is None:
        return None
    words = run.given((f"--{option}",))
    if words is None:
        return None
    return " ".join(w.strip("'\"") for w in words) if words else "True"
