"""The review's "Verify first" line recommends the micro-tests of the parity-critical APIs
the network uses, riskiest first, and only commands that have a case and say where they
run."""

from __future__ import annotations

from dataclasses import replace

from apiscan.model import ApiFinding, CallArgs, ParamChange, Span
from apiscan.review.gaps import verify_first


def _site(api: str, status: str, *changes: ParamChange, line: int = 1) -> ApiFinding:
    return ApiFinding(
        path="net.py",
        span=Span(line, 0, line, 10),
        api=api,
        status=status,
        mindspore_api="mindspore.x",
        confidence="certain",
        note="",
        usage="call",
        namespace=api.rpartition(".")[0],
        scope="network",
        args=CallArgs(receiver="x" if api.startswith("torch.Tensor.") else ""),
        param_changes=changes,
    )


ALIGN = ParamChange("align_corners", "default", torch_default="None", ms_default="False")
INPLACE = ParamChange("inplace", "unsupported", note="in-place")
DEVICE = ParamChange("device", "unsupported")


def test_parameters_that_differ_then_parity_critical_ops_then_status() -> None:
    found = verify_first(
        [
            _site("torch.Tensor.data", "candidate", line=1),
            _site("torch.nn.ReLU", "different", INPLACE, line=2),
            _site("torch.nn.functional.grid_sample", "different", ALIGN, line=3),
            _site("torch.nn.MaxPool2d", "different", line=4),
            _site("torch.arange", "different", DEVICE, line=5),
            _site("torch.arange", "different", DEVICE, line=6),
            _site("torch.nn.CTCLoss", "consistent", line=7),
            _site("torch.nn.LSTM", "different", line=8),
        ],
        limit=8,
    )
    assert found == [
        "apiscan verify torch.nn.functional.grid_sample (different, passes align_corners, "
        "1 call site)",
        # recurrent layers and losses before other ops, whatever their rows say
        "apiscan verify torch.nn.LSTM (different, 1 call site)",
        "apiscan verify torch.nn.CTCLoss (consistent, 1 call site)",
        "apiscan verify torch.nn.MaxPool2d (different, 1 call site)",
        "apiscan verify torch.Tensor.data (candidate, 1 call site)",
        # a difference only in placement or in-place memory changes no value: last
        "apiscan verify torch.arange (different, 2 call sites)",
        "apiscan verify torch.nn.ReLU (different, 1 call site)",
    ]


def test_only_commands_with_a_case_and_their_device() -> None:
    found = verify_first(
        [
            # no case in the catalogue: never recommended
            _site("torchvision.ops.deform_conv2d", "different", line=1),
            _site("torch.Tensor.uniform_", "candidate", line=2),
            # a missing API has nothing to verify
            _site("torch.Tensor.unflatten", "missing", line=3),
        ]
    )
    assert len(found) == 1
    assert found[0].startswith(
        "apiscan verify torch.Tensor.uniform_ --device Ascend (its case cannot run on CPU: "
    )
    assert verify_first([]) == []


def test_at_most_the_limit() -> None:
    sites = [_site(api, "different", line=n) for n, api in enumerate(("torch.topk", "torch.cat"))]
    assert len(verify_first(sites, limit=1)) == 1


LOG_TARGET = ParamChange("log_target", "unsupported")
SIZE_AVERAGE = ParamChange("size_average", "unsupported")


def test_a_command_says_which_ranked_parameter_no_case_passes() -> None:
    found = verify_first(
        [_site("torch.nn.functional.kl_div", "different", LOG_TARGET, SIZE_AVERAGE)]
    )
    # the catalogue has a log_target=True case; none passes size_average
    assert found == [
        "apiscan verify torch.nn.functional.kl_div (different, passes log_target, size_average, "
        "1 call site; no case passes size_average: compare that form by hand)"
    ]
    # INVALID: a parameter a case passes adds no such note
    covered = verify_first([_site("torch.nn.functional.kl_div", "different", LOG_TARGET)])
    assert covered == [
        "apiscan verify torch.nn.functional.kl_div (different, passes log_target, 1 call site)"
    ]


def test_a_parameter_passed_at_its_torch_default_is_covered_by_the_default_case() -> None:
    bias = ParamChange("bias", "default", torch_default="True", ms_default="False")
    conv = _site("torch.nn.Conv1d", "different", bias)
    at_default = replace(conv, args=CallArgs(keywords=(("bias", "True"),)))
    assert verify_first([at_default]) == [
        "apiscan verify torch.nn.Conv1d (different, passes bias, 1 call site)"
    ]
    # INVALID: bias=False is a form no case runs
    off = replace(conv, args=CallArgs(keywords=(("bias", "False"),)))
    assert verify_first([off]) == [
        "apiscan verify torch.nn.Conv1d (different, passes bias, 1 call site; no case passes "
        "bias: compare that form by hand)"
    ]


def test_a_class_passed_as_a_value_is_no_call() -> None:
    """``Head(..., pool=nn.AvgPool2d)`` passes the class itself: no arguments, so nothing it
    "omits" ranks the API or needs a case (and the finding has no call arguments to read)."""
    pad = ParamChange("count_include_pad", "default", torch_default="True", ms_default="False")
    reference = replace(_site("torch.nn.AvgPool2d", "different", pad), args=None)
    assert verify_first([reference]) == [
        "apiscan verify torch.nn.AvgPool2d (different, 1 call site)"
    ]
    # beside a real call that passes it, the call alone decides
    call = replace(
        _site("torch.nn.AvgPool2d", "different", pad, line=2),
        args=CallArgs(keywords=(("count_include_pad", "False"),)),
    )
    found = verify_first([reference, call])
    assert found[0].startswith("apiscan verify torch.nn.AvgPool2d (different, passes ")
