"""A folder named for a demo among other words (``gradio_demo/``, ``web_demo/``) holds an app
beside the package, counted apart as ``demo/`` is: the released model its app downloads from
the hub is no work of the training's port."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.work import dir_reason


def test_a_folder_is_told_apart_by_its_name_or_a_demo_word() -> None:
    # VALID: the whole names, and a demo word joined to others
    assert dir_reason("tools") == "tools"
    assert dir_reason("Demo") == "demo"
    assert dir_reason("gradio_demo") == "demo"
    assert dir_reason("web-demos") == "demo"
    # INVALID: a word that only starts like one, and the package's own folders
    assert dir_reason("demography") == ""
    assert dir_reason("models") == ""
    assert dir_reason("my_tools") == ""


def test_a_demo_apps_hub_download_is_no_work_item(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "net/model.py": """
                from torch import nn

                class Net(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.fc = nn.Linear(4, 2)

                    def forward(self, x):
                        return self.fc(x)
            """,
            "train.py": """
                import torch
                from net.model import Net

                def main():
                    net = Net()
                    opt = torch.optim.SGD(net.parameters(), lr=0.1)
                    loss = net(torch.randn(2, 4)).sum()
                    loss.backward()
                    opt.step()

                if __name__ == "__main__":
                    main()
            """,
            "gradio_demo/app.py": """
                import torch

                def track(video):
                    model = torch.hub.load("someone/tracker", "tracker_online")
                    return model(video)
            """,
            "demography/stats.py": """
                import torch

                def load_table(path):
                    return torch.hub.load("someone/census", "table")
            """,
        },
    )
    review = build_review(str(tmp_path))
    apart = dict(review.ancillary)
    # VALID: the demo app is counted apart, its hub model no backbone item
    assert apart.get("gradio_demo/app.py") == "demo"
    hubs = [i.what for i in review.work if "torch.hub.load" in i.what]
    assert not any("tracker_online" in w for w in hubs)
    # INVALID: a folder whose name only starts like "demo" is ported
    assert "demography/stats.py" not in apart
