"""The typed facts: the join keeps "may be dynamic", widening keeps the lattice finite."""

from __future__ import annotations

import pickle

from apiscan.program import values as pv

SITE = pv.Site("pkg/loss.py", 88, "int(counts[i])")
DYN_N = pv.HostNumber(SITE)


def test_join_keeps_may_be_dynamic() -> None:
    assert pv.join(pv.Tensor(dynamic=True), pv.TENSOR).dynamic
    assert pv.join(pv.TENSOR, pv.Tensor(dynamic=True)).dynamic
    assert pv.join(DYN_N, pv.STATIC) == DYN_N
    assert pv.join(pv.STATIC, pv.RandomNumber()) == pv.RandomNumber()
    # a mask joined with a plain tensor is no longer known to be a mask
    assert not pv.join(pv.Tensor(boolean=True), pv.TENSOR).boolean
    # ... but a guessed tensor (dtype unknown) does not erase it
    guessed = pv.Tensor(certain=False)
    assert pv.join(pv.Tensor(boolean=True), guessed).boolean
    assert pv.join(guessed, pv.Tensor(boolean=True)).boolean


def test_unknown_adds_no_information_but_uncertainty() -> None:
    assert pv.join(pv.UNKNOWN, DYN_N) == DYN_N
    joined = pv.join(pv.TENSOR, pv.UNKNOWN)
    assert isinstance(joined, pv.Tensor) and not joined.certain


def test_tuples_join_element_by_element() -> None:
    a = pv.Tup((pv.Tensor(boolean=True), pv.STATIC))
    b = pv.Tup((pv.Tensor(boolean=True), DYN_N))
    assert pv.join(a, b) == pv.Tup((pv.Tensor(boolean=True), DYN_N))
    # different lengths: a sequence of what the elements have in common (a mask and a static
    # value share nothing; with the tensor that leaves a possible tensor)
    assert pv.join(a, pv.Tup((pv.TENSOR,))) == pv.Seq(pv.Tensor(certain=False))


def test_widening_cuts_deep_containers() -> None:
    deep: pv.Fact = pv.TENSOR
    for _ in range(10):
        deep = pv.Seq(deep)
    assert pv.depth(pv.widen(deep)) <= pv.MAX_DEPTH


def test_declared_facts_stand() -> None:
    # an annotated tensor parameter stays certain whatever callers pass; data still flows in
    refined = pv.refine(pv.TENSOR, pv.Tensor(dynamic=True, certain=False))
    assert refined == pv.Tensor(dynamic=True, certain=True)


def test_construction_time_numbers_are_constants() -> None:
    assert pv.at_construction(pv.Seq(DYN_N)) == pv.Seq(pv.STATIC)
    assert pv.at_construction(pv.Tensor(dynamic=True)).dynamic


def test_chain_words() -> None:
    fact = pv.passed_by(pv.passed_by(DYN_N, "Criterion.forward"), "match_targets")
    words = pv.describe(fact, "topk_helper")
    assert words == (
        "is `int(counts[i])` read from tensor data at loss.py:88, passed by "
        "`Criterion.forward` → `match_targets` → `topk_helper`"
    )


def test_facts_are_plain_records() -> None:
    fact = pv.Tup((pv.Seq(DYN_N), pv.Instance("pkg.Head"), pv.Param("x")))
    assert pickle.loads(pickle.dumps(fact)) == fact
    assert repr(fact) == repr(pickle.loads(pickle.dumps(fact)))  # cache keys use repr


PASSED = "passed as `k` to `match` by `Criterion.forward`"


def test_chain_steps_are_located() -> None:
    site = pv.Site("pkg/loss.py", 88, "int(counts[i])", 13, "Criterion.forward")
    hop = pv.Hop("Criterion.forward", "call", "pkg/loss.py", 90, 9, "k", "match")
    back = pv.Hop("match", "return", "pkg/match.py", 12, 5)
    fact = pv.passed_by(pv.passed_by(pv.HostNumber(site), hop), back)
    assert [(s.path, s.line, s.column, s.function, s.message) for s in pv.steps(fact)] == [
        ("pkg/loss.py", 88, 13, "Criterion.forward", "`int(counts[i])` read from tensor data"),
        ("pkg/loss.py", 90, 9, "Criterion.forward", PASSED),
        ("pkg/match.py", 12, 5, "match", "returned by `match`"),
    ]
    # the words name only the calls; a static value has no chain
    words = pv.describe(fact, "topk_helper")
    assert words.endswith("passed by `Criterion.forward` → `topk_helper`")
    assert pv.steps(pv.passed_by(pv.STATIC, hop)) == ()
    # recursion adds no step: the same hop again, or the same function calling on
    assert pv.passed_by(fact, hop) == fact


def test_a_forward_parameter_takes_the_list_its_callers_pass() -> None:
    # forward's parameters are tensors by convention only: a list of data-dependent tensors
    # passed by the callers (per-image proposals) is what the parameter holds
    passed = pv.Seq(pv.Tensor(dynamic=True))
    assert pv.refine(pv.Tensor(arg=True), passed) == passed
    assert pv.refine(pv.Tensor(arg=True), pv.Tup((passed, pv.STATIC))) == pv.Tup(
        (passed, pv.STATIC)
    )
    # a tensor declared by other means (an annotation) is not overruled that way
    assert pv.refine(pv.Tensor(), passed) != passed


def test_an_array_stays_an_array_across_functions() -> None:
    """A helper returning ``pd.read_csv(...)`` or a numpy array hands its callers an array
    (whose columns and methods are never torch's), not a plain host value (whose items may
    be tensors); joined with any other host value it says no more than "static"."""
    from apiscan.extract.facts import to_fact, to_val
    from apiscan.resolve.values import ARRAY, NONTORCH

    fact = to_fact(ARRAY, lambda _v: None, lambda _n: None)
    assert fact == pv.Static(array=True)
    assert to_val(fact) == ARRAY
    assert to_val(to_fact(NONTORCH, lambda _v: None, lambda _n: None)) == NONTORCH
    assert pv.join(fact, pv.STATIC) == pv.STATIC
    assert pv.join(fact, fact) == fact


def test_a_builder_returning_the_model_alone_or_with_its_loss_keeps_the_tuple() -> None:
    model, loss = pv.Instance("pkg.model.Net"), pv.Instance("pkg.model.Criterion")
    both = pv.Tup((model, loss))
    # ``if not training: return model`` ... ``return model, criterion``
    assert pv.join(model, both) == both
    assert pv.join(both, model) == both
    # another class alone, or a torch class, is no part of the tuple: nothing known
    assert pv.join(loss, both) == pv.UNKNOWN
    torch_module = pv.Instance("torch.nn.Module")
    assert pv.join(torch_module, pv.Tup((torch_module, loss))) == pv.UNKNOWN


def test_a_parameter_annotated_with_a_torch_base_takes_the_repository_class_passed() -> None:
    declared, passed = pv.Instance("torch.nn.Module"), pv.Instance("pkg.model.Criterion")
    assert pv.refine(declared, passed) == passed
    # a torch class passed stays the join (nothing more precise to take)
    assert pv.refine(declared, pv.Instance("torch.nn.Linear")) == pv.join(
        declared, pv.Instance("torch.nn.Linear")
    )
