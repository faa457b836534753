"""A function that writes a param group's learning rate sets the LR where it is called,
whatever its name: a per-step warm-up named ``warmup_learning_rate`` is an LR schedule row
beside the epoch-level ``adjust_learning_rate`` (issue 20: a contrastive repository's
ten-epoch linear warm-up, on in every documented command, was absent from the recipe)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "util.py": """
        def adjust_learning_rate(optimizer, epoch, base_lr):
            lr = base_lr * (0.1 ** (epoch // 30))
            for group in optimizer.param_groups:
                group['lr'] = lr


        def ramp_up(optimizer, step, total, base_lr):
            if step < total:
                lr = base_lr * (step + 1) / total
                for group in optimizer.param_groups:
                    group['lr'] = lr


        def log_value(name, value):
            print(name, value)


        def save_config(lr):
            p = {}
            p['lr'] = lr
            print(p)
    """,
    "train.py": """
        import torch
        from util import adjust_learning_rate, ramp_up, log_value, save_config


        def main():
            model = torch.nn.Linear(4, 1)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            step = 0
            save_config(0.1)
            for epoch in range(90):
                adjust_learning_rate(optimizer, epoch, 0.1)
                for _ in range(10):
                    ramp_up(optimizer, step, 500, 0.1)
                    loss = model(torch.zeros(2, 4)).sum()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                    step += 1
                log_value('loss', loss.item())


        if __name__ == '__main__':
            main()
    """,
}


def test_a_function_writing_the_lr_is_a_schedule_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = {i.name: i for i in review.recipe if i.category == "scheduler"}
    assert {"util.adjust_learning_rate", "util.ramp_up"} <= set(rows)
    assert rows["util.ramp_up"].note.startswith("sets the LR")
    assert "util.log_value" not in rows
    # a dict of settings written out is no param group
    assert "util.save_config" not in rows


ARRAY_FILES = {
    "train.py": """
        import argparse
        import math
        import numpy as np
        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument('--base_lr', type=float, default=0.6)
        parser.add_argument('--final_lr', type=float, default=0.0006)
        parser.add_argument('--warmup_epochs', type=int, default=10)
        parser.add_argument('--epochs', type=int, default=100)
        args = parser.parse_args()


        def train(loader, model, optimizer, epoch, lr_schedule):
            for it, x in enumerate(loader):
                iteration = epoch * len(loader) + it
                for param_group in optimizer.param_groups:
                    param_group['lr'] = lr_schedule[iteration]
                loss = model(x).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        def main():
            model = torch.nn.Linear(4, 1)
            loader = [torch.zeros(2, 4)] * 10
            optimizer = torch.optim.SGD(model.parameters(), lr=args.base_lr)
            warmup = np.linspace(0, args.base_lr, len(loader) * args.warmup_epochs)
            steps = len(loader) * (args.epochs - args.warmup_epochs)
            cosine = np.array([args.final_lr + 0.5 * (args.base_lr - args.final_lr)
                               * (1 + math.cos(math.pi * t / steps)) for t in range(steps)])
            lr_schedule = np.concatenate((warmup, cosine))
            for epoch in range(args.epochs):
                train(loader, model, optimizer, epoch, lr_schedule)


        if __name__ == '__main__':
            main()
    """,
}


def test_an_lr_array_handed_to_the_step_is_the_schedule(tmp_path) -> None:
    """``param_group['lr'] = lr_schedule[iteration]`` with the array built by the caller
    (a linear warm-up then a cosine, concatenated): the row shows how it is computed and
    the settings it reads."""
    review = build_review(str(write_repo(tmp_path, ARRAY_FILES)), jobs=1)
    rows = [i for i in review.recipe if i.name == "LR set by hand in train"]
    assert len(rows) == 1
    values = dict(rows[0].values)
    assert values["shape"] == "warm-up then cosine"
    steps = [v for k, v in rows[0].values if k.startswith("step ")]
    assert steps[0].startswith("warmup = np.linspace(")
    assert steps[-1] == "lr_schedule = np.concatenate((warmup, cosine))"
    assert values["args.final_lr"].startswith("0.0006")


HPARAMS_FILES = {
    "hparams.py": """
        from types import SimpleNamespace


        def create_hparams():
            return SimpleNamespace(epochs=300, learning_rate=1e-3, batch_size=4)
    """,
    "train.py": """
        import torch
        from hparams import create_hparams


        def train(hparams):
            model = torch.nn.Linear(4, 1)
            optimizer = torch.optim.Adam(model.parameters(), lr=hparams.learning_rate)
            loader = [torch.zeros(hparams.batch_size, 4)] * 10
            for epoch in range(0, hparams.epochs):
                for x in loader:
                    loss = model(x).sum()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


        if __name__ == '__main__':
            train(create_hparams())
    """,
}


def test_the_epoch_loops_bound_is_the_length_without_an_option(tmp_path) -> None:
    """``for epoch in range(0, hparams.epochs):`` around the batches, ``epochs=300`` a
    keyword of the settings object ``create_hparams()`` returns: the training length (issue
    20: a speech-synthesis repository's 500 epochs were missing from its recipe)."""
    review = build_review(str(write_repo(tmp_path, HPARAMS_FILES)), jobs=1)
    rows = [(i.name, dict(i.values)["value"]) for i in review.recipe if i.category == "epochs"]
    assert len(rows) == 1 and rows[0][0] == "hparams.epochs"
    assert rows[0][1].startswith("300")


STEPPED_FILES = {
    "train.py": """
        import argparse
        import math
        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument('--lr', type=float, default=0.03)
        parser.add_argument('--epochs', type=int, default=200)
        parser.add_argument('--schedule', default=[120, 160], nargs='*', type=int)
        parser.add_argument('--cos', action='store_true')
        args = parser.parse_args()


        def adjust_learning_rate(optimizer, epoch, args):
            lr = args.lr
            if args.cos:
                lr *= 0.5 * (1.0 + math.cos(math.pi * epoch / args.epochs))
            else:
                for milestone in args.schedule:
                    lr *= 0.1 if epoch >= milestone else 1.0
            for param_group in optimizer.param_groups:
                param_group['lr'] = lr


        def main():
            model = torch.nn.Linear(4, 1)
            optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
            for epoch in range(args.epochs):
                adjust_learning_rate(optimizer, epoch, args)
                loss = model(torch.zeros(2, 4)).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_in_place_steps_of_a_hand_schedule_are_shown_with_their_switch(tmp_path) -> None:
    """MoCo-like ``adjust_learning_rate``: the milestone decay is an augmented assignment
    in a loop, the cosine one behind ``if args.cos:`` (a flag off by default). VALID: the
    in-place step the run takes, with its branch and loop, the flag and the milestones with
    their values; INVALID: the cosine step and shape the run's flag switches off."""
    review = build_review(str(write_repo(tmp_path, STEPPED_FILES)), jobs=1)
    row = next(i for i in review.recipe if i.name == "train.adjust_learning_rate")
    values = dict(row.values)
    steps = [v for k, v in row.values if k.startswith("step ")]
    assert steps == [
        "lr = args.lr",
        "else of if args.cos: for milestone in args.schedule: "
        "lr *= 0.1 if epoch >= milestone else 1.0",
        "param_group['lr'] = lr",
    ]
    assert values["args.cos"].startswith("False")
    assert values["args.schedule"].startswith("[120, 160]")
    assert "shape" not in values


SCHEDULE_OBJECTS = {
    "sched.py": """
        class LinearSchedule:
            def __init__(self, start, end):
                self.start, self.end = start, end

            def __call__(self, progress):
                return self.end + progress * (self.start - self.end)
    """,
    "agent.py": """
        import torch

        from sched import LinearSchedule


        class Agent:
            def __init__(self, learning_rate=3e-4):
                self.net = torch.nn.Linear(4, 2)
                self.lr_schedule = LinearSchedule(learning_rate, 0.0)
                self.exploration_schedule = LinearSchedule(1.0, 0.05)
                self.clip_range = LinearSchedule(0.2, 0.1)
                self.optimizer = torch.optim.Adam(self.net.parameters(), lr=learning_rate)

            def train(self, progress):
                for group in self.optimizer.param_groups:
                    group["lr"] = self.lr_schedule(progress)
                loss = self.net(torch.zeros(2, 4)).sum()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()


        if __name__ == "__main__":
            Agent().train(1.0)
    """,
}


def test_a_schedule_object_another_setting_follows_is_no_lr_schedule(tmp_path) -> None:
    """stable-baselines3-like schedule callables: the one stored as the LR's schedule is a
    row; those an exploration rate and a clipping range follow are not."""
    review = build_review(str(write_repo(tmp_path, SCHEDULE_OBJECTS)), jobs=1)
    rows = [r for r in review.recipe if r.name.endswith("LinearSchedule")]
    assert [dict(r.values).get("start", "").partition(" ")[0] for r in rows] == ["3e-4"], rows
