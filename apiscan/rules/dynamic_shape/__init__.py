"""Dynamic-shape rules (``DS1xx``): places where a tensor's shape depends on tensor values.

MindSpore compiles a network graph for fixed shapes; each rule here names one way PyTorch code
makes a shape depend on data, and the static rewrite. One module per rule; the registry finds
them. The detection itself lives in :mod:`apiscan.extract.shapes`, inside the extractor's one
traversal, because it needs the extractor's value tracking.
"""

from apiscan.rules.base import severities

#: Always-dynamic or variable-size ops: they break the network's static graph, and matter little in
#: data processing (which may stay on NumPy) or on the host.
GRAPH_SHAPE = severities(network="high", data="low", host="low")
