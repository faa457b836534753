"""A second framework's half in a folder named after that framework (issue 20 item 4): a
``tensorflow/`` folder with no ``__init__.py`` beside ``pytorch/`` does not make
``import tensorflow as tf`` the repository's own code. Its files are an adapter for
another framework, counted apart: their learning rate, batch size and epochs are no rows
of the torch recipe, and a Python 2 script there that cannot be read costs the port
nothing."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.gaps import own_packages

TWO_HALVES = {
    "pytorch/model.py": """
        import torch
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(2, 2)
            def forward(self, x):
                return self.fc(x)
    """,
    "pytorch/main.py": """
        import argparse
        import torch
        from model import Net
        def train(args):
            model = Net()
            opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
            for _ in range(args.epochs):
                loss = model(torch.zeros(args.batch_size, 2)).sum()
                loss.backward()
                opt.step()
        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--lr", type=float, default=0.1)
            parser.add_argument("--batch_size", type=int, default=32)
            parser.add_argument("--epochs", type=int, default=250)
            train(parser.parse_args())
    """,
    "tensorflow/tf_util.py": """
        import tensorflow as tf
        def conv(x, n):
            return tf.layers.conv2d(x, n, 1)
    """,
    "tensorflow/train.py": """
        import argparse
        import tensorflow as tf
        import tf_util
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch", type=int, default=16)
        parser.add_argument("--epoch", type=int, default=201)
        FLAGS = parser.parse_args()
        BASE_LEARNING_RATE = 0.003
        def train():
            x = tf.placeholder(tf.float32)
            loss = tf.reduce_mean(tf_util.conv(x, 2))
            op = tf.train.MomentumOptimizer(BASE_LEARNING_RATE, 0.9).minimize(loss)
            with tf.Session() as sess:
                for _ in range(FLAGS.epoch):
                    sess.run(op)
        if __name__ == "__main__":
            train()
    """,
    # Python 2: the scan cannot read it
    "tensorflow/sem_seg/train.py": """
        import tensorflow as tf
        print "training"
    """,
}


def test_framework_named_folder_is_not_own_package(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, TWO_HALVES)))
    apart = dict(review.ancillary)
    assert apart.get("tensorflow/train.py", "").startswith("adapter for tensorflow")
    assert apart.get("tensorflow/tf_util.py", "").startswith("adapter for tensorflow")
    assert "pytorch/main.py" not in apart
    places = {(i.where.path, i.name) for i in review.recipe}
    assert not any(p.startswith("tensorflow/") for p, _ in places), places
    assert any(p == "pytorch/main.py" for p, _ in places)
    assert "tensorflow" in {t.package for t in review.third_party}
    sentences = " ".join(review.effort.explanation)
    assert "1 file counted apart could not be analysed" in sentences
    assert "what they use is not counted" not in sentences


def test_namespace_package_of_the_repository_stays_its_own(tmp_path: Path) -> None:
    # a folder with no __init__.py that the code imports by its modules is the repository's
    files = {
        "mylib/layers.py": "import torch\nclass L(torch.nn.Module):\n    pass\n",
        "run.py": "from mylib.layers import L\nimport mylib.layers\n",
    }
    write_repo(tmp_path, files)
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    assert "mylib" in own_packages(analyses)


def test_python2_standard_library_fallbacks_are_no_packages(tmp_path: Path) -> None:
    files = dict(TWO_HALVES)
    files["pytorch/compat.py"] = """
        try:
            import builtins
        except ImportError:
            import __builtin__ as builtins
        try:
            import cPickle as pickle
        except ImportError:
            import pickle
        try:
            from StringIO import StringIO
        except ImportError:
            from io import StringIO
        def dump(x, f):
            builtins.print(x)
            pickle.dump(x, f)
            return StringIO()
    """
    review = build_review(str(write_repo(tmp_path, files)))
    packages = {t.package for t in review.third_party}
    assert not packages & {"__builtin__", "cPickle", "StringIO"}, packages
