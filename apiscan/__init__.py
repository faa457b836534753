"""apiscan: how hard is it to migrate this PyTorch repository to MindSpore?"""

__version__ = "0.1.0"
