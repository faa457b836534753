"""A module loaded by a name its loader receives as a parameter (``find_class_in_module(
name, module)`` running ``importlib.import_module(module)`` and picking a class from the
module's ``__dict__``, its callers passing ``"models.nets." + kind``): the modules the
callers' names fit are loaded, and their classes may be the one picked, so they are
reached, even where a package also imports the module by name (``from .generator import
*``); a module no such name fits is not (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import uncalled_functions

FILES = {
    "util/__init__.py": "",
    "util/util.py": """
        import importlib


        def find_class_in_module(target_cls_name, module):
            clslib = importlib.import_module(module)
            cls = None
            for name, clsobj in clslib.__dict__.items():
                if name.lower() == target_cls_name.lower():
                    cls = clsobj
            return cls
    """,
    "models/__init__.py": "",
    "models/nets/__init__.py": """
        import util.util as util
        from models.nets.generator import *


        def find_network(kind, filename):
            module_name = "models.nets." + filename
            return util.find_class_in_module(kind + filename, module_name)


        def define_G(opt):
            return find_network(opt.netG, "generator")(opt)
    """,
    "models/nets/generator.py": """
        import torch


        class FancyGenerator(torch.nn.Module):
            def __init__(self, opt):
                super().__init__()
                self.conv = torch.nn.Conv2d(3, 3, 3)
    """,
    "models/helpers.py": """
        import torch


        class Unused(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = torch.nn.Conv2d(3, 3, 3)
    """,
    "train.py": """
        import argparse

        import torch

        import models.helpers
        import models.nets as nets

        parser = argparse.ArgumentParser()
        parser.add_argument("--netG", default="fancy")
        opt = parser.parse_args()
        net = nets.define_G(opt)
        optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
        for epoch in range(3):
            for x in [torch.zeros(1, 3, 8, 8)]:
                optimizer.zero_grad()
                net.conv(x).sum().backward()
                optimizer.step()
    """,
}


def test_classes_of_a_module_loaded_through_a_parameter_are_reached(tmp_path) -> None:
    root = write_repo(tmp_path, FILES)
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    dead = set(uncalled_functions(analyses, result))
    assert ("models/nets/generator.py", "FancyGenerator") not in dead, dead
    assert ("models/helpers.py", "Unused") in dead, dead
