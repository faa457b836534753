"""The effort prices the parts that will be ported (issue 20 item 4): the network, its loss
and training step, the data pipeline. Each class of file or work counted apart, or priced as
one job, has a small repository of its own here."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

from scan_helpers import write_repo

from apiscan.model import ApiFinding
from apiscan.review.build import build_review
from apiscan.review.effort import (
    DATA_PARALLEL_PATTERN,
    MECHANICAL_IDIOMS,
    RATES,
    _per_zoo,
    idiom_pattern,
    repeated,
)
from apiscan.review.model import WorkItem
from apiscan.review.work import UNRUN_SCRIPT

NET = """
    import torch
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 2)
        def forward(self, x):
            return torch.flatten(self.fc(x), 1)
"""

TRAIN = """
    import torch
    from {module} import Net
    def main():
        model = Net()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss = model(torch.zeros(1, 2)).sum()
        loss.backward()
        opt.step()
    if __name__ == "__main__":
        main()
"""


def _terms(formula: str) -> set[str]:
    return {t.split(" ")[1] for t in formula.split(" + ")}


# --------------------------------------------------------------- packages run on import


def test_a_model_registered_by_its_packages_init_is_ported(tmp_path: Path) -> None:
    # the training imports the registry's module; the package above it registers the
    # models with a star import: importing the module runs that __init__.py first
    review = build_review(
        str(
            write_repo(
                tmp_path / "reg",
                {
                    "pkg/__init__.py": "",
                    "pkg/torch/__init__.py": "from .models import *\n",
                    "pkg/torch/models/__init__.py": "from .net import *\n",
                    "pkg/torch/models/build.py": """
                        REGISTRY = {}
                        def register(fn):
                            REGISTRY[fn.__name__] = fn
                            return fn
                        def get_model(name):
                            return REGISTRY[name]
                    """,
                    "pkg/torch/models/net.py": """
                        import torch
                        from .build import register
                        class Net(torch.nn.Module):
                            def __init__(self):
                                super().__init__()
                                self.fc = torch.nn.Linear(2, 2)
                            def forward(self, x):
                                return torch.flatten(self.fc(x), 1)
                        @register
                        def net():
                            return Net()
                    """,
                    "hubconf.py": "from pkg.torch import net\n",
                    "scripts/train.py": """
                        import torch
                        from pkg.torch.models.build import get_model
                        def main():
                            model = get_model("net")()
                            opt = torch.optim.SGD(model.parameters(), lr=0.1)
                            model(torch.zeros(1, 2)).sum().backward()
                            opt.step()
                        if __name__ == "__main__":
                            main()
                    """,
                },
            )
        )
    )
    apart = dict(review.ancillary)
    assert apart.get("hubconf.py") == "torch.hub entry points"
    assert "pkg/torch/models/net.py" not in apart
    assert "pkg/torch/__init__.py" not in apart


# --------------------------------------------------------------- another framework's twin


def test_an_mxnet_twin_of_the_training_is_an_adapter(tmp_path: Path) -> None:
    review = build_review(
        str(
            write_repo(
                tmp_path / "twin",
                {
                    "net.py": NET,
                    "scripts/torch/train.py": TRAIN.format(module="net"),
                    "scripts/gluon/train.py": """
                        import mxnet as mx
                        from mxnet import gluon, autograd
                        def main():
                            net = gluon.nn.Dense(2)
                            trainer = gluon.Trainer(net.collect_params(), "sgd")
                            data = gluon.data.DataLoader(gluon.data.ArrayDataset([1]), 1)
                            with autograd.record():
                                loss = net(mx.nd.zeros((1, 2))).sum()
                            loss.backward()
                            trainer.step(1)
                        if __name__ == "__main__":
                            main()
                    """,
                },
            )
        )
    )
    apart = dict(review.ancillary)
    assert apart["scripts/gluon/train.py"] == "adapter for mxnet"
    assert "scripts/torch/train.py" not in apart
    assert not any(i.kind == "third-party-data" for i in review.work if i.where) or all(
        "gluon" not in w.path for i in review.work for w in i.where if i.kind == "third-party-data"
    )
    assert "third-party-data" not in review.effort.formula


# --------------------------------------------------------------- scripts the training never runs


DATA_SCRIPTS = {
    "net.py": NET,
    "train.py": TRAIN.format(module="net"),
    # a benchmark rendered to tensors and scored with a reference model from another
    # library: data preparation and evaluation beside the training
    "dev/data/scores.py": """
        import torch
        from transformers import GPT2LMHeadModel
        def render(example):
            return torch.tensor(example["tokens"])
        def evaluate():
            model = GPT2LMHeadModel.from_pretrained("gpt2")
            return model(render({"tokens": [1, 2]}))
        if __name__ == "__main__":
            evaluate()
    """,
    # options parsed at the top level, no guard: a script too
    "dev/data/shards.py": """
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--out")
        args = parser.parse_args()
        torch.save(torch.zeros(3), args.out)
    """,
    # a model file's self-test is the model's: it stays ported
    "dev/blocks.py": """
        import torch
        class Block(torch.nn.Module):
            def forward(self, x):
                return torch.flatten(x, 1)
        if __name__ == "__main__":
            print(Block()(torch.zeros(1, 2)))
    """,
}


def test_scripts_the_training_never_runs_are_counted_apart(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "dev", DATA_SCRIPTS)))
    apart = dict(review.ancillary)
    assert apart["dev/data/scores.py"] == UNRUN_SCRIPT
    assert apart["dev/data/shards.py"] == UNRUN_SCRIPT
    assert apart.get("dev/blocks.py", "") != UNRUN_SCRIPT
    assert "train.py" not in apart and "net.py" not in apart
    # the reference model it scores with is no backbone of the port
    assert "pretrained-backbone" not in review.effort.formula


def test_a_script_the_training_imports_stays_ported(tmp_path: Path) -> None:
    files = dict(DATA_SCRIPTS)
    files["train.py"] = TRAIN.format(module="net").replace(
        "import torch\n", "import torch\nimport dev.data.scores\n", 1
    )
    apart = dict(build_review(str(write_repo(tmp_path / "dev", files))).ancillary)
    assert "dev/data/scores.py" not in apart


# --------------------------------------------------------------- another model's training


OTHER_MODEL = {
    "README.md": "Train with:\n\n```bash\npython train_a.py --lr 0.1\n```\n",
    "train_a.py": NET
    + """
    def main():
        model = Net()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        model(torch.zeros(1, 2)).sum().backward()
        opt.step()
    if __name__ == "__main__":
        main()
    """,
    # self-contained, its own model, never launched by the documentation
    "train_b.py": """
        import torch
        class Other(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(3, 3)
            def forward(self, x):
                return torch.nonzero(self.fc(x))
        def main():
            model = Other()
            model.load_state_dict(torch.load("other.pt"))
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            model(torch.zeros(1, 3)).sum().backward()
            opt.step()
        if __name__ == "__main__":
            main()
    """,
}


def test_an_undocumented_training_of_another_model_is_another_task(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "two", OTHER_MODEL)))
    apart = dict(review.ancillary)
    assert apart["train_b.py"].startswith("other task (train_b.py")
    assert "train_a.py" not in apart
    # its shape rewrite is not the port's, nor the checkpoint it loads into its own model
    assert review.effort.dynamic_shape_rewrites == 0
    assert not [i for i in review.work if i.kind == "checkpoint"]


def test_a_training_sharing_the_entrys_modules_stays_ported(tmp_path: Path) -> None:
    files = {
        "README.md": "```bash\npython train.py\n```\n",
        "net.py": NET,
        "train.py": TRAIN.format(module="net"),
        "finetune.py": TRAIN.format(module="net").replace("lr=1e-3", "lr=1e-5"),
    }
    apart = dict(build_review(str(write_repo(tmp_path / "ft", files))).ancillary)
    # a near copy is a variant, priced as a delta of the entry: no other task
    assert not apart.get("finetune.py", "").startswith("other task")


# --------------------------------------------------------------- root scripts with no guard


def test_root_scripts_parsing_options_at_the_top_level_are_tools(tmp_path: Path) -> None:
    files = {
        "net.py": NET,
        "train.py": TRAIN.format(module="net"),
        "distance.py": """
            import argparse
            import torch
            from net import Net
            parser = argparse.ArgumentParser()
            parser.add_argument("--path")
            opt = parser.parse_args()
            print(Net()(torch.load(opt.path)).cpu())
        """,
        # an image fitted to a target by the metric: an optimizer over an input, not a network
        "fit_image.py": """
            import argparse
            import torch
            from net import Net
            parser = argparse.ArgumentParser()
            opt = parser.parse_args()
            pred = torch.zeros(1, 2, requires_grad=True)
            optimizer = torch.optim.Adam([pred], lr=1e-3)
            for _ in range(3):
                optimizer.zero_grad()
                Net()(pred).sum().backward()
                optimizer.step()
        """,
    }
    review = build_review(str(write_repo(tmp_path / "metric", files)))
    apart = dict(review.ancillary)
    assert apart["distance.py"] == "tools"
    assert apart["fit_image.py"] == "tools"
    assert "train.py" not in apart
    # the checkpoint only the tool loads is not priced with the port
    assert "checkpoint" not in _terms(review.effort.formula)


# --------------------------------------------------------------- one job, priced once


def _item(kind: str, what: str) -> WorkItem:
    return WorkItem(kind=kind, what=what, where=(), why="")


def test_pretrained_backbones_of_one_zoo_are_one_conversion_job() -> None:
    items = [
        _item("pretrained-backbone", "torchvision.models.alexnet(pretrained=True)"),
        _item("pretrained-backbone", "torchvision.models.vgg16(pretrained=True)"),
        _item("pretrained-backbone", "torchvision.models.squeezenet1_1(pretrained=True)"),
        _item("pretrained-backbone", "timm.create_model(pretrained=True)"),
    ]
    assert _per_zoo(items) == (3, 1)
    # the i-th backbone of a zoo at 1/i of the first: three cost what 1.83 would
    assert round(repeated((3,), "pretrained-backbone"), 2) == 1.83
    assert repeated((1, 1), "pretrained-backbone") == 2


def test_a_checkpoint_beside_pretrained_backbones_goes_through_their_conversion(
    tmp_path: Path,
) -> None:
    assert RATES["converted-checkpoint"][1] < RATES["checkpoint"][1]
    files = {
        "net.py": """
            import torch
            import torchvision
            class Net(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.body = torchvision.models.vgg16(pretrained=True).features
                    self.load_state_dict(torch.load("lin.pth"))
                def forward(self, x):
                    return torch.flatten(self.body(x), 1)
        """,
        "train.py": TRAIN.format(module="net"),
    }
    formula = build_review(str(write_repo(tmp_path / "lin", files))).effort.formula
    terms = _terms(formula)
    assert "pretrained-backbone" in terms
    assert "converted-checkpoint" in terms and "checkpoint" not in terms


def test_a_single_process_data_parallel_wrapper_is_a_mechanical_pattern() -> None:
    assert DATA_PARALLEL_PATTERN in MECHANICAL_IDIOMS
    for api in ("torch.nn.DataParallel", "torch.nn.parallel.DataParallel"):
        assert idiom_pattern(_finding(api)) == DATA_PARALLEL_PATTERN
    # the distributed wrapper is a port of its own
    assert idiom_pattern(_finding("torch.nn.parallel.DistributedDataParallel")) == "ddp"


def _finding(api: str) -> ApiFinding:
    return cast(ApiFinding, SimpleNamespace(api=api, usage="call"))
