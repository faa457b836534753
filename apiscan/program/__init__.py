"""Whole-program inference: the repository index, per-function summaries and the solver.

Per-file workers return plain records (:mod:`apiscan.extract.records`); everything that needs
more than one file lives here and runs in the main process on those records:

- :mod:`~apiscan.program.index`: aliases, re-exports, the class hierarchy, "is it an nn.Module";
- :mod:`~apiscan.program.values`: the typed abstract values (facts) that cross functions;
- :mod:`~apiscan.program.solver`: parameter facts as the join over call sites, return and
  attribute facts, iterated to a fixed point; what each file must be re-walked with.
"""
