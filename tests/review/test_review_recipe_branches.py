"""The recipe from what runs, one branch at a time: an optimizer chain picked by a name the
defaults decide (timm-style ``create_optimizer``), the other frameworks' projects counted apart
with their configs (ConvNeXt's mmdet/mmseg folders), options declared from a dict of defaults
and a loss method bound by ``functools.partial`` (guided-diffusion), a GAN's critic steps and
gradient penalty (stargan), and what is no recipe row (a validation sampler, a routine that
sets the run's options, a layer-decay assigner). Small repositories written inline."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe


def recipe(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def named(items: tuple[RecipeItem, ...], category: str) -> list[RecipeItem]:
    return [i for i in items if i.category == category]


FACTORY = """
    import torch
    from torch import optim


    def create_optimizer(args, model):
        opt_lower = args.opt.lower()
        opt_args = dict(lr=args.lr, weight_decay=args.weight_decay)
        opt_split = opt_lower.split('_')
        opt_lower = opt_split[-1]
        if opt_lower == 'sgd' or opt_lower == 'nesterov':
            optimizer = optim.SGD(model.parameters(), momentum=0.9, nesterov=True, **opt_args)
        elif opt_lower == 'adam':
            optimizer = optim.Adam(model.parameters(), **opt_args)
        elif opt_lower == 'adamw':
            optimizer = optim.AdamW(model.parameters(), **opt_args)
        elif opt_lower == 'rmsprop':
            optimizer = optim.RMSprop(model.parameters(), alpha=0.9, **opt_args)
        else:
            raise ValueError(opt_lower)
        return optimizer
"""

MAIN = """
    import argparse
    import torch
    from optim_factory import create_optimizer


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--opt', default=OPT, type=str)
        parser.add_argument('--lr', default=4e-3, type=float)
        parser.add_argument('--weight_decay', default=0.05, type=float)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        optimizer = create_optimizer(args, model)
        loss = model(torch.ones(2)).sum()
        loss.backward()
        optimizer.step()


    if __name__ == '__main__':
        main()
"""


def test_the_optimizer_the_default_name_picks_is_the_one_row(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {"optim_factory.py": FACTORY, "main.py": MAIN.replace("OPT", "'fused_AdamW'")},
    )
    rows = named(recipe(tmp_path), "optimizer")
    built = [i for i in rows if i.name.startswith("torch.optim.")]
    # 'fused_AdamW'.lower().split('_')[-1] == 'adamw': the other three never run
    assert [i.name for i in built] == ["torch.optim.AdamW"]
    assert built[0].note == "the branch taken with the defaults: if opt_lower == 'adamw'"
    assert dict(built[0].values)["lr"].startswith("4e-3 (")


def test_a_name_no_default_decides_shows_each_branch_as_an_alternative(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {"optim_factory.py": FACTORY, "main.py": MAIN.replace("OPT", "None")},
    )
    rows = named(recipe(tmp_path), "optimizer")
    built = sorted((i.name, i.note) for i in rows if i.name.startswith("torch.optim."))
    assert [name for name, _ in built] == [
        "torch.optim.Adam",
        "torch.optim.AdamW",
        "torch.optim.RMSprop",
        "torch.optim.SGD",
    ]
    assert all(
        note.startswith("one of 4 alternatives shown, built if opt_lower == ") for _, note in built
    )


TRAIN_LOOP = """
    import argparse
    import torch
    import torch.distributed as dist
    from torch.utils.data import DataLoader, DistributedSampler


    class LayerDecayValueAssigner:
        def __init__(self, values):
            self.values = values

        def get_scale(self, layer_id):
            return self.values[layer_id]


    def init_distributed_mode(args):
        args.distributed = True
        args.dist_backend = 'nccl'
        dist.init_process_group(backend=args.dist_backend)


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--layer_decay', default=0.8, type=float)
        args = parser.parse_args()
        init_distributed_mode(args)
        assigner = LayerDecayValueAssigner([args.layer_decay ** i for i in range(4)])
        dataset_train = torch.utils.data.TensorDataset(torch.ones(8, 2))
        dataset_val = torch.utils.data.TensorDataset(torch.ones(8, 2))
        sampler_train = DistributedSampler(dataset_train, shuffle=True)
        sampler_val = DistributedSampler(dataset_val, shuffle=False)
        loader = DataLoader(dataset_train, sampler=sampler_train, batch_size=4)
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=assigner.get_scale(0))
        for (x,) in loader:
            model(x).sum().backward()
            optimizer.step()


    if __name__ == '__main__':
        main()
"""


def test_what_is_no_recipe_row(tmp_path: Path) -> None:
    write_repo(tmp_path, {"main.py": TRAIN_LOOP})
    items = recipe(tmp_path)
    samplers = [i for i in items if i.name.endswith("DistributedSampler")]
    # the validation split's sampler is not how the model is trained
    assert [i.where.line for i in samplers] == [29]
    # a routine that sets the run's options initialises no weights
    assert not named(items, "init")
    # an assigner of layer-wise learning-rate scales is the optimizer's, not a loss
    assert not named(items, "loss")
    assert "main.LayerDecayValueAssigner" in {i.name for i in named(items, "optimizer")}


MM_CONFIG = """
    model = dict(type='MaskRCNN', roi_head=dict(
        bbox_head=dict(loss_cls=dict(type='CrossEntropyLoss', loss_weight=1.0))))
    optimizer = dict(type='AdamW', lr=0.0001, weight_decay=0.05)
    lr_config = dict(policy='step', step=[27, 33])
    runner = dict(type='EpochBasedRunner', max_epochs=36)
"""
MM_BACKBONE = """
    import torch.nn as nn
    from mmdet.models.builder import BACKBONES


    @BACKBONES.register_module()
    class Net(nn.Module):
        def forward(self, x):
            return x
"""


def test_an_adapter_project_beside_the_training_gives_no_rows(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "optim_factory.py": FACTORY,
            "main.py": MAIN.replace("OPT", "'adamw'"),
            "object_detection/configs/mask_rcnn_3x.py": MM_CONFIG,
            "object_detection/mmdet/models/backbones/net.py": MM_BACKBONE,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    # the mmdet project, its configs with it, is counted apart, and the recipe is main.py's
    apart = dict(review.ancillary)
    assert apart["object_detection/configs/mask_rcnn_3x.py"] == (
        "adapter for mmdet (object_detection/)"
    )
    assert not [i for i in review.recipe if i.where.path.startswith("object_detection/")]
    assert [i.name for i in review.recipe if i.name.startswith("torch.optim.")] == [
        "torch.optim.AdamW"
    ]


GAN = """
    import argparse
    import torch


    class Solver:
        def __init__(self, config):
            self.n_critic = config.n_critic
            self.lambda_gp = config.lambda_gp
            self.D = torch.nn.Linear(2, 1)
            self.d_optimizer = torch.optim.Adam(self.D.parameters(), 1e-4)

        def gradient_penalty(self, y, x):
            dydx = torch.autograd.grad(outputs=y, inputs=x, grad_outputs=torch.ones_like(y),
                                       create_graph=True)[0]
            return ((dydx.norm(2, dim=1) - 1) ** 2).mean()

        def train(self):
            for i in range(10):
                x = torch.ones(4, 2, requires_grad=True)
                out = self.D(x)
                d_loss = -out.mean() + self.lambda_gp * self.gradient_penalty(out, x)
                d_loss.backward()
                self.d_optimizer.step()
                if (i + 1) % self.n_critic == 0:
                    pass


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--lambda_gp', type=float, default=10)
        parser.add_argument('--n_critic', type=int, default=5)
        Solver(parser.parse_args()).train()
"""


def test_a_gans_critic_steps_and_gradient_penalty(tmp_path: Path) -> None:
    write_repo(tmp_path, {"solver.py": GAN})
    items = recipe(tmp_path)
    assert ("argparse --n_critic", (("default", "5"),)) in {
        (i.name, i.values) for i in named(items, "alternation")
    }
    losses = {i.name for i in named(items, "loss")}
    assert {"argparse --lambda_gp", "solver.Solver.gradient_penalty"} <= losses


SCRIPT_UTIL = """
    def diffusion_defaults():
        return dict(diffusion_steps=1000, noise_schedule="linear", use_kl=False)


    def model_and_diffusion_defaults():
        res = dict(image_size=64, use_fp16=False)
        res.update(diffusion_defaults())
        return res


    def add_dict_to_argparser(parser, default_dict):
        for k, v in default_dict.items():
            parser.add_argument(f"--{k}", default=v, type=type(v))
"""
DIFFUSION = """
    class GaussianDiffusion:
        def training_losses(self, model, x_start, t, model_kwargs=None):
            return {"loss": (model(x_start, t) - x_start) ** 2}
"""
TRAIN_UTIL = """
    import functools
    import torch


    class TrainLoop:
        def __init__(self, model, diffusion, lr, ema_rate):
            self.model = model
            self.diffusion = diffusion
            self.opt = torch.optim.AdamW(model.parameters(), lr=lr)
            self.ema_rate = ema_rate

        def run_step(self, batch, t):
            compute_losses = functools.partial(
                self.diffusion.training_losses, self.model, batch, t, model_kwargs={}
            )
            losses = compute_losses()
            losses["loss"].mean().backward()
            self.opt.step()
"""
IMAGE_TRAIN = """
    import argparse
    from script_util import add_dict_to_argparser, model_and_diffusion_defaults
    from train_util import TrainLoop


    def create_argparser():
        defaults = dict(lr=1e-4, ema_rate="0.9999", fp16_scale_growth=1e-3, microbatch=-1)
        defaults.update(model_and_diffusion_defaults())
        parser = argparse.ArgumentParser()
        add_dict_to_argparser(parser, defaults)
        return parser


    def main():
        args = create_argparser().parse_args()
        TrainLoop(None, None, lr=args.lr, ema_rate=args.ema_rate)


    if __name__ == "__main__":
        main()
"""


def test_options_from_a_dict_of_defaults_and_a_partial_loss(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "script_util.py": SCRIPT_UTIL,
            "diffusion.py": DIFFUSION,
            "train_util.py": TRAIN_UTIL,
            "image_train.py": IMAGE_TRAIN,
        },
    )
    items = recipe(tmp_path)
    settings = {(i.category, i.name): dict(i.values).get("default") for i in items}
    assert settings[("ema", "argparse --ema_rate")] == '"0.9999"'
    assert settings[("amp", "argparse --fp16_scale_growth")] == "1e-3"
    assert settings[("amp", "argparse --use_fp16")] == "False"
    assert settings[("loss", "argparse --noise_schedule")] == '"linear"'
    assert settings[("loss", "argparse --diffusion_steps")] == "1000"
    assert settings[("grad_accum", "argparse --microbatch")] == "-1"
    loss = next(i for i in named(items, "loss") if i.name == "GaussianDiffusion.training_losses")
    assert loss.where.path == "train_util.py"
    assert loss.note == (
        "bound by functools.partial, stored as compute_losses; "
        "defined as GaussianDiffusion.training_losses at diffusion.py:2"
    )
    # the optimizer's learning rate is the dict's default
    adamw = next(i for i in items if i.name == "torch.optim.AdamW")
    assert dict(adamw.values)["lr"].startswith("1e-4 (")


SWITCHED = """
    import argparse
    import torch
    from torch import optim


    def train(opt):
        model = torch.nn.Linear(2, 2)
        if opt.adam:
            optimizer = optim.Adam(model.parameters(), lr=opt.lr)
        else:
            optimizer = optim.Adadelta(model.parameters(), lr=opt.lr)
        model(torch.ones(2)).sum().backward()
        optimizer.step()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--adam', action='store_true')
        parser.add_argument('--lr', type=float, default=1)
        train(parser.parse_args())
"""


def test_the_else_branch_a_switch_left_off_takes(tmp_path: Path) -> None:
    write_repo(tmp_path, {"train.py": SWITCHED})
    built = [i for i in named(recipe(tmp_path), "optimizer") if i.name.startswith("torch.")]
    # --adam is off by default: the else branch builds Adadelta, Adam never runs
    assert [(i.name, i.note) for i in built] == [
        ("torch.optim.Adadelta", "the branch taken with the defaults: else of if opt.adam")
    ]


def test_settings_named_for_the_training_length_and_the_gan_and_diffusion_recipes() -> None:
    from apiscan.review.recipe import _setting_category

    assert _setting_category("num_iter") == "epochs"  # deep-text-recognition's --num_iter
    assert _setting_category("iter") is None  # a loop's counter
    assert _setting_category("n_critic") == "alternation"
    assert _setting_category("fp16_scale_growth") == "amp"
    assert _setting_category("noise_schedule") == "loss"
    assert _setting_category("lr_anneal_steps") == "scheduler"
    assert _setting_category("microbatch") == "grad_accum"


NO_CALLER = """
    import torch


    def smart_optimizer(model, name='Adam', lr=0.001):
        if name == 'Adam':
            optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        elif name == 'SGD':
            optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        else:
            raise NotImplementedError(name)
        return optimizer
"""


def test_a_parameter_default_with_no_caller_found_decides_no_branch(tmp_path: Path) -> None:
    write_repo(tmp_path, {"utils.py": NO_CALLER})
    built = [i for i in named(recipe(tmp_path), "optimizer") if i.name.startswith("torch.")]
    # the callers (not found) pass --optimizer: the default 'Adam' picks nothing
    assert sorted(i.name for i in built) == ["torch.optim.Adam", "torch.optim.SGD"]
    assert all(i.note.startswith("one of 2 alternatives shown") for i in built)


LOSSES = """
    import argparse
    import torch
    from timm.loss import LabelSmoothingCrossEntropy, SoftTargetCrossEntropy
    from mixing import make_mixup


    def main(args):
        mixup_fn = make_mixup(args)
        if mixup_fn is not None:
            criterion = SoftTargetCrossEntropy()
        elif args.smoothing > 0.:
            criterion = LabelSmoothingCrossEntropy(smoothing=args.smoothing)
        else:
            criterion = torch.nn.CrossEntropyLoss()
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        criterion(model(torch.ones(1, 2)), torch.zeros(1).long()).backward()
        optimizer.step()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--smoothing', type=float, default=0.1)
        main(parser.parse_args())
"""


def test_an_elif_whose_earlier_test_is_unknown_is_not_taken_for_sure(tmp_path: Path) -> None:
    write_repo(tmp_path, {"main.py": LOSSES})
    notes = {i.name: i.note for i in named(recipe(tmp_path), "loss")}
    # smoothing 0.1 holds, but only if mixup_fn is None, which is not known here
    assert "the branch taken" not in notes["timm.loss.LabelSmoothingCrossEntropy"]
    assert "the branch taken" not in notes["timm.loss.SoftTargetCrossEntropy"]


def test_options_of_a_dict_of_defaults_take_the_documented_command_s_values(
    tmp_path: Path,
) -> None:
    """The README sets its flags in shell variables and runs ``python image_train.py
    $DIFFUSION_FLAGS $TRAIN_FLAGS``: the options declared from a dict of defaults (their
    values written in another module) are the command's, as a literal ``add_argument`` is."""
    write_repo(
        tmp_path,
        {
            "script_util.py": SCRIPT_UTIL,
            "diffusion.py": DIFFUSION,
            "train_util.py": TRAIN_UTIL,
            "image_train.py": IMAGE_TRAIN,
        },
    )
    (tmp_path / "README.md").write_text(
        "```\n"
        'DIFFUSION_FLAGS="--diffusion_steps 4000 --noise_schedule cosine"\n'
        'TRAIN_FLAGS="--lr 3e-4"\n'
        "```\n\n"
        "    python image_train.py --data_dir x $DIFFUSION_FLAGS $TRAIN_FLAGS\n",
        encoding="utf-8",
    )
    items = recipe(tmp_path)
    launched = {(i.category, i.name): dict(i.values).get("launched") for i in items}
    assert launched[("loss", "argparse --diffusion_steps")] == "4000 (README.md:6)"
    assert launched[("loss", "argparse --noise_schedule")] == "'cosine' (README.md:6)"
    adamw = next(i for i in items if i.name == "torch.optim.AdamW")
    assert dict(adamw.values)["lr"].startswith("3e-4 (")
