"""A function named ``init_*`` is an initialisation row only when it initialises the
model: CornerNet's ``init_parallel_jobs`` starting its prefetch processes (``task.daemon =
True``) initialises nothing (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import torch
        from torch.multiprocessing import Process, Queue


        def prefetch(queue):
            queue.put(torch.zeros(2, 4))


        def init_parallel_jobs(queue, n):
            tasks = [Process(target=prefetch, args=(queue,)) for _ in range(n)]
            for task in tasks:
                task.daemon = True
                task.start()
            return tasks


        def init_norms(model):
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm1d):
                    m.eps = 1e-3
                    m.momentum = 0.03


        def main():
            queue = Queue()
            init_parallel_jobs(queue, 2)
            model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
            init_norms(model)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(2):
                loss = model(queue.get()).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_only_a_routine_touching_the_model_is_an_initialisation_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = {r.name for r in review.recipe if r.category == "init"}
    assert "init_norms" in rows  # VALID: the BatchNorm layers' eps and momentum
    assert "init_parallel_jobs" not in rows  # INVALID: worker processes started
