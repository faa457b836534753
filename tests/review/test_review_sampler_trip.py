"""A denoising module whose forward takes its noise levels to scipy and back on every step
(``torch.tensor([self.sigma_to_t(s) for s in sigmas.cpu().numpy()])``): the host call is
made by another method of the class, through the scipy interpolator ``__init__`` stored, and
the values come back through a ``torch.tensor`` spanning lines. A host round trip of the
module's forward. The small repository under fixtures/samplertrip/ was written for the
case."""

from __future__ import annotations

from apiscan.review.build import build_review
from apiscan.review.sources import with_facts


def test_a_module_s_host_interpolation_through_its_own_method_is_a_round_trip() -> None:
    review = build_review("fixtures/samplertrip", jobs=1)
    assert review.inference_only
    [trip] = [w for w in review.work if w.kind == "host-round-trip"]
    assert trip.what == "KarrasDenoiser.forward: scipy.interpolate.interp1d (self.sigma_to_t)"
    assert [(w.path, w.line) for w in trip.where] == [("gen/sampler.py", 23)]


def test_the_worker_names_the_host_call_a_method_makes_through_an_attribute() -> None:
    """The scan's record: ``forward`` calls ``self.sigma_to_t`` on what left the device,
    which calls the scipy object ``__init__`` stored, and a multi-line ``torch.tensor``
    around it brings the values back."""
    from apiscan.pipeline import ScanOptions, scan_with_facts

    _, analyses = scan_with_facts(ScanOptions("fixtures/samplertrip", cache_dir=None, jobs=1))
    trips = [
        trip
        for fa, facts in with_facts(analyses)
        if fa.path == "gen/sampler.py"
        for trip in facts.host_trips
    ]
    assert [(t.function, t.back) for t in trips] == [("KarrasDenoiser.forward", True)]
