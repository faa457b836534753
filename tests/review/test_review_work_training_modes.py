"""Work items of what the training step does beyond the API rows, one class each, on small
repositories written here: a gradient differentiated again (a WGAN-GP gradient penalty with
``create_graph=True``, no custom autograd Function anywhere), BatchNorm layers put in
evaluation mode by a function the training loop calls after ``model.train()`` (MindSpore's
``set_train`` cascades and undoes it), and forward hooks the network registers to collect
intermediate outputs (graph mode does not trace the side effect)."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

MODEL = """
    import torch
    from torch import nn


    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(4)])
            self.blocks[1].register_forward_hook(self._hook)

        def _hook(self, module, inputs, output):
            self.kept = output

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return x + self.kept


    class Critic(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3)
            self.bn = nn.BatchNorm2d(8)
            self.fc = nn.Linear(8, 1)

        def forward(self, x):
            return self.fc(self.bn(self.conv(x)).mean((2, 3)))

        def freeze_bn(self):
            for layer in self.modules():
                if isinstance(layer, nn.BatchNorm2d):
                    layer.eval()
"""

TRAIN = """
    import torch

    from model import Critic, Encoder


    def gradient_penalty(critic, x):
        x.requires_grad_(True)
        y = critic(x)
        grad = torch.autograd.grad(outputs=y, inputs=x, grad_outputs=torch.ones_like(y),
                                   retain_graph=True, create_graph=True, only_inputs=True)[0]
        return ((grad.view(grad.size(0), -1).norm(2, dim=1) - 1) ** 2).mean()


    def evaluate(critic, loader):
        critic.eval()
        with torch.no_grad():
            return sum(critic(x).sum() for x in loader)


    def main(loader):
        critic = Critic()
        encoder = Encoder()
        opt = torch.optim.Adam(critic.parameters(), lr=1e-4)
        for epoch in range(10):
            critic.train()
            critic.freeze_bn()
            for x in loader:
                loss = critic(x).mean() + 10 * gradient_penalty(critic, x)
                opt.zero_grad()
                loss.backward()
                opt.step()
            evaluate(critic, loader)


    if __name__ == "__main__":
        main([torch.randn(2, 3, 8, 8)])
"""

# INVALID: a saliency map's gradient (no create_graph), a freeze only an evaluation calls,
# a whole model's eval in an evaluation function, and a hook in a tool that is not ported
PLAIN_MODEL = MODEL.replace("self.blocks[1].register_forward_hook(self._hook)", "pass")
PLAIN_TRAIN = """
    import torch

    from model import Critic


    def saliency(critic, x):
        x.requires_grad_(True)
        y = critic(x)
        return torch.autograd.grad(outputs=y.sum(), inputs=x)[0]


    def evaluate(critic, loader):
        critic.eval()
        critic.freeze_bn()
        with torch.no_grad():
            return sum(critic(x).sum() for x in loader)


    def main(loader):
        critic = Critic()
        opt = torch.optim.Adam(critic.parameters(), lr=1e-4)
        for epoch in range(10):
            critic.train()
            for x in loader:
                loss = critic(x).mean() + saliency(critic, x).abs().mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            evaluate(critic, loader)


    if __name__ == "__main__":
        main([torch.randn(2, 3, 8, 8)])
"""
TOOL = """
    import torch

    from model import Encoder


    def dump_features(x):
        encoder = Encoder()
        found = []
        encoder.blocks[0].register_forward_hook(lambda m, i, o: found.append(o))
        encoder(x)
        return found


    if __name__ == "__main__":
        dump_features(torch.randn(2, 8))
"""


@pytest.fixture(scope="module")
def critic(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = tmp_path_factory.mktemp("critic")
    write_repo(root, {"train.py": TRAIN, "model.py": MODEL})
    return build_review(str(root), jobs=1)


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = tmp_path_factory.mktemp("plain")
    write_repo(
        root, {"train.py": PLAIN_TRAIN, "model.py": PLAIN_MODEL, "tools/dump_features.py": TOOL}
    )
    return build_review(str(root), jobs=1)


def _work(review: Review, kind: str) -> dict[str, list[str]]:
    return {i.what: [str(w) for w in i.where] for i in review.work if i.kind == kind}


def test_a_gradient_penalty_is_a_second_order_item_without_custom_functions(
    critic: Review,
) -> None:
    # VALID: autograd.grad(create_graph=True) in a method-free function of the training step
    assert _work(critic, "second-order-grad") == {
        "torch.autograd.grad(create_graph=True) in gradient_penalty": ["train.py:9"]
    }
    item = next(i for i in critic.work if i.kind == "second-order-grad")
    assert "mindspore.grad(D, grad_position=0)" in item.why
    assert "1 gradient-penalty × 1–2" in critic.effort.formula


def test_a_gradient_without_create_graph_is_no_second_order_item(plain: Review) -> None:
    # INVALID: a saliency map's gradient is taken once
    assert _work(plain, "second-order-grad") == {}
    assert "second-order-grad" not in plain.effort.formula
    assert "gradient-penalty" not in plain.effort.formula


def test_batch_norm_frozen_after_train_is_an_item(critic: Review) -> None:
    # VALID: freeze_bn puts the BatchNorm layers in eval mode; main calls it after train()
    assert _work(critic, "bn-frozen") == {
        "BatchNorm layers frozen in training: Critic.freeze_bn": ["model.py:33", "train.py:26"]
    }
    item = next(i for i in critic.work if i.kind == "bn-frozen")
    assert "use_batch_statistics=False" in item.why
    assert "1 bn-frozen × 0.25–0.5" in critic.effort.formula


def test_eval_in_an_evaluation_function_is_no_frozen_batch_norm(plain: Review) -> None:
    # INVALID: model.eval() in evaluate, and the freeze called only there (no train() before)
    assert _work(plain, "bn-frozen") == {}


def test_forward_hooks_in_the_network_are_an_item(critic: Review) -> None:
    # VALID: the encoder keeps a block's output on self through a hook
    assert _work(critic, "forward-hook") == {
        "Encoder.__init__: register_forward_hook": ["model.py:9"]
    }
    item = next(i for i in critic.work if i.kind == "forward-hook")
    assert "returned explicitly" in item.why
    assert "1 forward-hook × 1–2" in critic.effort.formula


def test_a_forward_hook_in_a_tool_is_no_item(plain: Review) -> None:
    # INVALID: the feature dump in tools/ is not ported with the model
    assert _work(plain, "forward-hook") == {}


def test_kinds_tied_with_the_last_named_driver_are_named_too() -> None:
    from apiscan.review.effort import price

    units = {
        "idiom": (1, 1, 1, 1),
        "checkpoint": (1,),
        "forward-hook": (1,),
        "gradient-penalty": (1,),
        "bn-frozen": (1,),
    }
    driven = price(units)[3]
    # VALID: checkpoint, forward-hook and gradient-penalty each cost up to 2: all named
    assert driven == (
        "idiom (4 × up to 1 = 4), checkpoint (1 × up to 2 = 2), "
        "forward-hook (1 × up to 2 = 2), gradient-penalty (1 × up to 2 = 2)"
    )
    # INVALID: a kind below the third (bn-frozen, up to 0.5) is not
    assert "bn-frozen" not in driven


def test_a_driver_summing_unlike_idiom_patterns_names_them() -> None:
    from apiscan.review.effort import price

    units = {"idiom": (1, 1, 1), "checkpoint": (1,), "forward-hook": (1,)}
    parts = {"idiom": ["checkpoint", "module-base", "recompute"], "checkpoint": []}
    driven = price(units, parts=parts)[3]
    # VALID: the idiom sum says which patterns it adds up
    assert driven.startswith("idiom (3 × up to 1 = 3: checkpoint, module-base, recompute), ")
    # INVALID: a kind given no parts is named as before
    assert "checkpoint (1 × up to 2 = 2)," in driven


def test_the_review_names_the_idiom_patterns_it_prices(critic: Review) -> None:
    driven = next(s for s in critic.effort.explanation if "What drives it" in s)
    # the hook rewrite and the penalty drive it as much as the two idiom patterns, named
    assert driven.partition("What drives it: ")[2] == (
        "forward-hook (1 × up to 2 = 2), gradient-penalty (1 × up to 2 = 2), "
        "idiom (2 × up to 1 = 2: module-base, train-step)."
    )
