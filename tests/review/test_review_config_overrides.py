"""The base experiment's values that every experiment the documented commands load sets
again (issue 20 item 1: the recipe from what runs): the base's ``max_epoch = 300`` and its
own ``get_data_loader`` give no row where each launched experiment sets ``max_epoch = 80``
and builds its own loader; what the launched experiments leave to the base stays."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

BASE = """
    import torch
    from lib.net import Net
    class Exp:
        def __init__(self):
            self.max_epoch = 300
            self.weight_decay = 5e-4
        def get_model(self):
            return Net()
        def get_data_loader(self, batch_size):
            return torch.utils.data.DataLoader(range(8), batch_size=batch_size, num_workers=2)
        def get_optimizer(self, model):
            return torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=self.weight_decay)
        def get_lr_scheduler(self, opt):
            return torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=self.max_epoch)
"""

EXP = """
    import torch
    from lib.exp import Exp as BaseExp
    class Exp(BaseExp):
        def __init__(self):
            super().__init__()
            self.max_epoch = {epochs}
        def get_data_loader(self, batch_size):
            return torch.utils.data.DataLoader(range(8), batch_size=batch_size, num_workers=4)
"""

REPO = {
    "lib/__init__.py": "",
    "lib/net.py": """
        import torch
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(2, 2)
            def forward(self, x):
                return self.fc(x).sum()
    """,
    "lib/exp.py": BASE,
    "lib/trainer.py": """
        import importlib.util
        def get_exp(path):
            spec = importlib.util.spec_from_file_location("exp", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module.Exp()
        def train(exp, batch_size):
            model = exp.get_model()
            opt = exp.get_optimizer(model)
            sched = exp.get_lr_scheduler(opt)
            for epoch in range(exp.max_epoch):
                for x in exp.get_data_loader(batch_size):
                    loss = model(x)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                sched.step()
    """,
    "tools/train.py": """
        import argparse
        from lib.trainer import get_exp, train
        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("-f", "--exp_file", type=str, default=None)
            parser.add_argument("-b", "--batch-size", type=int, default=64)
            args = parser.parse_args()
            train(get_exp(args.exp_file), args.batch_size)
    """,
    "exps/a.py": EXP.replace("{epochs}", "80"),
    "exps/b.py": EXP.replace("{epochs}", "60"),
    "README.md": (
        "# Train\n\n```\npython tools/train.py -f exps/a.py -b 8\n"
        "python tools/train.py -f exps/b.py -b 8\n```\n"
    ),
}


def test_base_values_every_launched_config_replaces_give_no_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "exps", REPO)))
    rows = [(i.category, i.name, i.where.path, i.values) for i in review.recipe]
    base = [r for r in rows if r[2] == "lib/exp.py"]
    assert not any(name.endswith("max_epoch") for _, name, _, _ in base), base
    assert not any(cat == "dataloader" for cat, _, _, _ in base), base
    # the launched experiments' own values are the recipe
    assert any(r[2] == "exps/a.py" and r[1].endswith("max_epoch") for r in rows), rows
    assert any(r[2] == "exps/a.py" and r[0] == "dataloader" for r in rows), rows
    # what they leave to the base stays the base's
    assert any(r[2] == "lib/exp.py" and r[0] == "optimizer" for r in rows), rows


def test_an_override_calling_the_base_keeps_its_rows(tmp_path: Path) -> None:
    chained = EXP.replace("{epochs}", "60").replace(
        "return torch.utils.data.DataLoader(range(8), batch_size=batch_size, num_workers=4)",
        "return super().get_data_loader(batch_size)",
    )
    review = build_review(str(write_repo(tmp_path / "exps", {**REPO, "exps/b.py": chained})))
    assert any(
        i.where.path == "lib/exp.py" and i.category == "dataloader" for i in review.recipe
    ), review.recipe


def test_a_base_method_reads_what_the_launched_configs_set(tmp_path: Path) -> None:
    # the base's scheduler reads self.max_epoch: 80 and 60 in the launched experiments,
    # never the base's 300
    review = build_review(str(write_repo(tmp_path / "exps", REPO)))
    (row,) = [i for i in review.recipe if i.name.endswith("CosineAnnealingLR")]
    t_max = dict(row.values)["T_max"]
    assert "80" in t_max and "60" in t_max and "300" not in t_max, t_max
