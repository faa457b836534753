"""A YAML config of sections that a runner script (``main.py``, no ``train`` in its name)
loads as a plain dict, the file named by the documented command's option (``--fname``), and
hands to the training function, which reads nested keys (a training step defined inside it
reading them through its closure too) (``args["optimization"]["lr"]``,
``opt = args["optimization"]`` then ``opt["warmup"]``, a section passed on as
``build(cfg["train"])``): the recipe shows the chosen file's values with their place, and a
transform the file switches off (``use_color: false``) is not composed; the model a key names
(``models.__dict__[model_name]``, the parameter passed ``args["meta"]["model_name"]``) is a
top model, beside the one another call picks by a literal key."""

from __future__ import annotations

import ast
from pathlib import Path

from apiscan.extract.values import Expr, file_values
from apiscan.review.build import build_review
from apiscan.review.work import _option_key

README = """\
# Demo

Train with:

```bash
python main.py --fname configs/small.yaml --devices cuda:0
```
"""

MAIN = """\
import argparse

import yaml

from src.train import main as app_main

parser = argparse.ArgumentParser()
parser.add_argument('--fname', type=str, help='name of config file to load', default='c.yaml')


def process_main(fname):
    params = None
    with open(fname, 'r') as y_file:
        params = yaml.load(y_file, Loader=yaml.FullLoader)
    app_main(args=params)


if __name__ == '__main__':
    args = parser.parse_args()
    process_main(args.fname)
"""

TRAIN = """\
import torch
from torch import nn
from torchvision import transforms

from src import models


def make_transforms(crop_size=224, color=False):
    steps = [transforms.RandomResizedCrop(crop_size)]
    if color:
        steps += [transforms.ColorJitter(0.4, 0.4, 0.4)]
    steps += [transforms.ToTensor()]
    return transforms.Compose(steps)


def build(model_name='net_small'):
    encoder = models.__dict__[model_name]()
    head = models.__dict__['head']()
    return encoder, head


def schedule(section):
    return torch.optim.lr_scheduler.StepLR(OPT, step_size=section['sched']['step'])


def main(args):
    lr = args['optimization']['lr']
    opt = args['optimization']
    wd = opt['weight_decay']
    use_color = args['data']['use_color']
    transform = make_transforms(crop_size=args['data']['crop_size'], color=use_color)
    net = nn.Linear(8, 8)
    global OPT
    OPT = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=wd)
    sched = schedule(args['optimization'])
    use_bf16 = args['meta']['use_bfloat16']
    model_name = args['meta']['model_name']
    encoder, head = build(model_name=model_name)

    def train_step():
        with torch.cuda.amp.autocast(dtype=torch.bfloat16, enabled=use_bf16):
            loss = net(torch.randn(4, 8)).pow(2).mean()
        OPT.zero_grad()
        loss.backward()
        OPT.step()

    for _ in range(10):
        train_step()
        sched.step()
    return transform
"""

SMALL = """\
meta:
  use_bfloat16: true
  model_name: net_big
data:
  crop_size: 192
  use_color: false
optimization:
  lr: 0.001
  weight_decay: 0.04
  sched:
    step: 30
"""

LARGE = """\
data:
  crop_size: 224
  use_color: true
optimization:
  lr: 0.002
  weight_decay: 0.05
  sched:
    step: 60
"""


MODELS = """\
from torch import nn


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)


class Big(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 64)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 8)


def net_small():
    return Small()


def net_big():
    return Big()


def head():
    return Head()
"""


def _repo(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "configs").mkdir()
    (root / "README.md").write_text(README)
    (root / "main.py").write_text(MAIN)
    (root / "src" / "__init__.py").write_text("")
    (root / "src" / "train.py").write_text(TRAIN)
    (root / "src" / "models.py").write_text(MODELS)
    (root / "configs" / "small.yaml").write_text(SMALL)
    (root / "configs" / "large.yaml").write_text(LARGE)
    return root


def test_the_documented_option_picks_the_yaml_a_runner_script_loads(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path)), jobs=1)
    optimizer = next(i for i in review.recipe if i.category == "optimizer")
    values = dict(optimizer.values)
    # the file the README's --fname names, not the other config nor the missing default
    assert values["lr"].startswith("0.001 ")
    assert "configs/small.yaml:8" in values["lr"]
    assert "README.md" in values["lr"]
    # a local bound to a section, then read by key: optimization.weight_decay
    assert values["weight_decay"].startswith("0.04 ")
    assert "configs/small.yaml:9" in values["weight_decay"]


def test_a_section_passed_to_a_function_reads_its_nested_key(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path)), jobs=1)
    sched = next(i for i in review.recipe if i.name.endswith("StepLR"))
    step = dict(sched.values)["step_size"]
    # section['sched']['step'] with ``section`` the caller's args['optimization']
    assert step.startswith("30 ")
    assert "configs/small.yaml:11" in step


def test_a_transform_the_chosen_file_switches_off_is_not_composed(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path)), jobs=1)
    augmentation = [i for i in review.recipe if i.category == "augmentation"]
    shown = " ".join(v for i in augmentation for _, v in i.values) + " ".join(
        i.name for i in augmentation
    )
    assert "RandomResizedCrop(192)" in shown
    assert "ColorJitter" not in shown


def _expr(text: str) -> Expr:
    code = f"x = {text}\n"
    (assign,) = file_values(ast.parse(code), code).assigns
    return assign.value


def test_a_local_holding_a_section_reads_the_dotted_key() -> None:
    section = _expr("args['data']")
    assert _option_key(_expr("data['flip']"), {"data": section}) == "config:data.flip"
    assert _option_key(_expr("data['flip']")) == "config:flip"


def test_a_nested_step_reads_the_setting_its_enclosing_function_loads(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path)), jobs=1)
    amp = next(i for i in review.recipe if i.name.endswith("autocast"))
    enabled = dict(amp.values)["enabled"]
    # ``use_bf16`` of the ``main`` that defines ``train_step``, read from the file
    assert enabled.startswith("true ")
    assert "configs/small.yaml:2" in enabled


def test_the_model_a_config_key_names_is_a_top_model(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path)), jobs=1)
    picks = {
        m.cls.rpartition(".")[2]: dict(m.parts).get("selected by", "") for m in review.top_models
    }
    # ``models.__dict__[model_name]``, the parameter passed the file's meta.model_name
    assert "Big" in picks
    assert "'net_big'" in picks["Big"]
    assert "Small" not in picks
    # the namespace entry another call picks by a literal key is built too: no alternative
    assert "Head" in picks
    big = next(m for m in review.top_models if m.cls.endswith(".Big"))
    assert dict(big.parts).get("alternatives") == "Small (net_small)"
