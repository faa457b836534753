"""The worker's syntax facts: what the review reads instead of parsing a file again."""

from __future__ import annotations

import ast
import pickle
import textwrap

from apiscan.extract import FileTask, analyse
from apiscan.extract.syntax import HostTrip, ZooCall, syntax_facts

CODE = textwrap.dedent(
    """
    import numpy as np
    import torch
    import torchvision
    from scipy.optimize import linear_sum_assignment
    from torch import nn
    from . import sibling


    class Model(nn.Module):
        def __init__(self, arch):
            super().__init__()
            self.backbone = torchvision.models.resnet50(
                weights="IMAGENET1K_V1", norm_layer=FrozenBN
            )
            self.head: nn.Module = Head(
                256,
            )

            def later():
                self.extra = 1

        @property
        def size(self):
            return self._size

        @size.setter
        def size(self, value):
            self._size = value

        def forward(self, x):
            for part in x:
                self.head(part)
            rows, _ = linear_sum_assignment(x.cpu())
            return self.head(np.asarray(rows))


    def collate(batch):
        size = max(b.shape[0] for b in batch)
        return torch.zeros(len(batch), size)


    hub = torch.hub.load("facebookresearch/dinov2", "dinov2_vits14")


    @torch.no_grad()
    @local_decorator
    def kernel(x):
        return x

    if __name__ == "__main__":
        kernel(1)
    """
)


def test_facts_of_a_module() -> None:
    facts = syntax_facts(ast.parse(CODE), CODE)
    imports = dict(facts.imports)
    assert imports["np"] == "numpy" and imports["nn"] == "torch.nn"
    assert "sibling" not in imports  # relative: the repository's own code
    uses = dict(facts.package_uses)
    assert uses["numpy"] == ("numpy.asarray",)
    assert uses["scipy"] == ("scipy.optimize.linear_sum_assignment",)
    assert "torch" not in uses  # torch's names are the scan's findings
    assigns = {(a, first, last): fns for a, first, last, fns in facts.self_assigns}
    assert assigns[("backbone", 13, 15)] == ("Model.__init__",)
    assert assigns[("head", 16, 18)] == ("Model.__init__",)
    assert assigns[("extra", 21, 21)] == ("Model.__init__", "Model.__init__.later")
    # the setter is the second def named Model.size: the first one is meant
    assert assigns[("_size", 29, 29)] == ()
    # breadth first, as the review lists a module's callers; the call in the loop says so
    assert facts.self_calls == (("head", 35, False), ("head", 33, True))
    # breadth first: the module-level call before the one nested in a method
    assert facts.zoo_calls == (
        ZooCall("torch.hub.load", 43, (), ('"facebookresearch/dinov2"', '"dinov2_vits14"')),
        ZooCall(
            "torchvision.models.resnet50",
            13,
            (("weights", '"IMAGENET1K_V1"'), ("norm_layer", "FrozenBN")),
        ),
    )
    assert facts.host_trips == (
        HostTrip(
            "Model.forward",
            (("scipy.optimize.linear_sum_assignment", 34), ("numpy.asarray", 35)),
            back=False,
        ),
    )
    assert facts.decorators == (("kernel", 48, ("torch.no_grad",)),)  # the `def` line
    assert facts.main_guard
    # what encloses a line: the innermost def (the nested one), the method, module level
    assert facts.enclosing(21) == "Model.__init__.later"
    assert facts.enclosing(16) == "Model.__init__"
    assert facts.enclosing(39) == "collate"
    assert facts.enclosing(42) == ""


def test_the_worker_records_them_cheaply() -> None:
    task = FileTask("pkg/model.py", ("pkg.model",), False, CODE.encode())
    fa = analyse(task, frozenset({"pkg"}))
    assert not fa.errors and fa.syntax == syntax_facts(ast.parse(CODE), CODE)
    assert pickle.loads(pickle.dumps(fa)) == fa


def test_a_zoo_picked_by_a_key_with_dots() -> None:
    code = textwrap.dedent(
        """
        import torchvision.models as tv_models

        net = tv_models.__dict__[args.arch]()
        lookup = getattr(tv_models, cfg.model.name)(num_classes=10)
        """
    )
    facts = syntax_facts(ast.parse(code), code)
    assert [z.callee for z in facts.zoo_calls] == [
        "torchvision.models.<args.arch>",
        "torchvision.models.<cfg.model.name>",
    ]


def test_a_zoo_package_a_star_import_brings() -> None:
    """``torchvision`` bound by ``from ops.transforms import *`` (whose module imports it):
    the backbone ``getattr(torchvision.models, base_model)(True)`` builds is the zoo's; with
    no star import the unbound name is nothing known, and a function's own star import
    (never allowed in Python 3) is none either."""
    code = textwrap.dedent(
        """
        from ops.transforms import *

        class Net:
            def __init__(self, base_model):
                self.base_model = getattr(torchvision.models, base_model)(True)
        """
    )
    facts = syntax_facts(ast.parse(code), code)
    assert [(z.callee, z.args) for z in facts.zoo_calls] == [
        ("torchvision.models.<base_model>", ("True",))
    ]
    plain = code.replace("from ops.transforms import *", "from ops.transforms import Scale")
    assert syntax_facts(ast.parse(plain), plain).zoo_calls == ()


def test_a_host_answer_that_indexes_tensors_comes_back() -> None:
    """``linear_sum_assignment``'s indices used as an index (``label[cols] = ...``) bring
    the host's answer back into torch with no ``torch.as_tensor``; a host value only
    stored (a metric) does not."""
    code = textwrap.dedent(
        """
        from scipy.optimize import linear_sum_assignment
        from sklearn.metrics import f1_score

        def assign(cost, label, gt):
            rows, cols = linear_sum_assignment(cost.cpu().numpy(), maximize=True)
            label[cols] = gt[rows]
            return label

        def score(x, y):
            value = f1_score(y.cpu(), x.cpu())
            return value
        """
    )
    facts = syntax_facts(ast.parse(code), code)
    assert [(t.function, t.back) for t in facts.host_trips] == [
        ("assign", True),
        ("score", False),
    ]


def test_pipelines_and_registries_are_recorded_and_pickle() -> None:
    """What the review's recipe reads of an augmentation written statement by statement and
    of losses registered under names, without parsing the file again."""
    code = textwrap.dedent(
        """
        import random

        build, register_criterion = setup_registry("--criterion", default="ce")


        @register_criterion("ce")
        class CE:
            pass


        def flip(image):
            return image


        def transform(image, boxes, split):
            new_image = image
            if split == "TRAIN":
                new_image = distort(new_image)
                if random.random() < 0.5:
                    new_image = flip(new_image)
            else:
                new_image = center(new_image)
            new_image = resize(new_image, (300, 300))
            return new_image


        def transform_boxes(boxes):
            boxes = scale(boxes)
            return boxes
        """
    )
    facts = syntax_facts(ast.parse(code), code)
    (pipe,) = facts.pipelines
    assert (pipe.function, pipe.line) == ("transform", 16)
    assert pipe.steps == (
        ("distort(new_image)", "split == 'TRAIN'", ""),
        ("flip(new_image)", "split == 'TRAIN' and random.random() < 0.5", "flip"),
        ("center(new_image)", "not (split == 'TRAIN')", ""),
        ("resize(new_image, (300, 300))", "", ""),
    )
    (setup,) = facts.registry_setups
    assert (setup.option, setup.default, setup.registers, setup.line) == (
        "--criterion",
        "ce",
        ("register_criterion",),
        4,
    )
    assert facts.registered == (("register_criterion", "ce", 8),)
    assert pickle.loads(pickle.dumps(facts)) == facts


def test_a_registry_written_by_hand_is_recorded() -> None:
    """``def register_task(name)`` storing each class in a module-level table under its
    first parameter is a registry picked by ``--task``; a factory keyed by another
    parameter (an architecture's name, second) or storing nowhere is none."""
    code = textwrap.dedent(
        """
        TASK_REGISTRY = {}
        ARCH_REGISTRY = dict()


        def register_task(name, dataclass=None):
            def register_task_cls(cls):
                TASK_REGISTRY[name] = cls
                return cls

            return register_task_cls


        def register_model_architecture(model_name, arch_name):
            def wrap(fn):
                ARCH_REGISTRY[arch_name] = fn
                return fn

            return wrap


        def register_hook(name):
            def wrap(fn):
                return fn

            return wrap
        """
    )
    facts = syntax_facts(ast.parse(code), code)
    (setup,) = facts.registry_setups
    assert (setup.option, setup.default, setup.registers, setup.line, setup.hand) == (
        "--task",
        None,
        ("register_task",),
        6,
        True,
    )
    assert pickle.loads(pickle.dumps(facts)) == facts


def test_a_lazy_configs_training_augmentations_are_recorded() -> None:
    code = textwrap.dedent(
        """
        train = L(build_loader)(
            mapper=L(Mapper)(is_train=True, augmentations=[L(T.Resize)(size=(640, 800)), flip]),
        )
        test = L(build_loader)(mapper=L(Mapper)(is_train=False, augmentations=[L(T.Resize)(800)]))
        """
    )
    (lazy,) = syntax_facts(ast.parse(code), code).lazy_augmentations
    assert (lazy.stored, lazy.line, lazy.steps) == (
        "train",
        3,
        ("T.Resize(size=(640, 800))", "flip"),
    )


def test_cudnn_switches_and_flips_are_recorded() -> None:
    """The recipe's reproducibility switches and flips written as indexing, read from the
    worker's facts: the flip under an ``if`` of its own function, with its class; never one
    whose ``if`` is outside the function, nor one in module code."""
    code = textwrap.dedent(
        """
        import random
        import torch.backends.cudnn as cudnn
        import torch

        cudnn.benchmark = True
        torch.backends.cudnn.deterministic = False
        other.benchmark = True


        class Data:
            def __getitem__(self, index):
                img = self.images[index]
                if random.random() < 0.5:
                    for _ in range(1):
                        img = img[:, ::-1]
                return img


        if True:
            def outside(img):
                return img[::-1]


        def nested(img, flip):
            if flip:
                def inner():
                    return img[..., ::(-1)]
            return img[::1]


        rev = x[::-1] if random.random() < 0.5 else x
        """
    )
    facts = syntax_facts(ast.parse(code), code)
    assert facts.cudnn_flags == (
        ("torch.backends.cudnn.benchmark", "True", 6),
        ("torch.backends.cudnn.deterministic", "False", 7),
    )
    assert facts.flips == (
        (16, "img[:, ::-1]", "random.random() < 0.5", "Data.__getitem__", "Data"),
    )
    task = FileTask("pkg/data.py", ("pkg.data",), False, code.encode())
    fa = analyse(task, frozenset({"pkg"}))
    assert fa.syntax is not None and fa.syntax.flips == facts.flips
    assert pickle.loads(pickle.dumps(fa)) == fa


def test_def_kinds_and_init_routines_are_recorded() -> None:
    """What the recipe's rows for defs named as augmentations or initialisations read: each
    def's kind and class, and what an initialisation routine sets (nested scopes apart)."""
    code = textwrap.dedent(
        """
        class Net:
            def init_weights(self):
                self.conv.weight.data.normal_(0, 0.01)
                self.bias = 0.0
                self.name = make()

                def later():
                    self.other.fill_(1)

            if True:
                def random_flip(self):
                    pass


        def init_params(m):
            pass
        """
    )
    facts = syntax_facts(ast.parse(code), code)
    assert dict((q, (c, o)) for q, c, o in facts.def_kinds) == {
        "Net": (True, ""),
        "Net.init_weights": (False, "Net"),
        "Net.init_weights.later": (False, ""),
        "Net.random_flip": (False, ""),  # in the class's ``if``, not directly a method
        "init_params": (False, ""),
    }
    assert facts.init_routines == (
        (
            "Net.init_weights",
            3,
            9,
            (("self.conv.weight.data.normal_", "0, 0.01"), ("self.bias", "0.0")),
        ),
    )


def test_a_host_trip_counts_only_host_calls_on_what_left_the_device() -> None:
    code = textwrap.dedent(
        """
        import numpy as np
        import torch


        def train(model, loader, dataset, labels):
            counts = np.concatenate(labels, 0)
            dataset.weights = model.weight.cpu().numpy()
            dataset.order = sorted(dataset.weights)
            keep = torch.tensor(dataset.order)
            for step, batch in enumerate(loader):
                lr = np.interp(step, [0, 10], [0.0, 0.1])
                model(batch[keep]).sum().backward()


        def match(cost, boxes):
            rows = []
            rows[0] = cost.cpu().numpy()
            picked = np.argmax(rows[0], 1)
            return torch.as_tensor(picked), np.zeros(len(boxes))
        """
    )
    facts = syntax_facts(ast.parse(code), code)
    # VALID: ``match`` takes the cost to NumPy and brings the answer back (``rows[0] = ...``
    # writes into ``rows``); its ``np.zeros`` reads no tensor and is not named.
    # INVALID: ``train``'s NumPy calls read host labels and the step number; binding
    # ``dataset.weights`` taints that attribute, not every ``dataset.*`` (``dataset.order``
    # comes from it through ``sorted``, no host library)
    assert facts.host_trips == (HostTrip("match", (("numpy.argmax", 19),), back=True),)
