"""A parameter only a function nothing runs passes (issue 20 item 1): votenet's
``nn_distance(pc1, pc2, l1smooth=False, ...)`` is called by the loss with two positional
arguments, and with ``True`` for ``l1smooth`` only by the module's ``demo_nn_distance()``,
run from its ``__main__`` block. ``l1smooth`` keeps its default in the run: the
``huber_loss`` under ``if l1smooth:`` is no loss row."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "dist.py": """
        import torch
        def huber_loss(error, delta=1.0):
            abs_error = torch.abs(error)
            quadratic = torch.clamp(abs_error, max=delta)
            return 0.5 * quadratic ** 2 + delta * (abs_error - quadratic)
        def nn_distance(pc1, pc2, l1smooth=False, delta=1.0):
            diff = pc1.unsqueeze(2) - pc2.unsqueeze(1)
            if l1smooth:
                dist = torch.sum(huber_loss(diff, delta), dim=-1)
            else:
                dist = torch.sum(diff ** 2, dim=-1)
            return torch.min(dist, dim=2)[0]
        def demo_nn_distance():
            pc1 = torch.rand(1, 5, 3)
            print(nn_distance(pc1, pc1, True))
        if __name__ == "__main__":
            demo_nn_distance()
    """,
    "train.py": """
        import torch
        from dist import huber_loss, nn_distance
        def vote_loss(pred, gt):
            return nn_distance(pred, gt).mean() + huber_loss(pred - gt).mean()
        def main():
            net = torch.nn.Linear(3, 3)
            opt = torch.optim.Adam(net.parameters(), lr=1e-3)
            for _ in range(3):
                x = torch.rand(2, 8, 3)
                loss = vote_loss(net(x), x)
                loss.backward()
                opt.step()
        if __name__ == "__main__":
            main()
    """,
}


def test_a_flag_only_a_dead_demo_passes_keeps_its_default(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    places = [(i.where.path, i.name) for i in review.recipe if i.category == "loss"]
    # the loss's own call of huber_loss is a row; the one under ``if l1smooth:`` is not
    assert ("train.py", "dist.huber_loss") in places, places
    assert not any(path == "dist.py" for path, _ in places), places


def test_a_dead_functions_call_passes_no_flag(tmp_path: Path) -> None:
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.work import defaulted_flags, uncalled_functions

    write_repo(tmp_path, REPO)
    result, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    dead = set(uncalled_functions(analyses, result))
    assert ("dist.py", "demo_nn_distance") in dead
    flags = defaulted_flags(analyses, {}, {}, dead=dead)
    told = {name: v for own in flags.get("dist.py", {}).values() for name, v in own.items()}
    assert told.get("l1smooth") == [False], flags
    # without the dead set, the demo's ``True`` keeps the branch
    plain = defaulted_flags(analyses, {}, {})
    told = {name: v for own in plain.get("dist.py", {}).values() for name, v in own.items()}
    assert "l1smooth" not in told
