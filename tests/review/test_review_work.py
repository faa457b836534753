"""What a migration lead plans with, on the two review fixtures: a set-prediction trainer
(fixtures/setpred) and an inference-only promptable segmenter (fixtures/promptseg)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture, write_repo

from apiscan.review.build import build_review
from apiscan.review.gaps import has_verify_case, runnable_verify
from apiscan.review.model import Review, Where


@pytest.fixture(scope="module")
def reviews() -> dict[str, Review]:
    return {name: review_fixture(f"fixtures/{name}") for name in ("setpred", "promptseg")}


def _work(review: Review, kind: str) -> list[str]:
    return [item.what for item in review.work if item.kind == kind]


def test_recipe_reads_the_composition_used_and_the_loss_weights(reviews) -> None:
    recipe = reviews["setpred"].recipe
    augment = [i for i in recipe if i.category == "augmentation"]
    # the training composition; the one picked for split == "val" only preprocesses
    assert [i.name for i in augment] == ["composition in coco_pipeline"]
    train = dict(augment[0].values)
    assert train["when"] == 'split == "train"'
    assert train["1"] == "FlipLeftRight(prob=0.5)"  # the default the step runs with
    assert "longest=1333" in train["2"] and "800" in train["2"] and "CropRandomSize" in train["2"]
    assert "Standardize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])" in train["3"]
    assert not any("ShiftRight" in v for i in augment for _, v in i.values)  # defined, unused
    assert not any("Transformer" in i.name for i in recipe if i.category == "augmentation")
    losses = {i.name: dict(i.values) for i in recipe if i.category == "loss"}
    assert "models.detector.QueryDetector._get_aux_loss_inputs" not in losses  # packs outputs
    assert losses["models.detector.PairedCriterion"]["weights"].startswith(
        "{label: 1, l1: 5, giou: 2}"
    )
    assert losses["models.matcher.OneToOneMatcher"]["l1_weight"].startswith("5 ")
    assert losses["argparse --drop_aux_loss"]["default"] == "True"
    assert losses["argparse --void_coef"]["default"] == "0.1"
    assert {i.category for i in recipe} >= {"backbone", "checkpoint"}
    assert not reviews["setpred"].inference_only


def test_gaps_from_the_whole_scan(reviews) -> None:
    review = reviews["setpred"]
    trips = [i for i in review.work if i.kind == "host-round-trip"]
    assert [t.what for t in trips] == [
        "OneToOneMatcher.forward: scipy.optimize.linear_sum_assignment"
    ]
    assert str(trips[0].where[0]) == "models/matcher.py:35"
    assert _work(review, "pretrained-backbone") == [
        "torchvision.models.<arch>(pretrained=True, norm_layer=FixedBatchNorm)"
    ]
    assert _work(review, "checkpoint") == ["torch.hub.load_state_dict_from_url, torch.load"]
    assert _work(review, "unsupported-param") == ["torch.nn.functional.interpolate(antialias=True)"]


def test_no_invented_custom_ops(reviews) -> None:
    for review in reviews.values():
        apis = {g.api for g in review.gaps}
        assert "torch.Tensor.values" not in apis  # outputs.values(): a dict
        assert "torch.GradScaler.scale" not in apis  # Boxes.scale in the detectron2 adapter
        assert review.effort.custom_ops == 0
    wrapper = [g for g in reviews["setpred"].gaps if g.api == "torchvision.ops.misc.interpolate"]
    assert all(g.disposition == "rewrite" for g in wrapper)


def test_effort_counts_the_ported_parts_within_2x(reviews) -> None:
    for review in reviews.values():
        low, high = review.effort.person_days
        assert 0 < low <= high <= 2 * low
        (days,) = [s for s in review.effort.explanation if s.startswith("Person-days:")]
        assert "What drives it:" in days
    apart = dict(reviews["setpred"].ancillary)
    assert apart == {
        "d2/adapter.py": "adapter for detectron2",
        "d2/train_net.py": "adapter for detectron2",  # trains the adapter, not the model
        "hubconf.py": "torch.hub entry points",
        "tools/plot_curves.py": "plotting",
    }
    assert dict(reviews["promptseg"].ancillary) == {"scripts/export_onnx.py": "deployment/export"}


def test_inference_only_and_top_model_through_builders(reviews) -> None:
    review = reviews["promptseg"]
    assert review.inference_only
    assert not [i for i in review.recipe if i.category == "augmentation"]
    top = review.top_models[0]
    assert (top.cls, top.builder) == ("promptseg.modeling.segmenter.PromptSegmenter", "_assemble")
    assert [p for p, _ in top.parts] == ["image_tower", "prompt_tower", "mask_head"]
    model = reviews["setpred"].top_models[0]
    assert model.cls == "models.detector.QueryDetector"
    # main.py's ``create(opts)`` picks it; ``assemble`` injects trunk and transformer
    assert model.parts == (
        ("selected by", "create(opts) in main.py → create() → assemble()"),
        ("trunk", "TrunkWithPositions (trunk)"),
        ("transformer", "QueryTransformer (transformer)"),
        ("box_head", "BoxRegressor"),
    )


def test_verify_is_recommended_only_with_a_case() -> None:
    no_case = "torch.distributed.destroy_process_group"
    assert has_verify_case("torch.Tensor.softmax") and not has_verify_case(no_case)
    text = f"same name, unverified: apiscan verify {no_case}; apiscan verify torch.Tensor.softmax."
    assert runnable_verify(text) == (
        "same name, unverified: no micro-test in the catalogue yet: compare it by hand; "
        "apiscan verify torch.Tensor.softmax."
    )


def test_ancillary_patterns_come_from_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "x.py").write_text("import torch\ntorch.load('a')\n")
    (tmp_path / "net.py").write_text("import torch\ntorch.load('b')\n")
    assert dict(build_review(str(tmp_path)).ancillary) == {"tools/x.py": "tools"}
    (tmp_path / "pyproject.toml").write_text('[tool.apiscan]\nreview-ancillary = ["net.py"]\n')
    assert dict(build_review(str(tmp_path)).ancillary) == {"net.py": "matches 'net.py'"}


def test_export_folders_are_the_scopes(tmp_path: Path) -> None:
    """The scope's export folders are the review's: one list (``onnx/`` included)."""
    from apiscan.review.work import ANCILLARY_DIRS
    from apiscan.scope.classify import EXPORT_DIRS, is_export_path

    assert {d: ANCILLARY_DIRS[d] for d in EXPORT_DIRS} == dict.fromkeys(
        EXPORT_DIRS, "deployment/export"
    )
    (tmp_path / "onnx").mkdir()
    (tmp_path / "onnx" / "run.py").write_text("import torch\ntorch.load('a')\n")
    (tmp_path / "net.py").write_text("import torch\ntorch.load('b')\n")
    assert is_export_path("onnx/run.py")
    assert dict(build_review(str(tmp_path)).ancillary) == {"onnx/run.py": "deployment/export"}


def test_top_model_reads_the_branch_the_construction_is_in(tmp_path: Path) -> None:
    (tmp_path / "net.py").write_text(
        "from torch import nn\n\n"
        "class Det(nn.Module):\n"
        "    def __init__(self, cfg):\n"
        "        super().__init__()\n\n"
        "class Train(nn.Module):\n"
        "    def __init__(self, model):\n"
        "        super().__init__()\n"
        "        self.model = model\n\n"
        "class Predict(nn.Module):\n"
        "    def __init__(self, model):\n"
        "        super().__init__()\n"
        "        self.model = model\n\n"
        "def create(cfg, task):\n"
        "    model = Det(cfg)\n"
        "    if task == 'train':\n"
        "        model = Train(model)\n"
        "    elif task == 'predict':\n"
        "        model = Predict(model)\n"
        "    return model\n"
    )
    tops = {(m.cls, m.parts) for m in build_review(str(tmp_path)).top_models}
    assert tops == {
        ("net.Train", (("model", "Det (model)"),)),
        ("net.Predict", (("model", "Det (model)"),)),
    }


def test_a_collate_function_padding_to_the_largest_item_is_an_input_pipeline(reviews) -> None:
    effort = reviews["setpred"].effort
    assert effort.input_shape_rewrites == 2
    sentence = next(s for s in effort.explanation if "input pipeline" in s)
    assert "datasets/transforms.py:rescale_pair" in sentence
    assert "util/batching.py:pad_to_batch" in sentence
    assert reviews["promptseg"].effort.input_shape_rewrites == 0


def test_a_round_trip_names_where_its_module_is_called(reviews) -> None:
    trip = next(i for i in reviews["setpred"].work if i.kind == "host-round-trip")
    assert [str(w) for w in trip.where] == [
        "models/matcher.py:35",
        "models/detector.py:112",
        "models/detector.py:114",
    ]
    assert "models/detector.py:114 (in a loop)" in trip.why


def test_round_trips_are_the_scans_and_those_that_keep_the_length(tmp_path: Path) -> None:
    """DS121 (data sized on the host comes back) makes an item even when the host call is in
    a helper; a trip that keeps the length is one too; host data that never comes back as a
    tensor (a metric) is not."""
    (tmp_path / "match.py").write_text(
        "import numpy as np\n"
        "import torch\n"
        "from torch import nn\n"
        "from scipy.optimize import linear_sum_assignment\n"
        "from sklearn.metrics import f1_score\n\n"
        "def solve(cost):\n"
        "    rows, cols = linear_sum_assignment(cost.detach().cpu())\n"
        "    return rows\n\n"
        "class Matcher(nn.Module):\n"
        "    def forward(self, cost):\n"
        "        return torch.as_tensor(solve(cost), dtype=torch.int64)\n\n"
        "class Nearest(nn.Module):\n"
        "    def forward(self, cost):\n"
        "        return torch.from_numpy(np.argmin(cost.cpu().numpy(), axis=1))\n\n"
        "class Scored(nn.Module):\n"
        "    def forward(self, x, y):\n"
        "        self.score = f1_score(y.cpu(), x.argmax(1).cpu())\n"
        "        return x.relu()\n"
    )
    trips = {
        i.what: [str(w) for w in i.where]
        for i in build_review(str(tmp_path)).work
        if i.kind == "host-round-trip"
    }
    assert trips == {
        "Matcher.forward: linear_sum_assignment(...)": ["match.py:13"],
        "Nearest.forward: numpy.argmin": ["match.py:17"],
    }


def test_private_helpers_and_uncertain_receivers_are_no_custom_ops() -> None:
    from dataclasses import replace

    from apiscan.review.gaps import is_custom_op, is_private

    assert is_private("torchvision.ops.misc._output_size")
    assert not is_private("torch.Tensor.__len__") and not is_private("torch.fft.rfft")
    from apiscan.model import ApiFinding, Span

    base = ApiFinding(
        path="m.py",
        span=Span(1, 0, 1, 5),
        # no MindSpore counterpart (torch.fft.rfft has one: mindspore.ops.rfft)
        api="torch.Tensor.as_strided",
        status="missing",
        mindspore_api=None,
        confidence="certain",
        note="",
        usage="call",
        namespace="torch",
        disposition="custom-op",
    )
    assert is_custom_op(base)
    assert not is_custom_op(replace(base, api="torchvision.ops.misc._output_size"))
    assert not is_custom_op(replace(base, api="torchvision.ops.boxes.box_area"))
    assert not is_custom_op(replace(base, api="torch.Tensor.values"))  # dict.values()
    assert not is_custom_op(replace(base, api="torch.Tensor.__len__"))
    assert not is_custom_op(replace(base, api="torch.Tensor.nanmedian", confidence="probable"))
    assert is_custom_op(replace(base, api="torch.Tensor.nanmedian"))


def test_variants_of_one_hub_repository_are_one_backbone_item() -> None:
    from apiscan.review.model import Where, WorkItem
    from apiscan.review.work import _one_per_backbone

    def hub(args: str, line: int) -> WorkItem:
        return WorkItem(
            "pretrained-backbone", f"torch.hub.load({args})", (Where("m.py", line),), "why"
        )

    found = _one_per_backbone(
        [
            # VALID: the depths of one family from one hub repository, one conversion
            hub("HUB, 'gluon_resnet34_v1b', pretrained weights, pretrained=True", 3),
            hub("HUB, 'gluon_resnet50_v1s', pretrained weights, pretrained=True", 9),
            # INVALID: another hub repository, or other arguments, stay apart
            hub("'someone/zoo', 'gluon_resnet34_v1b', pretrained weights, pretrained=True", 20),
            hub("HUB, 'tiny_net'", 30),
        ]
    )
    assert sorted((i.what, [w.line for w in i.where]) for i in found) == [
        (
            "torch.hub.load('someone/zoo', 'gluon_resnet34_v1b', pretrained weights, "
            "pretrained=True)",
            [20],
        ),
        (
            "torch.hub.load(HUB, 'gluon_resnet34_v1b' | 'gluon_resnet50_v1s', pretrained weights, "
            "pretrained=True)",
            [3, 9],
        ),
        ("torch.hub.load(HUB, 'tiny_net')", [30]),
    ]


def test_a_copy_of_a_ported_file_is_counted_apart(tmp_path: Path) -> None:
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.work import Ancillary

    layer = """
        import torch
        from torch import nn


        class Block(nn.Module):
            def forward(self, x):
                return torch.relu(x)
    """
    write_repo(
        tmp_path,
        {
            "pkg/layers/block.py": layer,
            # VALID: the same file again in a second package: ported once
            "metric/pkg/layers/block.py": layer,
            # INVALID: same name, different uses; same uses, another name
            "other/block.py": layer.replace("torch.relu(x)", "torch.sigmoid(x)"),
            "pkg/layers/copy_named_otherwise.py": layer,
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    ancillary = Ancillary(analyses)
    assert ancillary.why("metric/pkg/layers/block.py") == "copy of pkg/layers/block.py"
    assert ancillary.why("pkg/layers/block.py") == ""
    assert ancillary.why("other/block.py") == ""
    assert ancillary.why("pkg/layers/copy_named_otherwise.py") == ""
    assert ("metric/pkg/layers/block.py", "copy of pkg/layers/block.py") in ancillary.listing()


def test_a_torchscript_copy_of_the_model_is_counted_apart(tmp_path: Path) -> None:
    for path in ("torchscript/net_ts.py", "tools_x/export_torchscript.py", "model/net.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(f"import torch\ntorch.load('{path}')\n")
    # VALID: the export folder and an export script; INVALID: the model itself
    assert dict(build_review(str(tmp_path)).ancillary) == {
        "torchscript/net_ts.py": "deployment/export",
        "tools_x/export_torchscript.py": "deployment/export",
    }


def test_a_download_by_name_in_a_method_is_the_backbones_weights(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "net/backbone.py": """
                import torch
                from torch import nn
                from torch.utils import model_zoo

                model_urls = {"resnet18": "https://download.pytorch.org/r18.pth"}


                class PoseResNet(nn.Module):
                    def init_weights(self, num_layers):
                        url = model_urls["resnet{}".format(num_layers)]
                        self.load_state_dict(model_zoo.load_url(url), strict=False)
            """,
            "net/build.py": """
                import torch


                def create_model(weights_url):
                    return torch.hub.load_state_dict_from_url(weights_url)


                class Trainer:
                    def resume(self, args):
                        return torch.hub.load_state_dict_from_url(args.resume)
            """,
        },
    )
    items = {(i.kind, i.what): [str(w) for w in i.where] for i in build_review(str(tmp_path)).work}
    assert items == {
        # VALID: the architecture initialises itself from released weights
        (
            "pretrained-backbone",
            "pretrained weights downloaded by URL: torch.utils.model_zoo.load_url(url)",
        ): ["net/backbone.py:11"],
        # INVALID: a builder function's whole-model weights, a resume URL in a method
        ("checkpoint", "torch.hub.load_state_dict_from_url"): [
            "net/build.py:5",
            "net/build.py:10",
        ],
    }


def test_a_dataset_loading_tensor_files_loads_data_not_a_checkpoint(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "data.py": """
                import torch
                from torch.utils.data import Dataset


                class Masks(Dataset):
                    def __init__(self, files):
                        self.files = files

                    def __getitem__(self, i):
                        return torch.load(self.files[i])

                    def __len__(self):
                        return len(self.files)
            """,
            "predict.py": """
                import torch


                def main(path):
                    return torch.load(path, map_location="cpu")
            """,
        },
    )
    items = {(i.kind, i.what): [str(w) for w in i.where] for i in build_review(str(tmp_path)).work}
    # VALID: the script's weights; INVALID: the dataset's tensor files
    assert items == {("checkpoint", "torch.load"): ["predict.py:5"]}


def test_a_benchmark_timing_a_backward_pass_is_no_training_step(tmp_path: Path) -> None:
    bench = "import torch\n\ndef run(m, x):\n    m(x).sum().backward()\n"
    for path in ("pkg/benchmark/bench_attn.py", "pkg/benchmarks/bench_mlp.py", "train.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(bench)
    # VALID: both spellings of the benchmark folder; INVALID: the training script
    assert dict(build_review(str(tmp_path)).ancillary) == {
        "pkg/benchmark/bench_attn.py": "benchmarks",
        "pkg/benchmarks/bench_mlp.py": "benchmarks",
    }


def test_a_hosting_predictor_is_counted_apart_and_a_language_model_maps_to_mindnlp(
    tmp_path: Path,
) -> None:
    write_repo(
        tmp_path,
        {
            # VALID: Replicate's predictor beside cog.yaml is a hosting entry point
            "predict.py": """
                import cog
                import torch

                class Predictor(cog.BasePredictor):
                    def setup(self):
                        self.net = torch.load("weights.pth")
            """,
            # the weights of a language model come from transformers: MindNLP, not MindCV
            "model.py": """
                import torch
                from transformers import GPT2LMHeadModel

                class GPT(torch.nn.Module):
                    @classmethod
                    def from_pretrained(cls, name):
                        hf = GPT2LMHeadModel.from_pretrained(name)
                        model = cls()
                        model.load_state_dict(hf.state_dict())
                        return model

                def language_model(name):
                    return GPT2LMHeadModel.from_pretrained(name)
            """,
            "train.py": """
                from model import GPT, language_model

                gpt = GPT.from_pretrained("gpt2")
                teacher = language_model("gpt2")
            """,
        },
    )
    review = build_review(str(tmp_path))
    assert dict(review.ancillary) == {"predict.py": "adapter for cog"}
    backbones = [i for i in review.work if i.kind == "pretrained-backbone"]
    assert [(i.what, i.where) for i in backbones] == [
        (
            "transformers.GPT2LMHeadModel.from_pretrained(pretrained weights)",
            (Where("model.py", 13),),
        )
    ]
    assert "MindNLP" in backbones[0].why and "MindCV" not in backbones[0].why
    # GPT-2's weights copied into the repository's own GPT: a weight conversion
    (copied,) = [i for i in review.work if "copied into" in i.what]
    assert (copied.kind, copied.where) == ("checkpoint", (Where("model.py", 7),))
