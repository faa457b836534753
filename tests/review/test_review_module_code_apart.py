"""Module-level code of modules only files counted apart use (issue 20 item 1): a tracker
package's ``INFTY_COST = 1e+5`` constant and its ``np.random.seed(0)`` at import are the
tracking tool's, not recipe rows of the training; a constant the training reads stays."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "net.py": """
        import torch
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(2, 2)
            def forward(self, x):
                return self.fc(x)
    """,
    "weights.py": """
        LOSS_WEIGHT = 2.0
        def unused_helper(x):
            return x
    """,
    "train.py": """
        import torch
        from net import Net
        from weights import LOSS_WEIGHT
        def main():
            model = Net()
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            loss = model(torch.zeros(1, 2)).sum() * LOSS_WEIGHT
            loss.backward()
            opt.step()
        if __name__ == "__main__":
            main()
    """,
    "tracker/assign.py": """
        import numpy as np
        INFTY_COST = 1e+5
        np.random.seed(0)
        def gate(cost, gated_cost=INFTY_COST):
            cost[cost > 1] = gated_cost
            return cost
        class Tracker:
            def update(self, cost):
                return gate(cost) + INFTY_COST
    """,
    "tools/track.py": """
        import numpy as np
        import torch
        from net import Net
        from tracker.assign import Tracker
        def main():
            net = Net()
            out = net(torch.zeros(1, 2)).cpu().numpy()
            Tracker().update(out)
        if __name__ == "__main__":
            main()
    """,
}


def test_module_code_of_modules_only_tools_use_gives_no_recipe_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "trk", REPO)))
    rows = {(i.category, i.name, i.where.path) for i in review.recipe}
    assert not any(path == "tracker/assign.py" for _, _, path in rows), rows
    # the training's own constant, read by the training step, stays
    assert ("loss", "LOSS_WEIGHT", "weights.py") in rows
