"""A receiver is a PyTorch object only when something says so.

A file that imports no torch package and gets no torch value from the repository's other
files is numpy or plain Python: nothing in it is guessed to be a tensor or a module. In torch
files, the fields of a `(values, indices)` named tuple are not the sparse-tensor methods, and
a property of a plain class is not a tensor.
"""

from __future__ import annotations

from pathlib import Path

from scan_helpers import api_set, apis, scan_repo, scan_snippet, write_repo


def test_a_file_without_torch_yields_no_torch_methods(tmp_path: Path) -> None:
    src = """
        import numpy as np

        def preprocess(img, boxes):
            out = img.transpose(2, 0, 1)
            boxes.clip(0, 1)
            scores = boxes.max(1)
            return out.astype(np.float32).sum(), scores.argmax()
        """
    assert scan_snippet(tmp_path, src) == []


def test_numpy_arrays_are_not_tensors_in_a_torch_file(tmp_path: Path) -> None:
    src = """
        import numpy as np
        import torch

        def f(x):
            a = np.zeros((3, 4))
            a.transpose(1, 0).sum()
            return torch.from_numpy(a)
        """
    assert api_set(scan_snippet(tmp_path, src)) == {(7, "torch.from_numpy")}


def test_a_tensor_from_another_file_makes_the_file_torch(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/make.py": "import torch\n\ndef make():\n    return torch.ones(3)\n",
            "pkg/use.py": (
                "from pkg.make import make\n\n"
                "def g(y):\n    x = make()\n    x.view(-1)\n    return y.permute(1, 0)\n"
            ),
        },
    )
    found = {(f.path, f.span.line, f.api) for f in scan_repo(tmp_path).api_findings}
    assert ("pkg/use.py", 5, "torch.Tensor.view") in found
    # the file receives tensors, so an unknown receiver may be one (probable)
    assert ("pkg/use.py", 6, "torch.Tensor.permute") in found


def test_named_tuple_fields_are_not_sparse_methods(tmp_path: Path) -> None:
    src = """
        import torch

        def f(x: torch.Tensor, d):
            a = x.min(dim=-1).values
            b = torch.max(x, 1).indices
            c = x.topk(3).values.float()
            v, i = x.sort(dim=1)
            return a, b, c, v, i, d.max(1).indices, x.values()
        """
    found = api_set(scan_snippet(tmp_path, src))
    assert not [f for f in found if f[1] == "torch.Tensor.values" and f[0] != 8]
    assert "torch.Tensor.indices" not in {api for _, api in found}
    assert (6, "torch.Tensor.float") in found  # the field is a tensor
    assert (8, "torch.Tensor.values") in found  # a call: the sparse method


def test_an_isinstance_test_narrows_a_guessed_tensor_to_a_builtin(tmp_path: Path) -> None:
    # A `model: nn.Module` runs a forward written elsewhere; training code often gets a dict
    # of losses back (`isinstance(losses, dict)`), whose `.values()` is not Tensor.values.
    src = """
        import torch
        from torch import nn

        def step(model: nn.Module, inputs, conv: nn.Conv2d):
            losses = model(inputs)
            if isinstance(losses, dict):
                losses = sum(losses.values())
            losses.backward()
            return conv(inputs).values()
        """
    findings = scan_snippet(tmp_path, src)
    found = {(f.span.line, f.api): f.confidence for f in findings}
    assert (7, "torch.Tensor.values") not in found
    assert (8, "torch.Tensor.backward") in found  # after the `if`, still the model's output
    assert (9, "torch.Tensor.values") in found  # a Conv2d's output is a tensor for certain


def test_plain_objects_are_not_tensors_or_modules(tmp_path: Path) -> None:
    src = """
        import torch

        class Logger:
            @property
            def run(self):
                return self._run

            def log(self, metrics):
                self.run.log(metrics)

        def main(trainer, model):
            trainer.train()
            model.train()
        """
    found = api_set(scan_snippet(tmp_path, src))
    assert found == {(13, "torch.nn.Module.train")}


def test_a_method_numpy_lacks_still_says_tensor_without_an_import(tmp_path: Path) -> None:
    """`accuracy(output, target)` lives in a file without torch but is called with tensors:
    `topk` and `numel` are no numpy methods, so the receiver is (probably) a tensor."""
    src = """
        def accuracy(output, target):
            _, pred = output.topk(5, 1, True, True)
            if target.numel() == 0:
                return 0
            return pred.eq(target.reshape(1, -1)).sum()
        """
    found = {(f.span.line, f.api, f.confidence) for f in scan_snippet(tmp_path, src)}
    assert (2, "torch.Tensor.topk", "probable") in found
    assert (3, "torch.Tensor.numel", "probable") in found
    assert (5, "torch.Tensor.eq", "probable") in found  # pred came from a tensor method


def test_another_framework_is_not_torch(tmp_path: Path) -> None:
    src = """
        import megengine.functional as F

        def head(output):
            output = output.permute(0, 2, 1)
            return F.concat([output.numel()])
        """
    assert scan_snippet(tmp_path, src) == []


def test_calling_what_numpy_holds_as_data_says_tensor(tmp_path: Path) -> None:
    src = "def width(output):\n    return output.size()[1]\n"
    assert {(f.span.line, f.api) for f in scan_snippet(tmp_path, src)} == {(2, "torch.Tensor.size")}


def test_a_repository_context_manager_binds_its_own_instance(tmp_path: Path) -> None:
    # `with Storage() as s: s.step()` calls the repository's Storage.step, not a torch
    # optimizer's step guessed from the name.
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/events.py": """
            import torch

            class Storage:
                def __enter__(self):
                    return self

                def __exit__(self, *exc):
                    return False

                def step(self):
                    self.t = torch.zeros(1)
            """,
            "pkg/test_events.py": """
            from pkg.events import Storage

            def run():
                with Storage() as s:
                    s.step()
            """,
        },
    )
    found = {(f.path, f.api) for f in scan_repo(tmp_path).api_findings}
    assert not [f for f in found if f[0] == "pkg/test_events.py"], found


def test_a_torch_context_manager_that_enters_itself_binds_its_instance(tmp_path: Path) -> None:
    # `with torch.profiler.profile(...) as prof: prof.step()` steps the profiler (nanoGPT's
    # bench.py), not an optimizer guessed from the method's name
    src = """
        import torch

        def bench(steps):
            with torch.profiler.profile(record_shapes=False) as prof:
                for _ in range(steps):
                    prof.step()
        """
    found = {(line, api) for line, api, _ in apis(scan_snippet(tmp_path, src))}
    assert (6, "torch.profiler.profile.step") in found
    assert not [f for f in found if f[1] == "torch.optim.Optimizer.step"], found


def test_a_list_collecting_tensors_yields_tensors(tmp_path: Path) -> None:
    # runtime-measured on YOLOX (yolo_head.py): `outputs.append(torch.cat(...))` in a loop over
    # levels, then `[x.shape[-2:] for x in outputs]` read Tensor.shape, not reported before
    src = """
        import torch

        def f(levels, names):
            outputs, kept = [], []
            for x in levels:
                outputs.append(torch.cat([x, x], 1))
                kept.append(names.pop())
            sizes = [o.shape[-2:] for o in outputs]
            flat = [o.flatten(start_dim=2) for o in outputs]
            return sizes, flat, [k.strip() for k in kept]
        """
    found = {(line, api, conf) for line, api, conf in apis(scan_snippet(tmp_path, src))}
    assert (8, "torch.Tensor.shape", "certain") in found
    assert (9, "torch.Tensor.flatten", "certain") in found
    assert not [f for f in found if f[0] == 10]  # a list of whatever pop() gave is no tensor


def test_a_state_dict_maps_names_to_tensors(tmp_path: Path) -> None:
    # runtime-measured on YOLOX (utils/ema.py): the values of `ema.state_dict().items()` are
    # tensors; `v.dtype` was not reported, `msd[k].detach()` only guessed
    src = """
        import torch.nn as nn

        def update(ema: nn.Module, model, d):
            msd = model.state_dict()
            for k, v in ema.state_dict().items():
                if v.dtype.is_floating_point:
                    v += (1.0 - d) * msd[k].detach()
            return {"a": 1}[k], list(msd.values())[0].float()
        """
    found = {(line, api, conf) for line, api, conf in apis(scan_snippet(tmp_path, src))}
    assert (6, "torch.Tensor.dtype", "certain") in found
    assert (7, "torch.Tensor.detach", "probable") in found  # `model` is only named a model
    assert (8, "torch.Tensor.float", "probable") in found


def test_calling_a_parameter_whose_default_is_a_torch_class(tmp_path: Path) -> None:
    # runtime-measured on timm (resnet.py): `self.bn1 = norm_layer(planes)` with
    # `norm_layer=nn.BatchNorm2d` builds a BatchNorm2d at that line; not reported before
    src = """
        import torch.nn as nn

        class Block(nn.Module):
            def __init__(self, planes, norm_layer=nn.BatchNorm2d, act_layer=nn.ReLU, n=None):
                super().__init__()
                self.bn1 = norm_layer(planes)
                self.act = act_layer(inplace=True)
                self.other = n(planes)
        """
    found = apis(scan_snippet(tmp_path, src))
    assert (6, "torch.nn.BatchNorm2d", "probable") in found  # a caller may pass another
    assert (7, "torch.nn.ReLU", "probable") in found
    assert not [f for f in found if f[0] == 8]


def test_calling_one_of_two_torch_classes(tmp_path: Path) -> None:
    # runtime-measured on timm (layers/mlp.py, classifier.py): `linear_layer = partial(
    # nn.Conv2d, kernel_size=1) if use_conv else nn.Linear`, then `linear_layer(a, b)` built a
    # Linear (vit) or a Conv2d (convnext) at that line
    src = """
        from functools import partial
        import torch.nn as nn

        def head(a, b, use_conv):
            linear_layer = partial(nn.Conv2d, kernel_size=1) if use_conv else nn.Linear
            fc = linear_layer(a, b)
            conv = partial(nn.Conv2d, kernel_size=3)
            return fc, conv(a, b)

        def downsample(c, norm_layer=None):
            norm_layer = norm_layer or nn.BatchNorm2d
            return norm_layer(c)
        """
    found = apis(scan_snippet(tmp_path, src))
    assert (6, "torch.nn.Conv2d", "probable") in found
    assert (6, "torch.nn.Linear", "probable") in found
    assert (8, "torch.nn.Conv2d", "probable") in found
    assert (12, "torch.nn.BatchNorm2d", "probable") in found  # `x or nn.BatchNorm2d`


def test_calling_a_conditional_expression_of_torch_classes(tmp_path: Path) -> None:
    # ultralytics/yolov5 utils/torch_utils.py: `(torch.inference_mode if ok else
    # torch.no_grad)()(fn)` once stopped the file with an internal error (the conditional
    # expression had no position of its own)
    src = """
        import torch
        from torch import nn

        def build(c, fn, ok):
            layer = (nn.Conv2d if c else nn.Linear)(3, 4)
            return layer, (torch.inference_mode if ok else torch.no_grad)()(fn)
        """
    write_repo(tmp_path, {"snippet.py": src})
    result = scan_repo(tmp_path)
    assert not result.error_findings
    found = apis(list(result.api_findings))
    assert (5, "torch.nn.Conv2d", "probable") in found
    assert (5, "torch.nn.Linear", "probable") in found
