"""Gaps the port handles in a known way are counted as that way, not as gaps."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.effort import estimate
from apiscan.review.gaps import gap_rewrite, network_gaps


def test_known_ways_for_gap_apis() -> None:
    assert gap_rewrite("torch.LongTensor") == (
        "rewrite",
        "mindspore.Tensor(data, dtype=mindspore.int64)",
    )
    assert gap_rewrite("torch.nn.Module.half") == ("rewrite", "net.to_float(mindspore.float16)")
    assert gap_rewrite("torch.jit.load")[0] == "delete"
    assert gap_rewrite("torchvision.transforms.InterpolationMode.BICUBIC")[0] == "rewrite"
    assert gap_rewrite("torchvision.models.vgg16")[1].startswith("counted under Porting work")
    assert gap_rewrite("torchvision.transforms.functional.adjust_hue")[0] == "rewrite"
    assert gap_rewrite("torch.nn.functional.conv2d") is None
    # deep-text-recognition-benchmark's validation split: a sampler, not 1-2 days of gap
    assert "SubsetSampler" in gap_rewrite("torch.utils.data.Subset")[1]


def test_plumbing_gaps_of_a_trainer_have_a_known_way() -> None:
    """YOLOX's distributed helpers, logger and evaluator tensors: plumbing with a known
    MindSpore spelling, never an API with nothing known (1-2 days each)."""
    assert gap_rewrite("torch.cuda.FloatTensor")[1].endswith("dtype=mindspore.float32)")
    assert gap_rewrite("torch.distributed.ReduceOp.SUM")[0] == "rewrite"
    assert gap_rewrite("torch.distributed.group.WORLD")[0] == "rewrite"
    assert "SummaryRecord" in gap_rewrite("torch.utils.tensorboard.SummaryWriter.add_scalar")[1]
    assert "frombuffer" in gap_rewrite("torch.TypedStorage.from_buffer")[1]
    assert gap_rewrite("torch.utils.cpp_extension.load") is None  # an extension stays work
    # timm: dtype annotations, torch.load's pickle allow-lists
    assert gap_rewrite("torch.dtype")[0] == "rewrite"
    assert gap_rewrite("torch.serialization.safe_globals")[0] == "delete"
    # detectron2 and fairseq: a layer's parameters, markers, explicit base-class calls
    assert gap_rewrite("torch.nn.Conv2d.weight")[0] == "rewrite"
    assert gap_rewrite("torch.nn.Embedding.bias")[0] == "rewrite"
    assert gap_rewrite("torch.nn.Conv2d.padding") is None
    assert gap_rewrite("torch.jit.script_if_tracing")[0] == "delete"
    assert gap_rewrite("torch.cuda.device_of")[0] == "delete"
    assert gap_rewrite("torch.nn.Module.__init__")[0] == "rewrite"
    assert gap_rewrite("torch.distributed.rpc.init_rpc") is None  # pipeline parallelism: work
    # detectron2's trainer: profilers, ONNX registration, comm hooks, data sets, loss scale
    assert gap_rewrite("torch.profiler.tensorboard_trace_handler")[0] == "delete"
    assert gap_rewrite("torch.onnx.register_custom_op_symbolic")[0] == "delete"
    assert gap_rewrite("torch.nn.parallel.DistributedDataParallel.register_comm_hook")[0] == (
        "delete"
    )
    assert "ImageFolderDataset" in gap_rewrite("torchvision.datasets.ImageNet")[1]
    assert "urllib" in gap_rewrite("torchvision.datasets.utils.download_url")[1]
    assert gap_rewrite("torch.utils.data.IterableDataset")[0] == "rewrite"
    assert gap_rewrite("torch.GradScaler.get_scale")[0] == "rewrite"
    assert gap_rewrite("torch.nn.ParameterList.append")[0] == "rewrite"
    # a hand-written backward pass stays work
    assert gap_rewrite("torch.autograd.Function") is None
    # ml-depth-pro: a device check for a backend MindSpore lacks; a Lambda transform
    assert gap_rewrite("torch.backends.mps.is_available")[0] == "delete"
    assert "callables" in gap_rewrite("torchvision.transforms.Lambda")[1]


def test_effort_counts_them_as_rewrites(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "model.py": """
                import torch
                from torch import nn


                class Net(nn.Module):
                    def forward(self, x):
                        ids = torch.LongTensor([1, 2])
                        return x[ids]


                def load(path):
                    net = torch.jit.load(path)
                    return net.float()
            """
        },
    )
    result, _ = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    # the scan itself disposes them by their known way: its gap count is the review's
    known = {f.api: (f.disposition, f.rewrite_note) for f in result.api_findings}
    assert known["torch.LongTensor"] == gap_rewrite("torch.LongTensor")
    assert known["torch.jit.load"] == gap_rewrite("torch.jit.load")
    gapped = {f.api for f in result.api_findings if f.disposition == "gap"}
    assert not {"torch.LongTensor", "torch.jit.load"} & gapped
    effort = estimate(result, network_gaps(result))
    assert "gap" not in effort.formula, effort.formula
    shown = {g.api: g for g in network_gaps(result)}
    assert shown["torch.LongTensor"].disposition == "rewrite"
    assert "dtype=mindspore.int64" in shown["torch.LongTensor"].suggestion


def test_custom_ops_with_a_counterpart_under_another_name_are_compositions() -> None:
    from apiscan.rewrite.composed import composed as _composed

    assert "pinv" in _composed("torch.pinverse")
    assert "rfft" in _composed("torch.fft.rfft")
    assert "standard_normal" in _composed("torch.distributions.Normal.rsample")
    assert _composed("torch.Tensor.as_strided") == ""  # no counterpart: stays a custom op


def test_runtime_queries_exceptions_and_data_parallel_plumbing_have_a_known_way() -> None:
    # VALID: device queries and host multiprocessing switches are deleted
    assert gap_rewrite("torch.backends.mps.is_available")[0] == "delete"
    assert gap_rewrite("torch.backends.cudnn.version")[0] == "delete"
    assert gap_rewrite("torch.multiprocessing.set_sharing_strategy")[0] == "delete"
    assert gap_rewrite("torch.multiprocessing.set_start_method")[0] == "delete"
    # an exception class only changes what a handler catches
    assert gap_rewrite("torch.cuda.OutOfMemoryError")[0] == "rewrite"
    assert gap_rewrite("torch.OutOfMemoryError")[0] == "rewrite"
    # a hand-made DataParallel is replaced by MindSpore's data parallel mode
    for api in ("replicate", "parallel_apply", "gather", "scatter"):
        assert "DATA_PARALLEL" in gap_rewrite(f"torch.nn.parallel.{api}")[1]
    assert "randomize=True" in gap_rewrite("torch.utils.data.random_split")[1]
    assert gap_rewrite("torch.autograd.gradcheck")[0] == "delete"
    ctx = gap_rewrite("torch.autograd.function.FunctionCtx.save_for_backward")
    assert ctx[0] == "rewrite" and "counted with that Function" in ctx[1]
    assert gap_rewrite("torch.autograd.function.once_differentiable") == ctx
    assert gap_rewrite("torch.get_default_device")[0] == "delete"
    # host I/O helpers and type tests of tensor kinds
    assert "urllib" in gap_rewrite("torch.hub.download_url_to_file")[1]
    assert "PIL" in gap_rewrite("torchvision.utils.save_image")[1]
    assert "COOTensor" in gap_rewrite("torch.Tensor.is_sparse")[1]
    assert gap_rewrite("torch.distributed.tensor.DTensor")[0] == "rewrite"
    assert gap_rewrite("torch.cuda.get_device_properties")[0] == "delete"
    # the build's versions and the device's name, read for a log line or a start-up check
    assert gap_rewrite("torch.version.cuda")[0] == "delete"
    assert gap_rewrite("torch.version.hip")[0] == "delete"
    assert gap_rewrite("torch.version.git_version")[0] == "delete"
    assert gap_rewrite("torch.backends.cudnn.version")[0] == "delete"
    assert gap_rewrite("torch.cuda.get_device_name")[0] == "delete"
    assert gap_rewrite("torch.cuda.get_arch_list")[0] == "delete"
    assert gap_rewrite("torch.cuda.profiler.profile")[0] == "delete"
    assert gap_rewrite("torch.cuda.get_rng_state") == ("rewrite", "mindspore.get_rng_state()")
    assert "recompute" in gap_rewrite("torch.utils.checkpoint.detach_variable")[1]
    assert "scale_factor" in gap_rewrite("torch.GradScaler.get_backoff_factor")[1]
    # INVALID: real work keeps no known way
    assert gap_rewrite("torch.cuda.memory.CUDAPluggableAllocator") is None
    assert gap_rewrite("torch.optim.Optimizer.defaults") is None  # a custom optimizer's port
    assert gap_rewrite("torch.autograd.Function") is None  # the extension is the work
    assert gap_rewrite("torch.multiprocessing.spawn") is None
    assert gap_rewrite("torch.versionless_op") is None  # a name that only starts alike
    assert gap_rewrite("torch.backends.cudnn.benchmark") is None  # a recipe setting
    assert gap_rewrite("torch.nn.parallel.DistributedDataParallel.no_sync") is None


def test_device_timers_and_memory_gauges_are_deletions() -> None:
    """A timing event, a synchronisation before reading a clock, a memory gauge or a cache
    flush feeds a log line: a deletion (or time.perf_counter), not a gap of a day or two."""
    from apiscan.rewrite.known import gap_rewrite

    for api in (
        "torch.cuda.Event.elapsed_time",
        "torch.cuda.synchronize",
        "torch.cuda.max_memory_allocated",
        "torch.cuda.memory_reserved",
        "torch.cuda.mem_get_info",
        "torch.cuda.reset_peak_memory_stats",
        "torch.mps.current_allocated_memory",
        "torch.mps.empty_cache",
    ):
        assert gap_rewrite(api)[0] == "delete", api
    assert "time.perf_counter" in gap_rewrite("torch.cuda.Event.elapsed_time")[1]
    # INVALID: streams, events (which also order work across streams), IPC handles and
    # allocator settings shape the computation or memory
    assert gap_rewrite("torch.cuda.Stream") is None
    assert gap_rewrite("torch.cuda.Event.record") is None
    assert gap_rewrite("torch.cuda.Event.wait") is None
    assert gap_rewrite("torch.cuda.Event.ipc_handle") is None
    assert gap_rewrite("torch.cuda.set_per_process_memory_fraction") is None
    assert gap_rewrite("torch.cuda.memory.CUDAPluggableAllocator") is None


def test_function_spellings_of_clamps_and_softplus_are_compositions(tmp_path: Path) -> None:
    from apiscan.review.gaps import is_custom_op
    from apiscan.rewrite.composed import composed as _composed

    assert "clamp(x, max=v)" in _composed("torch.clamp_max")
    assert "clamp(x, min=v)" in _composed("torch.clamp_min")
    assert "softplus" in _composed("torch.nn.Softplus")
    assert _composed("torch.clamp") == ""  # mapped: not a custom-op finding at all
    write_repo(
        tmp_path,
        {
            "model.py": """
                import torch
                from torch import nn


                class Scale(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.act = nn.Softplus(beta=2)

                    def forward(self, x, y):
                        return self.act(x) + torch.clamp_max(y, 1.0)
            """
        },
    )
    result, _ = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    found = {f.api: f for f in result.api_findings}
    # the scan and the review agree: a composition of existing ops is a rewrite in both
    assert found["torch.nn.Softplus"].disposition == "rewrite"
    assert found["torch.clamp_max"].disposition == "rewrite"
    assert not any(is_custom_op(f) for f in result.api_findings)
    effort = estimate(result, network_gaps(result))
    assert effort.custom_ops == 0 and "custom-op" not in effort.formula, effort.formula


def test_cython_sources_are_native_code(tmp_path: Path) -> None:
    from apiscan.review.gaps import native_sources

    (tmp_path / "ext").mkdir()
    (tmp_path / "ext" / "nms.pyx").write_text("def nms(): pass\n")  # VALID
    (tmp_path / "ext" / "kernel.cu").write_text("\n")  # VALID
    (tmp_path / "ext" / "nms.pyxbld").write_text("\n")  # INVALID: a build recipe
    (tmp_path / "ext" / "helper.py").write_text("\n")  # INVALID: Python
    found = {(what, str(where)) for what, where in native_sources(tmp_path)}
    assert found == {
        ("Cython source (.pyx)", "ext/nms.pyx:1"),
        ("CUDA source (.cu)", "ext/kernel.cu:1"),
    }


def test_schedulers_and_transform_parameters_have_a_known_way() -> None:
    # VALID: a scheduler MindSpore has under the same name, its step and last lr
    assert gap_rewrite("torch.optim.lr_scheduler.SequentialLR.step") == (
        "rewrite",
        "mindspore.experimental.optim.lr_scheduler.SequentialLR.step",
    )
    assert gap_rewrite("torch.optim.lr_scheduler.LRScheduler.get_last_lr")[0] == "rewrite"
    assert "last_epoch" in gap_rewrite("torch.optim.lr_scheduler.SequentialLR.state_dict")[1]
    assert "host" in gap_rewrite("torchvision.transforms.RandomCrop.get_params")[1]
    assert gap_rewrite("torchvision.transforms.v2.RandomResizedCrop.get_params")[0] == "rewrite"
    # VALID: a scheduler MindSpore lacks is its formula in LambdaLR (RAFT's OneCycleLR)
    how = gap_rewrite("torch.optim.lr_scheduler.OneCycleLR")
    assert how is not None and how[0] == "rewrite" and "LambdaLR" in how[1]
    assert "OneCycleLR" in gap_rewrite("torch.optim.lr_scheduler.OneCycleLR.step")[1]
    # INVALID: a method it lacks, the private base class, a non-static transform call
    assert gap_rewrite("torch.optim.lr_scheduler.OneCycleLR.state_dict") is None
    assert gap_rewrite("torch.optim.lr_scheduler._LRScheduler") is None
    assert gap_rewrite("torch.optim.lr_scheduler.StepLR.print_lr") is None
    assert gap_rewrite("torchvision.transforms.RandomCrop.forward") is None


def test_epoch_hooks_and_pictures_for_the_logs_are_no_gaps() -> None:
    # VALID: a sampler's reshuffle hook (moco-v3), torchvision's grid for tensorboard
    # (pytorch-segmentation's trainer): each a delete or a host rewrite, never a gap
    assert gap_rewrite("torch.utils.data.DistributedSampler.set_epoch")[0] == "delete"
    assert gap_rewrite("torch.utils.data.distributed.DistributedSampler.set_epoch")[0] == "delete"
    assert gap_rewrite("torchvision.utils.make_grid")[0] == "rewrite"
    assert gap_rewrite("torchvision.utils.draw_bounding_boxes")[0] == "rewrite"
    # INVALID: other sampler methods, other torchvision.utils names
    assert gap_rewrite("torch.utils.data.DistributedSampler.state_dict") is None
    assert gap_rewrite("torchvision.utils.load_state_dict_from_url") is None


def test_forward_through_a_data_parallel_wrapper_is_the_wrapped_networks_call(
    tmp_path: Path,
) -> None:
    """``model.forward(x)`` on a DistributedDataParallel (DataParallel) wrapper only calls the
    wrapped network: the wrapper's idiom, never a gap. A wrapper member that is real work
    (``no_sync``) keeps no known way."""
    write_repo(
        tmp_path,
        {
            "train.py": """
                import torch
                from torch import nn


                class Net(nn.Module):
                    def forward(self, x, y):
                        return (x - y).pow(2).mean()


                def step(x, y, local_rank: int):
                    model = Net().cuda()
                    model = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
                    loss = model.forward(x, y)
                    single = torch.nn.DataParallel(Net())
                    return loss + single.forward(x, y)
            """
        },
    )
    result, _ = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    forwards = {f.api: f.disposition for f in result.api_findings if f.api.endswith(".forward")}
    assert forwards == {
        "torch.nn.parallel.DistributedDataParallel.forward": "idiom",
        "torch.nn.DataParallel.forward": "idiom",
    }
    assert not [g for g in network_gaps(result) if g.api.endswith(".forward")]
    assert gap_rewrite("torch.nn.parallel.DistributedDataParallel.no_sync") is None


def test_a_hand_written_forward_call_calls_the_cell(tmp_path: Path) -> None:
    """``self.model.forward(x)`` on a torch layer: each layer class defines its own
    ``forward``, so the name resolves to ``torch.nn.Sequential.forward``, which no table
    lists; it is the Cell called (a mechanical idiom), never a gap API priced in days."""
    write_repo(
        tmp_path,
        {
            "model.py": """
                import torch.nn as nn


                class Net(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.body = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())
                        self.head = nn.Conv2d(8, 8, 1)

                    def forward(self, x):
                        return self.head.forward(self.body.forward(x))
            """
        },
    )
    result, _ = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    known = {f.api: f.disposition for f in result.api_findings}
    # VALID: both explicit forward calls are the module-call idiom
    assert known["torch.nn.Sequential.forward"] == "idiom"
    assert known["torch.nn.Conv2d.forward"] == "idiom"
    effort = estimate(result, network_gaps(result))
    assert "gap" not in effort.formula, effort.formula
    assert "mechanical-idiom" in effort.formula
    # INVALID: a forward of a class outside torch.nn keeps no idiom
    from apiscan.rewrite.idioms import idiom_for

    assert idiom_for("torch.nn.Sequential.forward", "call").key == "module-call"
    assert idiom_for("torchvision.ops.FeaturePyramidNetwork.forward", "call") is None
    assert idiom_for("torch.nn.Module.forward", "reference").key == "module-base"
