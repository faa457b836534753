"""A sequence toolkit trained through a console command (fairseq-like): setup.py declares
``kit-train = kit_cli.train:cli_main``; models, criterions and optimizers are registered
under names (``@register_model``, ``@register_model_architecture``, ``setup_registry``) and
picked on the command line with no default model; the documentation's getting-started page
gives the training command. Shared by the tests of the documented run's picks."""

FILES = {
    "README.md": """
        # kit

        A toolkit of sequence models. See docs/getting_started.md to train one.
    """,
    "docs/getting_started.md": """
        # Getting started

        Evaluate a trained model:

        ```
        kit-generate data-bin/x --path checkpoints/best.pt --beam 5
        ```

        Train a new model:

        ```
        > CUDA_VISIBLE_DEVICES=0 kit-train data-bin/x \\
            --arch conv_small --optimizer adam --lr 5e-4 --warmup-updates 300 \\
            --criterion smooth --label-smoothing 0.2 --eval-bleu
        ```

        Half precision: `kit-train --fp16 (...)`.

        Train a speech model:

        ```
        kit-train data-bin/audio --arch speech_m --optimizer nag --criterion ctc
        ```
    """,
    "setup.py": """
        from setuptools import setup

        setup(
            name="kit",
            entry_points={
                "console_scripts": [
                    "kit-train = kit_cli.train:cli_main",
                    "kit-generate = kit_cli.generate:cli_main",
                ],
            },
        )
    """,
    "kit/__init__.py": "",
    "kit/registry.py": """
        REGISTRIES = {}


        def setup_registry(option, default=None):
            table = {}

            def register(name, dataclass=None):
                def wrap(cls):
                    table[name] = cls
                    return cls
                return wrap

            def build(cfg, *extra):
                name = getattr(cfg, option.strip("-").replace("-", "_")) or default
                return table[name](cfg, *extra)

            REGISTRIES[option] = table
            return build, register, table
    """,
    "kit/config.py": """
        from dataclasses import dataclass


        @dataclass
        class OptimizationConfig:
            lr: float = 0.25
            warmup_updates: int = 0
            max_epoch: int = 0
    """,
    "kit/models/__init__.py": """
        MODEL_REGISTRY = {}
        ARCH_MODEL_REGISTRY = {}
        ARCH_CONFIG_REGISTRY = {}


        def build_model(args):
            return ARCH_MODEL_REGISTRY[args.arch].build_model(args)


        def register_model(name):
            def wrap(cls):
                MODEL_REGISTRY[name] = cls
                return cls
            return wrap


        def register_model_architecture(model_name, arch_name):
            def wrap(fn):
                ARCH_MODEL_REGISTRY[arch_name] = MODEL_REGISTRY[model_name]
                ARCH_CONFIG_REGISTRY[arch_name] = fn
                return fn
            return wrap


        from kit.models import conv, speech  # noqa: E402  (registers them)
    """,
    "kit/models/conv.py": """
        import torch
        from torch import nn

        from kit.models import register_model, register_model_architecture


        class ConvEncoder(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.conv = nn.Conv1d(dim, dim, 3, padding=1)

            def forward(self, x):
                return torch.relu(self.conv(x))


        @register_model("conv")
        class ConvModel(nn.Module):
            def __init__(self, encoder):
                super().__init__()
                self.encoder = encoder
                self.proj = nn.Linear(8, 8)

            @classmethod
            def build_model(cls, args):
                return cls(ConvEncoder(8))

            def forward(self, x):
                return self.proj(self.encoder(x))


        @register_model_architecture("conv", "conv_small")
        def conv_small(args):
            args.dim = 8


        @register_model_architecture("conv", "conv_big")
        def conv_big(args):
            args.dim = 16
    """,
    "kit/models/speech.py": """
        from dataclasses import dataclass

        import torch
        from torch import nn

        from kit.models import register_model, register_model_architecture


        class SpeechEncoder(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.rnn = nn.LSTM(dim, dim)

            def forward(self, x, lengths):
                kept = x.masked_select(lengths > 0)
                return self.rnn(kept.view(-1, 1, 8))[0]


        @dataclass
        class SpeechConfig:
            fp16: bool = False


        @register_model("speech")
        class SpeechModel(nn.Module):
            def __init__(self, encoder):
                super().__init__()
                self.encoder = encoder

            @classmethod
            def build_model(cls, args):
                model = cls(SpeechEncoder(8))
                return model.half() if SpeechConfig().fp16 else model

            def forward(self, x, lengths):
                steps = lengths.cpu().numpy()
                return self.encoder(x, torch.from_numpy(steps))


        @register_model_architecture("speech", "speech_s")
        def speech_s(args):
            args.dim = 8


        @register_model_architecture("speech", "speech_m")
        def speech_m(args):
            args.dim = 16


        @register_model_architecture("speech", "speech_l")
        def speech_l(args):
            args.dim = 32
    """,
    "kit/criterions/__init__.py": """
        import importlib
        import os

        from kit.registry import setup_registry

        build_criterion, register_criterion, CRITERION_REGISTRY = setup_registry(
            "--criterion", default="ce"
        )

        # every module of the folder registers its criterions
        for file in sorted(os.listdir(os.path.dirname(__file__))):
            if file.endswith(".py") and not file.startswith("_"):
                importlib.import_module("kit.criterions." + file[: -len(".py")])
    """,
    "kit/criterions/ce.py": """
        import torch.nn.functional as F
        from torch import nn

        from kit.criterions import register_criterion


        @register_criterion("ce")
        class CrossEntropyCriterion(nn.Module):
            def __init__(self, cfg):
                super().__init__()

            def forward(self, out, y):
                return F.cross_entropy(out, y)
    """,
    "kit/criterions/smooth.py": """
        from dataclasses import dataclass

        import torch.nn.functional as F
        from torch import nn

        from kit.criterions import register_criterion


        @dataclass
        class SmoothCriterionConfig:
            label_smoothing: float = 0.0


        @register_criterion("smooth", dataclass=SmoothCriterionConfig)
        class SmoothCriterion(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.eps = cfg.label_smoothing

            def forward(self, out, y):
                return F.cross_entropy(out, y, label_smoothing=self.eps)
    """,
    "kit/criterions/ctc.py": """
        import torch.nn.functional as F
        from torch import nn

        from kit.criterions import register_criterion
        from kit.criterions.smooth import SmoothCriterion


        @register_criterion("ctc")
        class CtcCriterion(SmoothCriterion):
            def __init__(self, cfg):
                super().__init__()

            def forward(self, lprobs, y, lengths):
                flat = y.masked_select(lengths > 0)
                return F.ctc_loss(lprobs, flat, lengths, lengths)
    """,
    "kit/optim/__init__.py": """
        from kit.registry import setup_registry

        build_optimizer, register_optimizer, OPTIMIZER_REGISTRY = setup_registry("--optimizer")

        from kit.optim import adam, nag  # noqa: E402  (registers them)
    """,
    "kit/optim/adam.py": """
        from dataclasses import dataclass

        import torch

        from kit.optim import register_optimizer


        @dataclass
        class AdamConfig:
            adam_betas: str = "(0.9, 0.999)"
            weight_decay: float = 0.0


        @register_optimizer("adam", dataclass=AdamConfig)
        class KitAdam:
            def __init__(self, cfg, params):
                self.optimizer = torch.optim.Adam(params, lr=cfg.lr)
    """,
    "kit/optim/nag.py": """
        from dataclasses import dataclass

        import torch

        from kit.optim import register_optimizer


        @dataclass
        class NagConfig:
            momentum: float = 0.99
            warmup_updates: int = 1000


        @register_optimizer("nag", dataclass=NagConfig)
        class KitNag:
            def __init__(self, cfg, params):
                self.optimizer = torch.optim.SGD(params, lr=cfg.lr, momentum=0.99, nesterov=True)
    """,
    "kit_cli/__init__.py": "",
    "kit_cli/train.py": """
        import argparse

        import torch

        from kit.criterions import build_criterion
        from kit.models import build_model
        from kit.optim import build_optimizer


        def main(args):
            model = build_model(args)
            criterion = build_criterion(args)
            optimizer = build_optimizer(args, model.parameters())
            for x, y in torch.utils.data.DataLoader(list(range(4)), batch_size=2):
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.optimizer.step()


        def cli_main():
            parser = argparse.ArgumentParser()
            parser.add_argument("data")
            parser.add_argument("--arch", "-a")
            parser.add_argument("--criterion", default="ce")
            parser.add_argument("--optimizer")
            main(parser.parse_args())


        if __name__ == "__main__":
            cli_main()
    """,
    "kit_cli/generate.py": """
        import argparse

        import torch

        from kit.models import build_model


        def cli_main():
            parser = argparse.ArgumentParser()
            parser.add_argument("data")
            parser.add_argument("--arch", default="speech_s")
            args = parser.parse_args()
            with torch.no_grad():
                build_model(args)(torch.zeros(1, 8, 4))


        if __name__ == "__main__":
            cli_main()
    """,
}
