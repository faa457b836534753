"""Whole-program inference: the repository index, per-function summaries and the solver.

Per-file workers return plain records (:mod:`apiscan.extract.records`); everything that needs
more than one file lives here and runs in the main process on those records:

- :mod:`~apiscan.program.index`: aliases, re-exports, the class hierarchy, "is it an nn.Module";
- :mod:`~apiscan.program.values`: the typed abstract values (facts) that cross functions;
- :mod:`~apiscan.program.solver`: parameter facts as the join over call sites, return and
  attribute facts, iterated to a fixed point; what each file must be re-walked with.

The rounds (driven by :func:`apiscan.pipeline._whole_program`). The first walk of each file
records what the solver needs as plain data: per function a summary (its parameters with what
the function alone knows of them, its joined return value with ``Param`` references standing
for its own parameters, the attributes it writes on ``self``) and per call of a repository
function the abstract arguments. The solver works on these records alone, so a chain of
helpers that only pass values on (``Param`` in, ``Param`` out) resolves without any walk. A
file is walked again only when its *environment* (the facts of its parameters, of the
functions it calls, of its classes' attributes) changed in a way that can change a finding
(:func:`~apiscan.program.solver.needs_walk`: a fact that may make a shape depend on data, or
a tensor reaching a parameter the walk found in a shape-sensitive place); a value *computed*
from such a fact inside a function (YOLOX's SimOTA: a mask built in one method, returned in a
tuple, passed to a second) needs that function's walk, one hop per round, at most
``MAX_ROUNDS`` rounds and a byte budget. A re-walk costs the interpreter alone: the worker
that walked the file first keeps its LibCST module, what Python's tree said (positions, def
lines) and the argument texts of its calls (:class:`apiscan.extract.TreeFacts`), and gets
the file again (:mod:`apiscan.workers`). Re-walking only the functions a changed fact can
reach is not done: a walk's intra-file state (returns of the file's own functions, class
attributes, the node ordinals positions are read from) runs through every function after.
Keeping a file's last analysis when its environment changed only under keys its walk never
read was measured and left out: on YOLOX every changed key of the 28 re-walks is one the
walk reads, and 27 of them change the analysis (the re-walks cost ~0.2 s of CPU, 80% of it
the interpreter). Nor can another order of the same walks (a file walked only once its
callers' and callees' re-walks are done) save walks without changing findings: a file's
environment is the join of what every round gave it (:func:`~apiscan.program.solver.widen_env`),
so a file that skips a round's facts can end with other ones. Measured on YOLOX (process
CPU): its 31 re-walks in four rounds and the 9 of the re-export round cost ~0.18 s in the
workers (a first analysis of its 91 files ~0.86 s, three fifths of it LibCST's parse), its
five solves ~0.05 s in the main process (each takes the facts of the call graph's components
and the environments of files that nothing changed from the previous one).
"""
