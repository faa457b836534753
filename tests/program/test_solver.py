"""The solver on real scans: parameters from call sites, helpers, recursion, owners, cache."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import apis, scan_repo, write_repo

from apiscan.pipeline import ScanOptions, scan, scan_with_facts

HELPERS = {
    "pkg/__init__.py": "",
    "pkg/ops.py": """
        import torch


        def first(x, k):
            return x[:k]


        def only_static(x, k):
            return x[:k]


        def view_two_hops(x):
            return hop(x)


        def hop(x):
            return x.view(-1)


        def recurse(x, n):
            if n:
                return recurse([x], n - 1)
            return x[:n]
    """,
    "pkg/net.py": """
        import torch
        from torch import nn

        from pkg.ops import first, only_static, recurse, view_two_hops


        class Net(nn.Module):
            def forward(self, x, counts):
                n = int(counts.sum())
                a = first(x, n)
                b = first(x, 3)
                c = only_static(x, 3)
                d = view_two_hops(x)
                e = recurse(x, 2)
                return a, b, c, d, e
    """,
}


def test_parameters_come_from_call_sites(tmp_path: Path) -> None:
    result = scan_repo(write_repo(tmp_path, HELPERS))
    shape = {(f.path, f.span.line, f.rule, f.function) for f in result.shape_findings}
    assert ("pkg/ops.py", 5, "DS109", "first") in shape  # one caller passes data
    assert not any(f[3] == "only_static" for f in shape)  # every caller passes a constant
    assert result.stats["solver_rounds"] >= 1
    assert result.stats["solver_iterations"] >= 1


def test_owners_two_hops_down_are_certain(tmp_path: Path) -> None:
    result = scan_repo(write_repo(tmp_path, HELPERS))
    views = [f for f in result.api_findings if f.api == "torch.Tensor.view"]
    assert [(f.path, f.confidence) for f in views] == [("pkg/ops.py", "certain")]


def test_tensor_type_with_a_dtype_is_a_tensor(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "snippet.py": """
                import torch


                def overlap(tl: torch.Tensor, br: torch.Tensor):
                    inside = (tl < br).type(tl.type()).prod(dim=1)
                    x = tl.type(torch.float32)
                    y = x.scatter(0, br.long(), 1.0)
                    name = tl.type()
                    return inside, y, name.upper()
            """
        },
    )
    found = apis(list(scan_repo(tmp_path).api_findings))
    assert (5, "torch.Tensor.prod", "certain") in found
    assert (7, "torch.Tensor.scatter", "certain") in found
    assert not any(api.endswith(".upper") for _, api, _ in found)  # type() alone is a str


def test_warm_rescan_reuses_every_walk(tmp_path: Path) -> None:
    repo = write_repo(tmp_path / "repo", HELPERS)
    cache = tmp_path / "cache"
    cold = scan(ScanOptions(str(repo), cache_dir=cache, jobs=1))
    assert cold.stats["files_rewalked"] >= 1
    # a different mapping table misses the whole-result cache, not the per-file walks
    warm = scan(ScanOptions(str(repo), cache_dir=cache, jobs=1, ms_version="2.4"))
    assert warm.stats["files_analysed"] == 0
    assert warm.stats["files_cached"] > 0
    assert {(f.path, f.span.line, f.rule) for f in warm.shape_findings} == {
        (f.path, f.span.line, f.rule) for f in cold.shape_findings
    }


CALL_FORMS = {
    "pkg/__init__.py": "",
    "pkg/base.py": """
        from torch import nn


        class Base(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.width = width

            def cut(self, x, n):
                return x[:n]
    """,
    "pkg/net.py": """
        import functools

        import torch
        from torch import nn

        from pkg.base import Base


        def head(x, k=1):
            return x[:k]


        class Net(Base):
            def __init__(self):
                super().__init__(8)

            def forward(self, x, counts):
                n = int(counts.sum())
                by_keyword = functools.partial(head, k=n)
                return by_keyword(x), super().cut(x, 2)
    """,
}


def test_super_and_partial_keywords_reach_parameters(tmp_path: Path) -> None:
    from apiscan.program import values as pv
    from apiscan.program.index import ClassTable
    from apiscan.program.solver import solve
    from apiscan.resolve.torch_api import load_torch_api

    result, analyses = scan_with_facts(
        ScanOptions(str(write_repo(tmp_path, CALL_FORMS)), cache_dir=None, jobs=1)
    )
    sol = solve(analyses, ClassTable(analyses, load_torch_api()))
    # super().__init__(8) in another file's subclass: the base's parameter is static
    assert sol.params[("pkg.base.Base.__init__", "width")] == pv.STATIC
    # super().cut(x, 2): static, so the base's slice stays quiet
    assert sol.params[("pkg.base.Base.cut", "n")] == pv.STATIC
    # partial(head, k=n): the keyword bound in the partial reaches k
    assert isinstance(sol.params[("pkg.net.head", "k")], pv.HostNumber)
    shape = {(f.path, f.rule, f.function) for f in result.shape_findings}
    assert ("pkg/net.py", "DS109", "head") in shape
    assert not any(f[0] == "pkg/base.py" for f in shape)


SYNC_ELSEWHERE = {
    "pkg/__init__.py": "",
    "pkg/count.py": """
        import torch


        def positives(scores):
            return int((scores > 0.5).sum())


        def quiet(scores):
            return int((scores > 0.5).sum())  # apiscan: ignore[DS118]
    """,
    "pkg/head.py": """
        from torch import nn

        from pkg.count import positives, quiet


        class Head(nn.Module):
            def forward(self, scores, boxes):
                return boxes[: positives(scores)], boxes[: quiet(scores)]
    """,
}


def test_a_sync_used_in_another_file_is_placed_at_the_sync(tmp_path: Path) -> None:
    result = scan_repo(write_repo(tmp_path, SYNC_ELSEWHERE))
    syncs = [
        (f.path, f.span.line, f.function, f.scope)
        for f in result.shape_findings
        if f.rule == "DS118"
    ]
    # the suppression comment in the sync's own file is honoured
    assert syncs == [("pkg/count.py", 5, "positives", "network")]


def test_a_package_whose_names_are_torch_names_solves_its_own_calls(tmp_path: Path) -> None:
    # scanned as a repository (a library's own source, such as torchvision's), the module's
    # functions are what its calls reach, though their names are in the torch API index
    root = write_repo(
        tmp_path,
        {
            "torchvision/__init__.py": "",
            "torchvision/ops/__init__.py": "",
            "torchvision/ops/pool.py": """
                import torch


                def pool(boxes):
                    rois = torch.cat(boxes, 0)
                    return torch.zeros((len(rois), 4))


                def head(scores):
                    scores = torch.sigmoid(scores)
                    kept = []
                    for s in scores:
                        keep = s > 0.5
                        kept.append(s[keep])
                    return pool(kept)
            """,
        },
    )
    found = {(f.path, f.span.line, f.rule) for f in scan_repo(root).shape_findings}
    assert ("torchvision/ops/pool.py", 6, "DS113") in found


def test_a_solve_reusing_the_previous_ones_names_finds_the_same_facts(tmp_path: Path) -> None:
    """The pipeline's rounds hand each solve what the previous one resolved (the hierarchy,
    callee spellings): the facts are those of a solve from scratch, and a program of another
    shape (a function renamed) starts afresh."""
    from dataclasses import replace

    from apiscan.program import values as pv
    from apiscan.program.index import ClassTable
    from apiscan.program.solver import Reuse, solve
    from apiscan.resolve.torch_api import load_torch_api

    _result, analyses = scan_with_facts(
        ScanOptions(
            str(
                write_repo(
                    tmp_path, {**CALL_FORMS, "pkg/lonely.py": "def lonely(x, n=3):\n    pass\n"}
                )
            ),
            cache_dir=None,
            jobs=1,
        )
    )
    classes = ClassTable(analyses, load_torch_api())
    fresh = solve(analyses, classes)
    reuse = Reuse()
    first = solve(analyses, classes, reuse)
    hierarchy = reuse.hierarchy
    again = solve(list(analyses), classes, reuse)
    assert reuse.hierarchy is hierarchy  # same shape: kept
    for sol in (first, again):
        assert (sol.params, sol.returns, sol.attrs, sol.envs, sol.building) == (
            fresh.params,
            fresh.returns,
            fresh.attrs,
            fresh.envs,
            fresh.building,
        )
    assert reuse.uncalled  # functions no call site reaches: their facts are kept
    # the last solve of a scan walks nothing again: the same facts, no environments
    bare = solve(analyses, classes, reuse, envs=False)
    assert (bare.params, bare.returns, bare.attrs, bare.building) == (
        fresh.params,
        fresh.returns,
        fresh.attrs,
        fresh.building,
    )
    assert bare.envs == {} and any(fresh.envs.values())
    # re-walked files give new summaries (same names, other declared facts): those are solved
    # again, not taken from the earlier solve
    declared = [
        replace(
            fa,
            summaries=tuple(
                replace(s, params=tuple(replace(p, declared=pv.Tensor(arg=True)) for p in s.params))
                for s in fa.summaries
            ),
        )
        for fa in analyses
    ]
    kept = solve(declared, classes, reuse)
    assert reuse.hierarchy is hierarchy
    scratch = solve(declared, classes)
    assert kept.params == scratch.params != fresh.params
    assert kept.envs == scratch.envs
    renamed = [
        replace(fa, summaries=tuple(replace(s, qualname=s.qualname + "_x") for s in fa.summaries))
        for fa in analyses
    ]
    solve(renamed, classes, reuse)
    assert reuse.hierarchy is not hierarchy


def test_a_returned_parameter_is_bound_at_each_call() -> None:
    from apiscan.extract.records import FunctionSummary, ParamInfo
    from apiscan.program import values as pv
    from apiscan.program.solver import _passed_on

    params = (
        ParamInfo("self", "pos", pv.UNKNOWN, False),
        ParamInfo("val", "pos", pv.UNKNOWN, False),
        ParamInfo("tag", "kwonly", pv.UNKNOWN, True),
    )
    returns = pv.Tup((pv.Param("val"), pv.STATIC))
    got = _passed_on(FunctionSummary("M.pick", "M", params, True, returns))
    assert got == pv.PassedOn(returns, ("self", "val"), ("self", "val", "tag"), True)
    # a value computed from the parameters stays the solver's join
    computed = FunctionSummary("M.above", "M", params, True, pv.Tensor(boolean=True))
    assert _passed_on(computed) is None


PASSED_ON = {
    "pkg/__init__.py": "",
    "pkg/net.py": """
        import torch
        from torch import nn


        class Net(nn.Module):
            def __init__(self, steps=None):
                super().__init__()
                self.proj = nn.Linear(4, 4)
                self.steps = self.pick(steps, 1)

            def pick(self, val, fallback=None):
                if val is None:
                    return fallback()
                return val

            def forward(self, x):
                x = self.proj(x)
                keep = self.pick(x > 0)
                if self.pick(self.steps) > 1:
                    x = x * 2
                return x[keep]
    """,
}


def test_a_method_returning_its_parameter_gives_each_caller_its_own(tmp_path: Path) -> None:
    result = scan_repo(write_repo(tmp_path, PASSED_ON))
    shape = {(f.path, f.span.line, f.rule) for f in result.shape_findings}
    # the mask one call passes is handed back there; the config number another passes
    # stays a number (no DS116 on the ``if``)
    assert shape == {("pkg/net.py", 21, "DS104")}


DECLARED = {
    "pkg/__init__.py": "",
    "pkg/ops.py": """
        import torch


        def as_tensor_is(x: torch.Tensor):
            return x


        def as_is(x):
            return x
    """,
    "pkg/run.py": """
        import torch

        from pkg.ops import as_is, as_tensor_is


        def step(batch, scores: torch.Tensor):
            a = as_tensor_is(batch["img"]).permute(0, 2, 1)
            b = as_is(batch["img"]).permute(0, 2, 1)
            keep = as_is(scores.sigmoid() > 0.5)
            return a[keep], b
    """,
}


def test_a_returned_parameter_declared_a_tensor_stays_one(tmp_path: Path) -> None:
    # the call passes something unknown: the annotation stands for what comes back, and
    # nothing does where the function declares nothing
    result = scan_repo(write_repo(tmp_path, DECLARED))
    permutes = {
        f.span.line: f.confidence
        for f in result.api_findings
        if f.path == "pkg/run.py" and f.api == "torch.Tensor.permute"
    }
    assert permutes == {7: "certain", 8: "probable"}
    shape = {(f.path, f.span.line, f.rule) for f in result.shape_findings}
    assert shape == {("pkg/run.py", 10, "DS104")}


SPREAD = {
    "pkg/__init__.py": "",
    "pkg/flat.py": """
        def flatten(probas, labels):
            valid = labels != 255
            return probas[valid], labels[valid]


        def pair(probas, labels):
            return probas, labels
    """,
    "pkg/loss.py": """
        from torch import nn

        from pkg.flat import flatten, pair


        def spread_from_a_call(probas, labels):
            if probas.numel() == 0:
                return probas * 0.0
            return probas.sum()


        def spread_static(probas, labels):
            if probas.numel() == 0:
                return probas * 0.0
            return probas.sum()


        def spread_unknown(probas, labels):
            if probas.numel() == 0:
                return probas * 0.0
            return probas.sum()


        class Loss(nn.Module):
            def forward(self, probas, labels, *rest):
                a = spread_from_a_call(*flatten(probas, labels))
                b = spread_static(*pair(probas, labels))
                c = spread_unknown(*rest)
                return a + b + c
    """,
}


def test_a_spread_tuple_fills_the_parameters(tmp_path: Path) -> None:
    """``f(*flatten(x))`` binds the tuple's items to ``f``'s parameters as ``a, b =
    flatten(x); f(a, b)`` would: the masked selection reaches the size test; a static pair
    and a ``*rest`` of unknown length bind nothing data-dependent."""
    result = scan_repo(write_repo(tmp_path, SPREAD))
    shape = {(f.path, f.span.line, f.rule, f.function) for f in result.shape_findings}
    assert ("pkg/loss.py", 7, "DS116", "spread_from_a_call") in shape
    assert not any(f[3] in ("spread_static", "spread_unknown") for f in shape)


def test_a_round_solves_again_only_what_its_rewalks_changed(tmp_path: Path) -> None:
    """After a round re-walks some files, the next solve takes the facts of the call graph's
    components nothing reaching them changed (same summaries, sites and callers' facts) from
    the previous solve, and solves the others again: the facts, environments and iteration
    counts are those of a solve from scratch, also where only a caller's file changed."""
    from dataclasses import replace

    from apiscan.extract.records import FileAnalysis
    from apiscan.program import values as pv
    from apiscan.program.index import ClassTable
    from apiscan.program.solver import Reuse, solve
    from apiscan.resolve.torch_api import load_torch_api

    _result, analyses = scan_with_facts(
        ScanOptions(str(write_repo(tmp_path, HELPERS)), cache_dir=None, jobs=1)
    )
    classes = ClassTable(analyses, load_torch_api())
    reuse = Reuse()
    solve(analyses, classes, reuse)
    kept = dict(reuse.components)
    assert kept  # the call graph's components, with what their facts came from

    def same(a: object, b: object) -> None:
        for name in ("params", "returns", "attrs", "envs", "building", "iterations"):
            assert getattr(a, name) == getattr(b, name), name

    # the same records (a re-walk that found nothing new): every component is taken as is
    again = solve([replace(fa) for fa in analyses], classes, reuse)
    same(again, solve(analyses, classes))
    assert all(reuse.components[k][1] is kept[k][1] for k in kept)

    # only the caller's file changed: its forward now takes a tensor whose shape depends on
    # data, which the helpers of the unchanged ops.py receive through their call sites
    def dynamic_forward(fa: FileAnalysis) -> FileAnalysis:
        if not fa.path.endswith("net.py"):
            return fa
        summaries = tuple(
            replace(s, params=tuple(replace(p, declared=pv.Tensor(dynamic=True)) for p in s.params))
            if s.qualname == "Net.forward"
            else s
            for s in fa.summaries
        )
        return replace(fa, summaries=summaries)

    changed = [dynamic_forward(fa) for fa in analyses]
    rewalked = solve(changed, classes, reuse)
    scratch = solve(changed, classes)
    same(rewalked, scratch)
    helpers = {k: f for k, f in rewalked.params.items() if k[0].startswith("pkg.ops.")}
    assert helpers != {k: f for k, f in again.params.items() if k[0].startswith("pkg.ops.")}
    assert any(reuse.components[k][1] is not kept[k][1] for k in kept)

    # only the callee's file changed (what ``only_static`` returns): the caller's file keeps
    # its records, and its environment is made again from the new return fact
    def dynamic_return(fa: FileAnalysis) -> FileAnalysis:
        if not fa.path.endswith("ops.py"):
            return fa
        summaries = tuple(
            replace(s, returns=pv.Tensor(dynamic=True)) if s.qualname == "only_static" else s
            for s in fa.summaries
        )
        return replace(fa, summaries=summaries)

    solve(analyses, classes, reuse)
    net = next(fa.path for fa in analyses if fa.path.endswith("net.py"))
    before = reuse.envs[net]
    returned = solve([dynamic_return(fa) for fa in analyses], classes, reuse)
    same(returned, solve([dynamic_return(fa) for fa in analyses], classes))
    assert reuse.envs[net][0] is before[0] and reuse.envs[net][2] != before[2]
    assert pv.without_chain(dict(returned.envs[net])["r:pkg.ops.only_static"]) == pv.Tensor(
        dynamic=True
    )


def test_a_builder_tuple_of_repository_instances_shows_calls() -> None:
    from apiscan.program import values as pv
    from apiscan.program.solver import shows_calls

    both = pv.Tup((pv.Instance("pkg.model.Net"), pv.Instance("pkg.model.Criterion")))
    assert shows_calls((("r:pkg.build", pv.UNKNOWN),), (("r:pkg.build", both),))
    # nothing new: the same classes already known
    assert not shows_calls((("r:pkg.build", both),), (("r:pkg.build", both),))
    torch_only = pv.Tup((pv.Instance("torch.nn.Linear"), pv.TENSOR))
    assert not shows_calls((("r:pkg.build", pv.UNKNOWN),), (("r:pkg.build", torch_only),))


def test_a_member_a_repository_module_inherits_from_torch_is_certain(tmp_path: Path) -> None:
    # ``module`` is proven the repository's model: ``named_modules`` is nn.Module's, while
    # ``describe``, the model's own method, is no torch API
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/net.py": """
                from torch import nn


                class Net(nn.Module):
                    def describe(self):
                        return "net"
            """,
            "pkg/tools.py": """
                def count(module):
                    return len(list(module.named_modules())), module.describe()
            """,
            "train.py": """
                from pkg.net import Net
                from pkg.tools import count


                def main():
                    return count(Net())
            """,
        },
    )
    found = [
        (f.api, f.confidence) for f in scan_repo(tmp_path).api_findings if f.path == "pkg/tools.py"
    ]
    assert found == [("torch.nn.Module.named_modules", "certain")]
