"""A registry written by hand picks the run's task (fairseq-like): ``def register_task(name)``
stores each ``@register_task("x")`` class in ``TASK_REGISTRY``, and ``setup_task(args)``
builds ``TASK_REGISTRY[args.task]``. The ``--task`` option's default is a parameter of the
def declaring it (``get_parser(desc, default_task="translation")``); the documented command
may name another. The task the run does not pick is an alternative, with what only it
builds: its dataset and its augmentation, its sequence generator, its config's settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

DOCS = """
    # Getting started

    Train a model:

    ```
    > tk-train data-bin/x --lr 0.5{task}
    ```
"""

FILES = {
    "setup.py": """
        from setuptools import setup

        setup(
            name="tk",
            entry_points={"console_scripts": ["tk-train = tk_cli.train:cli_main"]},
        )
    """,
    "tk/__init__.py": "",
    "tk/options.py": """
        import argparse


        def get_parser(desc, default_task="translation"):
            parser = argparse.ArgumentParser(desc)
            parser.add_argument("data")
            parser.add_argument("--task", default=default_task)
            parser.add_argument("--lr", type=float, default=0.1)
            parser.add_argument("--criterion", default="ce")
            return parser


        def get_training_parser(default_task="translation"):
            return get_parser("Trainer", default_task)
    """,
    "tk/tasks/__init__.py": """
        import importlib
        import os

        TASK_REGISTRY = {}


        def setup_task(args):
            return TASK_REGISTRY[args.task].setup_task(args)


        def register_task(name, dataclass=None):
            def register_task_cls(cls):
                TASK_REGISTRY[name] = cls
                return cls

            return register_task_cls


        for file in sorted(os.listdir(os.path.dirname(__file__))):
            if file.endswith(".py") and not file.startswith("_"):
                importlib.import_module("tk.tasks." + file[: -len(".py")])
    """,
    "tk/model.py": """
        from torch import nn


        class TinyModel(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 8)

            def forward(self, x):
                return self.proj(x)
    """,
    "tk/pair_dataset.py": """
        import torch


        class PairDataset(torch.utils.data.Dataset):
            def __init__(self, n):
                self.n = n

            def __len__(self):
                return self.n

            def __getitem__(self, i):
                return torch.zeros(8), 0
    """,
    "tk/generator.py": """
        import torch


        class BeamGenerator:
            def __init__(self, model, beam=5):
                self.model = model
                self.beam = beam

            def generate(self, x):
                return torch.topk(self.model(x), self.beam)
    """,
    "tk/audio_dataset.py": """
        import numpy as np
        import torch


        class AudioDataset(torch.utils.data.Dataset):
            def __init__(self, n, max_len=16):
                self.n = n
                self.max_len = max_len

            def __len__(self):
                return self.n

            def __getitem__(self, i):
                wav = torch.zeros(32)
                start = np.random.randint(0, 32 - self.max_len)
                return wav[start : start + self.max_len], 0
    """,
    "tk/speech_generator.py": """
        import torch
        from torch import nn


        class SpeechGenerator(nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model
                self.vocoder = nn.Linear(8, 8)

            def forward(self, x, lengths):
                out = self.model(x)
                kept = out.masked_select(lengths > 0)
                steps = kept.cpu().numpy()
                return torch.from_numpy(steps)
    """,
    "tk/tasks/translation.py": """
        from tk.generator import BeamGenerator
        from tk.model import TinyModel
        from tk.pair_dataset import PairDataset
        from tk.tasks import register_task


        @register_task("translation")
        class TranslationTask:
            @classmethod
            def setup_task(cls, args):
                return cls()

            def build_model(self, args):
                return TinyModel()

            def load_dataset(self, split):
                return PairDataset(4)

            def build_generator(self, model):
                return BeamGenerator(model)
    """,
    "tk/tasks/speech.py": """
        from dataclasses import dataclass

        from tk.audio_dataset import AudioDataset
        from tk.model import TinyModel
        from tk.speech_generator import SpeechGenerator
        from tk.tasks import register_task


        @dataclass
        class SpeechConfig:
            random_crop: bool = True


        @register_task("speech", dataclass=SpeechConfig)
        class SpeechTask:
            @classmethod
            def setup_task(cls, args):
                return cls()

            def build_model(self, args):
                return TinyModel()

            def load_dataset(self, split):
                return AudioDataset(4)

            def build_generator(self, model):
                return SpeechGenerator(model)
    """,
    "tk/tasks/speech_lm.py": """
        from tk.tasks import register_task
        from tk.tasks.speech import SpeechTask


        @register_task("speech_lm")
        class SpeechLmTask(SpeechTask):
            pass
    """,
    "tk/criterions.py": """
        import torch.nn.functional as F

        CRITERION_REGISTRY = {}


        def register_criterion(name):
            def wrap(cls):
                CRITERION_REGISTRY[name] = cls
                return cls

            return wrap


        def build_criterion(args):
            return CRITERION_REGISTRY[args.criterion]()


        @register_criterion("ce")
        class CrossEntropy:
            def __call__(self, out, y):
                return F.cross_entropy(out, y)


        @register_criterion("ctc")
        class Ctc:
            def __call__(self, out, y):
                kept = out.masked_select(y > 0)
                return F.ctc_loss(kept, y, y, y)
    """,
    "tk_cli/__init__.py": "",
    "tk_cli/train.py": """
        import torch

        from tk import options, tasks
        from tk.criterions import build_criterion


        def main(args):
            task = tasks.setup_task(args)
            model = task.build_model(args)
            criterion = build_criterion(args)
            optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
            for x, y in torch.utils.data.DataLoader(task.load_dataset("train"), batch_size=2):
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
            task.build_generator(model)


        def cli_main():
            parser = options.get_training_parser()
            main(parser.parse_args())


        if __name__ == "__main__":
            cli_main()
    """,
}

TRANSLATION = "tk.tasks.translation.TranslationTask"
SPEECH = "tk.tasks.speech.SpeechTask"
#: what only the speech task builds
SPEECH_ONLY = ("tk/audio_dataset.py:AudioDataset", "tk/speech_generator.py:SpeechGenerator")
SPEECH_FILES = (
    "tk/tasks/speech.py",
    "tk/tasks/speech_lm.py",
    "tk/audio_dataset.py",
    "tk/speech_generator.py",
)


def _alternatives(review) -> str:
    """The effort's sentence listing the alternatives and what only they reach."""
    [found] = [e for e in review.effort.explanation if e.startswith("Alternatives the run")]
    return found


def _review(root: Path, task: str) -> object:
    write_repo(root, {**FILES, "docs/getting_started.md": DOCS.format(task=task)})
    return build_review(str(root), jobs=1)


@pytest.fixture(scope="module")
def by_default(tmp_path_factory: pytest.TempPathFactory) -> object:
    """The documented command names no task: ``--task``'s default picks translation."""
    return _review(tmp_path_factory.mktemp("tasks_default"), "")


@pytest.fixture(scope="module")
def documented(tmp_path_factory: pytest.TempPathFactory) -> object:
    """The documented command passes ``--task speech_lm``, a task deriving from another."""
    return _review(tmp_path_factory.mktemp("tasks_documented"), " --task speech_lm")


def test_the_default_task_leaves_the_other_task_and_what_only_it_builds_out(by_default) -> None:
    review = by_default
    alternatives = set(review.alternatives)
    assert {SPEECH, "tk.tasks.speech_lm.SpeechLmTask"} <= alternatives
    assert all(name in _alternatives(review) for name in SPEECH_ONLY)
    # the picked task and what it builds stay the run's
    assert TRANSLATION not in alternatives
    # the model tree's models: the network the picked task builds, placed there; the
    # other task's generator is an alternative, not a model the run builds
    assert [(t.cls, t.where.path) for t in review.top_models] == [
        ("tk.model.TinyModel", "tk/tasks/translation.py")
    ]
    assert "tk.speech_generator.SpeechGenerator" in alternatives
    assert "PairDataset" not in _alternatives(review)
    assert "BeamGenerator" not in _alternatives(review)
    # no recipe row (the speech config's random crop, the audio dataset's draw) and no work
    # item of the other task's files
    assert not [i for i in review.recipe if i.where.path in SPEECH_FILES]
    assert not [i for i in review.work if any(w.path in SPEECH_FILES for w in i.where)]
    [shapes] = [e for e in review.effort.explanation if "dynamic-shape rewrite" in e]
    assert "speech_generator" not in shapes


def test_the_documented_task_is_the_run_s(documented) -> None:
    """``--task speech_lm`` on the documented command: translation is the alternative; the
    speech task the picked one derives from (its datasets, its generator) stays the run's."""
    review = documented
    alternatives = set(review.alternatives)
    assert TRANSLATION in alternatives
    assert not {SPEECH, "tk.tasks.speech_lm.SpeechLmTask"} & alternatives
    assert not any(name in _alternatives(review) for name in SPEECH_ONLY)
    assert "tk/generator.py:BeamGenerator" in _alternatives(review)
    assert "tk.speech_generator.SpeechGenerator" in {t.cls for t in review.top_models}
    assert not [i for i in review.recipe if i.where.path == "tk/pair_dataset.py"]


def test_a_hand_written_loss_registry_takes_the_option_s_default(by_default) -> None:
    """``--criterion`` declared with ``default="ce"`` picks from a registry written by hand:
    the loss row shows the default and where the option gives it; the other loss is an
    alternative."""
    review = by_default
    [row] = [i for i in review.recipe if i.name == "--criterion (picked by name)"]
    values = dict(row.values)
    assert values["default"] == '"ce" (tk/options.py:9)'
    assert values["default defined at"].startswith("tk/criterions.py:")
    assert "tk.criterions.Ctc" in review.alternatives
    assert "tk.criterions.CrossEntropy" not in review.alternatives
