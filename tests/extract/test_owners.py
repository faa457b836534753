"""Who owns a method: Tensor, Module, optimizer, scheduler, or nobody in torch."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import apis, scan_repo, scan_snippet, write_repo


def test_tensor_methods_on_known_tensors(tmp_path: Path) -> None:
    src = """
        import torch
        a = torch.randn(2, 3)
        b = a[0].unsqueeze(0)
        c, d = a.chunk(2, dim=1)
        e = [a, b]
        for t in e:
            t.abs()
        d.float().mean().item()
        """
    assert apis(scan_snippet(tmp_path, src)) == [
        (2, "torch.randn", "certain"),
        (3, "torch.Tensor.unsqueeze", "certain"),
        (4, "torch.Tensor.chunk", "certain"),
        (7, "torch.Tensor.abs", "certain"),
        (8, "torch.Tensor.float", "certain"),
        (8, "torch.Tensor.item", "certain"),
        (8, "torch.Tensor.mean", "certain"),
    ]


def test_forward_arguments_are_tensors_and_self_is_a_module(tmp_path: Path) -> None:
    src = """
        from torch import nn

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 3, 1)
                self.layers = nn.ModuleList([nn.ReLU()])

            def forward(self, x, scale: float = 1.0):
                y = self.conv(x).view(x.size(0), -1)
                for layer in self.layers:
                    y = layer(y)
                n = sum(p.numel() for p in self.parameters())
                return y.softmax(-1), scale.is_integer(), n
        """
    found = apis(scan_snippet(tmp_path, src))
    assert (10, "torch.Tensor.view", "certain") in found
    assert (10, "torch.Tensor.size", "certain") in found
    assert (13, "torch.nn.Module.parameters", "certain") in found
    assert (13, "torch.Tensor.numel", "certain") in found
    assert (14, "torch.Tensor.softmax", "certain") in found
    assert not [f for f in found if f[0] == 14 and "is_integer" in f[1]]


def test_module_optimizer_and_scheduler_instances(tmp_path: Path) -> None:
    src = """
        import torch
        from torch import nn, optim

        class Net(nn.Module):
            def forward(self, x):
                return x

        model = Net()
        model.eval()
        opt = optim.SGD(model.parameters(), lr=0.1, nesterov=True, momentum=0.9)
        sched = optim.lr_scheduler.CosineAnnealingLR(opt, 10)
        opt.zero_grad()
        opt.step()
        sched.step()
        model.state_dict()
        """
    found = apis(scan_snippet(tmp_path, src))
    assert (9, "torch.nn.Module.eval", "certain") in found
    assert (10, "torch.nn.Module.parameters", "certain") in found
    assert (12, "torch.optim.Optimizer.zero_grad", "certain") in found
    assert (13, "torch.optim.SGD.step", "certain") in found
    steps = [f for f in found if f[0] == 14]
    assert len(steps) == 1 and steps[0][1].endswith("LRScheduler.step") and steps[0][2] == "certain"
    assert (15, "torch.nn.Module.state_dict", "certain") in found


def test_never_a_tensor_method_on_known_non_tensors(tmp_path: Path) -> None:
    src = """
        import numpy as np
        import cv2
        from torch import nn

        def load(path, size):
            img = cv2.imread(path)
            img = img[:, ::-1].copy().transpose(2, 0, 1)
            arr = np.asarray(img).reshape(-1).sum()
            name = "a,b".split(",")
            items = [1, 2]
            items.index(1)
            d = {"k": img}
            d["k"].max()
            mod = nn.Linear(2, 2)
            mod.view = None
            view = memoryview(b"ab").tolist()
            return size.view(3)
        """
    found = apis(scan_snippet(tmp_path, src))
    # size is an argument of unknown type: a probable Tensor.view, nothing else
    assert [f for f in found if f[1].startswith("torch.Tensor")] == [
        (17, "torch.Tensor.view", "probable")
    ]


def test_unknown_receivers_are_probable_and_builtin_names_skipped(tmp_path: Path) -> None:
    src = """
        import torch
        def f(out, parts, opt_g, scheduler):
            out.permute(0, 2, 1)
            parts.split(",")
            parts.values()
            opt_g.zero_grad()
            scheduler.step()
        """
    found = apis(scan_snippet(tmp_path, src))
    assert (3, "torch.Tensor.permute", "probable") in found
    assert not [f for f in found if f[0] in (4, 5)]
    assert (6, "torch.optim.Optimizer.zero_grad", "probable") in found
    assert next(f for f in found if f[0] == 7)[1].endswith("LRScheduler.step")


def test_function_return_types_flow_to_callers(tmp_path: Path) -> None:
    src = """
        import torch
        import numpy as np

        def make():
            return torch.ones(3)

        def sample(i):
            return {"image": np.zeros(3), "label": torch.tensor(i)}

        make().exp()
        s = sample(0)
        s["image"].sum()
        s["label"].long()
        """
    found = apis(scan_snippet(tmp_path, src))
    assert (10, "torch.Tensor.exp", "certain") in found
    assert not [f for f in found if f[0] == 12]
    assert (13, "torch.Tensor.long", "certain") in found


def test_members_of_classes_defined_in_other_files(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": """
            from torch import nn

            class Base(nn.Module):
                def helper(self):
                    return 1
            """,
            "pkg/net.py": """
            from pkg.base import Base

            class Net(Base):
                def forward(self, x):
                    self.helper()
                    return list(self.parameters())

            def build():
                m = Net()
                m.train()
                m.helper()
                return m
            """,
        },
    )
    found = {
        (f.path, f.span.line, f.api, f.confidence)
        for f in scan_repo(tmp_path).api_findings
        if f.path == "pkg/net.py"
    }
    assert found == {
        ("pkg/net.py", 6, "torch.nn.Module.parameters", "certain"),
        ("pkg/net.py", 10, "torch.nn.Module.train", "certain"),
    }


def test_methods_defined_below_their_caller_are_the_users(tmp_path: Path) -> None:
    src = """
        from torch import nn

        class Net(nn.Module):
            def forward(self, x):
                self.train()
                return self.helper(x)

            def train(self, mode=True):
                return self

            def helper(self, x):
                return x.flatten(1)
        """
    found = apis(scan_snippet(tmp_path, src))
    assert not [f for f in found if f[0] == 5], found  # the class's own train(), not Module's
