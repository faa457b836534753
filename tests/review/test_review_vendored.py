"""A repository that vendors another repository (issue 20: Depth-Anything's
``torchhub/facebookresearch_dinov2_main/``), on fixtures/vendoredhub: the main package reaches a
checked-in torch.hub repository through ``torch.hub.load(..., source='local')`` for its
backbone; that copy ships its own ``train/`` (FSDP, AdamW, a cosine schedule) and a
``third_party/`` package trains too. Only the modules the repository's code reaches in the copy
are ported; the copy's training is not this repository's, so the repository only infers, and
the model ``run.py`` builds through an inherited ``from_pretrained`` is the top model."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture, write_repo

from apiscan.review.build import build_review
from apiscan.review.roles import evaluation_file, evaluation_folder
from apiscan.review.work import _local_hub_dir, vendored_apart

COPY = "hub/acme_backbone_main"


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/vendoredhub")


def test_the_vendored_copy_is_counted_apart_but_what_the_code_reaches_is_ported(review) -> None:
    apart = dict(review.ancillary)
    assert apart[f"{COPY}/backbone/train/train.py"] == "vendored acme_backbone_main"
    assert apart[f"{COPY}/backbone/train/__init__.py"] == "vendored acme_backbone_main"
    assert apart[f"{COPY}/setup.py"] == "vendored acme_backbone_main"
    assert apart["third_party/tinyops/train_ops.py"] == "vendored tinyops"
    # the hub entry point the model loads builds its backbone: ported with it and its layers
    for ported in (
        "hubconf.py",
        "vit.py",
        "backbone/layers/block.py",
        "backbone/layers/__init__.py",
    ):
        assert f"{COPY}/{ported}" not in apart
    assert "run.py" not in apart and "depthnet/model.py" not in apart


def test_the_copy_s_training_is_not_the_repository_s(review) -> None:
    assert review.inference_only is True
    names = {row.name for row in review.recipe}
    assert not names & {"torch.optim.AdamW", "torch.optim.lr_scheduler.CosineAnnealingLR"}
    assert not any(row.where.path.startswith(COPY + "/backbone/train") for row in review.recipe)
    gaps = {g.api for g in review.gaps}
    assert not any(api.startswith("torch.distributed.fsdp") for api in gaps)
    assert not any(m.cls.endswith("SelfSupervised") for m in review.top_models)


def test_a_class_level_builder_of_the_repository_s_model_builds_it(review) -> None:
    top = review.top_models[0]
    assert top.cls.endswith("model.DepthNet")
    assert top.where.path == "run.py"
    assert dict(top.parts)["selected by"].startswith("DepthNet.from_pretrained(")
    roles = {m.cls.rpartition(".")[2]: m.role for m in review.modules}
    assert roles["DepthNet"] == "model"


def test_a_local_hub_load_names_the_copy_wherever_it_is_called_from() -> None:
    dirs = ("hub/acme_backbone_main", "third_party/tinyops")
    local = {"source": "'local'"}
    assert _local_hub_dir(["'../hub/acme_backbone_main'", "'vit'"], local, dirs) == dirs[0]
    assert _local_hub_dir(['"/home/me/x/hub/acme_backbone_main"'], local, dirs) == dirs[0]
    # a GitHub hub repository, a name held in a variable, the repository itself
    assert _local_hub_dir(["'acme/backbone'", "'vit'"], {}, dirs) == ""
    assert _local_hub_dir(["repo_dir"], local, dirs) == ""
    assert _local_hub_dir(["'.'"], local, dirs) == ""


def test_a_root_hubconf_is_the_repository_s_own_entry_points(tmp_path: Path) -> None:
    from apiscan.pipeline import ScanOptions, scan_with_facts

    write_repo(
        tmp_path,
        {
            "hubconf.py": "from net import Net\ndef net(pretrained=False):\n    return Net()\n",
            "net.py": "import torch\nclass Net(torch.nn.Module):\n    pass\n",
            "train.py": "import torch\nfrom net import Net\n"
            "opt = torch.optim.SGD(Net().parameters(), lr=0.1)\n",
        },
    )
    _, analyses = scan_with_facts(ScanOptions(tmp_path, cache_dir=None))
    assert vendored_apart(analyses) == {}


def test_metric_before_another_word_names_no_evaluation_code() -> None:
    assert not evaluation_folder("metric_depth/train_mono.py")
    assert not evaluation_file("metric_depth/zoedepth/trainers/loss.py")
    assert evaluation_folder("metrics/fid.py")
    assert evaluation_folder("depth_metric/score.py")
    assert evaluation_file("tools/coco_eval.py")


def test_a_backbone_loaded_from_the_vendored_copy_is_ported_not_a_zoo_item(review) -> None:
    assert not [w for w in review.work if w.kind == "pretrained-backbone"]


def _fine_tuned_beside(tmp_path: Path, reaches_main: bool):
    """A main package only run by ``run.py`` and a ``metric_scale/`` folder fine-tuning a model:
    its own (Depth-Anything's ``metric_depth/``) or, with ``reaches_main``, the main one."""
    model = (
        "from depthnet.model import Net as MetricNet"
        if reaches_main
        else "from metric_scale.zoo import MetricNet"
    )
    files = {
        "depthnet/__init__.py": "",
        "depthnet/model.py": """
            import torch
            class Net(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.conv = torch.nn.Conv2d(3, 1, 1)
                def forward(self, x):
                    return self.conv(x)
        """,
        "run.py": """
            import torch
            from depthnet.model import Net
            def main():
                model = Net.from_pretrained("acme/net")
                print(model(torch.zeros(1, 3, 8, 8)).cpu().numpy())
            if __name__ == "__main__":
                main()
        """,
        "metric_scale/__init__.py": "",
        "metric_scale/zoo.py": """
            import torch
            class MetricNet(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = torch.nn.Linear(2, 1)
                def forward(self, x):
                    return self.fc(x)
        """,
        "metric_scale/train.py": f"""
            import torch
            {model}
            def main():
                net = MetricNet()
                opt = torch.optim.Adam(net.parameters(), lr=1e-4)
                net(torch.zeros(1, 2)).sum().backward()
                opt.step()
            if __name__ == "__main__":
                main()
        """,
    }
    return build_review(str(write_repo(tmp_path, files)))


def test_a_main_model_no_training_reaches_is_inference_only_beside_a_fine_tuning(
    tmp_path: Path,
) -> None:
    from apiscan.review.build import INFERENCE_ONLY_PART

    review = _fine_tuned_beside(tmp_path, reaches_main=False)
    assert review.inference_only is False
    assert "torch.optim.Adam" in {row.name for row in review.recipe}
    # run.py is the main model's inference path, not a tool beside the training
    assert "run.py" not in dict(review.ancillary)
    top = next(m for m in review.top_models if m.cls.endswith("model.Net"))
    assert top.where.path == "run.py"
    assert INFERENCE_ONLY_PART in top.parts


def test_a_main_model_the_fine_tuning_trains_is_not_inference_only(tmp_path: Path) -> None:
    from apiscan.review.build import INFERENCE_ONLY_PART

    review = _fine_tuned_beside(tmp_path, reaches_main=True)
    assert dict(review.ancillary).get("run.py") == "tools"
    assert not any(INFERENCE_ONLY_PART in m.parts for m in review.top_models)


def test_a_vendored_backbone_a_trained_model_loads_locally_is_ported(tmp_path: Path) -> None:
    """Beside a training script (so what only the hub entry points reach is counted apart),
    a backbone the trained model loads with ``torch.hub.load(DIR, ..., source='local')``
    from the vendored copy is the network's: its modules are ported, not "used only by
    torch.hub entry points"."""
    import shutil

    shutil.copytree("fixtures/vendoredhub", tmp_path / "repo")
    root = write_repo(
        tmp_path / "repo",
        {
            "fine_tune/__init__.py": "",
            "fine_tune/train.py": """
                import torch
                from depthnet.model import DepthNet
                def main():
                    net = DepthNet()
                    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
                    net(torch.zeros(1, 3, 8, 8)).sum().backward()
                    opt.step()
                if __name__ == "__main__":
                    main()
            """,
        },
    )
    review = build_review(str(root))
    apart = dict(review.ancillary)
    assert review.inference_only is False
    for ported in ("hubconf.py", "vit.py", "backbone/layers/block.py"):
        assert f"{COPY}/{ported}" not in apart, apart.get(f"{COPY}/{ported}")
    assert apart[f"{COPY}/backbone/train/train.py"] == "vendored acme_backbone_main"


def test_a_vendored_hub_entry_point_loaded_without_weights_downloads_nothing(
    tmp_path: Path,
) -> None:
    """The vendored entry point downloads its weights ``if pretrained:``; every local load
    passes ``pretrained=False`` (the repository's own checkpoint holds them): that download
    is no checkpoint to convert, while the repository's own ``torch.load`` still is."""
    import shutil

    shutil.copytree("fixtures/vendoredhub", tmp_path / "repo")
    root = write_repo(
        tmp_path / "repo",
        {
            f"{COPY}/hubconf.py": """
                import torch
                def vit_tiny(pretrained=True):
                    import vit
                    model = vit.ViT()
                    if pretrained:
                        url = "https://example.org/vit_tiny.pth"
                        model.load_state_dict(torch.hub.load_state_dict_from_url(url))
                    return model
            """,
            "depthnet/weights.py": """
                import torch
                def load(model, path):
                    model.load_state_dict(torch.load(path, map_location="cpu"))
                    return model
            """,
            "run.py": """
                import torch
                from depthnet.model import DepthNet
                from depthnet.weights import load
                def main():
                    model = load(DepthNet(), "depthnet.pth")
                    print(model(torch.zeros(1, 3, 8, 8)).cpu().numpy())
                if __name__ == "__main__":
                    main()
            """,
        },
    )
    review = build_review(str(root))
    loads = [w for w in review.work if w.kind in ("checkpoint", "pretrained-backbone")]
    places = {where.path for w in loads for where in w.where}
    assert "depthnet/weights.py" in places
    assert f"{COPY}/hubconf.py" not in places


def _entries_repo(tmp_path: Path, entry: str) -> Path:
    """The fixture with a hub entry point passing ``antialias=True`` (a registers variant)
    beside the one the model loads, named by ``entry`` (the source text of the load's name)."""
    import shutil

    shutil.copytree("fixtures/vendoredhub", tmp_path / "repo")
    model = (tmp_path / "repo/depthnet/model.py").read_text()
    model = model.replace('"vit_tiny"', entry)
    return write_repo(
        tmp_path / "repo",
        {
            "depthnet/model.py": model,
            f"{COPY}/hubconf.py": """
                def _make(antialias=False):
                    import vit
                    return vit.ViT(antialias=antialias)

                def vit_tiny14(pretrained=True):
                    return _make()

                def vit_tiny14_reg(pretrained=True):
                    return _make(antialias=True)
            """,
            f"{COPY}/vit.py": """
                import torch
                from torch import nn

                from backbone.layers import Block

                class ViT(nn.Module):
                    def __init__(self, dim=8, depth=2, antialias=False):
                        super().__init__()
                        self.embed = nn.Conv2d(3, dim, 4, 4)
                        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
                        self.antialias = antialias

                    def forward(self, x):
                        x = self.embed(x)
                        x = nn.functional.interpolate(
                            x, scale_factor=2.0, mode="bicubic", antialias=self.antialias
                        )
                        for block in self.blocks:
                            x = block(x)
                        return x
            """,
        },
    )


@pytest.mark.parametrize("entry", ['"vit_tiny14"', "'vit_{}14'.format('tiny')", "f'vit_{size}14'"])
def test_a_parameter_only_an_unloaded_hub_entry_passes_is_no_work(
    tmp_path: Path, entry: str
) -> None:
    review = build_review(str(_entries_repo(tmp_path, entry)))
    assert not [w for w in review.work if w.kind == "unsupported-param"]


def test_an_entry_named_by_a_variable_may_be_any(tmp_path: Path) -> None:
    review = build_review(str(_entries_repo(tmp_path, "name")))
    (item,) = [w for w in review.work if w.kind == "unsupported-param"]
    assert "antialias" in item.what
