"""A loss that sums the same criterion over several side outputs, unweighted (deep
supervision: ``loss = loss0 + loss1 + loss2``, each ``bce(d_i, target)``): its row says how
many terms it adds, what each is, and that each weighs 1, not only the names it is passed
(issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import torch
        import torch.nn as nn

        bce = nn.BCELoss()


        def side_outputs_loss(d0, d1, d2, target):
            loss0 = bce(d0, target)
            loss1 = bce(d1, target)
            loss2 = bce(d2, target)
            loss = loss0 + loss1 + loss2
            return loss0, loss


        net = nn.Conv2d(3, 3, 1)
        optimizer = torch.optim.Adam(net.parameters(), lr=0.001)
        for epoch in range(5):
            for x, target in [(torch.zeros(1, 3, 4, 4), torch.zeros(1, 3, 4, 4))]:
                optimizer.zero_grad()
                out = torch.sigmoid(net(x))
                first, loss = side_outputs_loss(out, out, out, target)
                loss.backward()
                optimizer.step()
    """,
}


def test_an_unweighted_sum_of_side_output_terms_is_listed_with_weight_one(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    [row] = [r for r in review.recipe if r.name.endswith("side_outputs_loss")]
    values = dict(row.values)
    terms = values.get("terms of output 2", "")
    assert terms.startswith("3 terms summed, weight 1 each"), values
    assert "loss0 = bce(d0, target)" in terms and "loss2 = bce(d2, target)" in terms, terms
    # the first output is one term, no sum: nothing said of it
    assert "terms of output 1" not in values, values
